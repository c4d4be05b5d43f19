//! Moves written in UCI notation, read against a position.

use crate::attacks::Magic;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Move, MoveParseError, MoveText};
use std::fmt;

/// Why a move in UCI notation cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in UCI notation.
    Malformed { text: String, error: MoveParseError },
    /// A move, but not a legal one in this position.
    Illegal { text: String, fen: String },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed { text, error } => write!(f, "malformed move '{text}': {error}"),
            MoveError::Illegal { text, fen } => {
                write!(f, "illegal move '{text}' in position {fen}")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Finds the legal move written `text` in UCI notation. Castling is accepted as king-takes-rook
/// (`e1h1`) always, and as the king's two-square step (`e1g1`) unless in Chess960 mode, where
/// that text can be a plain king move.
pub fn parse_uci_move(board: &Board, text: &str, chess960: bool) -> Result<Move, MoveError> {
    let text = text.trim();
    let wanted: MoveText = text.parse().map_err(|error| MoveError::Malformed {
        text: text.to_string(),
        error,
    })?;
    let written_as = |mv: Move, king_takes_rook: bool| {
        let to = if mv.is_castle() && !king_takes_rook {
            mv.castle_king_to()
        } else {
            mv.to()
        };
        MoveText {
            from: mv.from(),
            to,
            promotion: mv.promotion(),
        }
    };
    let moves = legal_moves::<Magic>(board);
    let find = |king_takes_rook| {
        moves
            .iter()
            .copied()
            .find(|&m| written_as(m, king_takes_rook) == wanted)
    };
    find(true)
        .or_else(|| (!chess960).then(|| find(false)).flatten())
        .ok_or_else(|| MoveError::Illegal {
            text: text.to_string(),
            fen: board.to_fen(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Square, SquareParseError};

    #[test]
    fn move_errors_say_malformed_or_illegal() {
        let board = Board::startpos();
        assert_eq!(
            parse_uci_move(&board, "e2e", false),
            Err(MoveError::Malformed {
                text: "e2e".to_string(),
                error: MoveParseError::Length(3)
            })
        );
        assert_eq!(
            parse_uci_move(&board, "e2x4", false),
            Err(MoveError::Malformed {
                text: "e2x4".to_string(),
                error: MoveParseError::To(SquareParseError::File('x'))
            })
        );
        let Err(MoveError::Illegal { text, fen }) = parse_uci_move(&board, "e2e5", false) else {
            panic!("e2e5 is illegal here");
        };
        assert_eq!((text.as_str(), fen), ("e2e5", board.to_fen()));
        let mv = parse_uci_move(&board, "E2E4", false).unwrap();
        assert_eq!((mv.from(), mv.to()), (Square::E2, Square::E4));
    }

    #[test]
    fn castling_is_read_both_ways_outside_chess960() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let two_step = parse_uci_move(&board, "e1g1", false).unwrap();
        assert!(two_step.is_castle());
        assert_eq!(parse_uci_move(&board, "e1h1", false), Ok(two_step));
        assert_eq!(parse_uci_move(&board, "e1h1", true), Ok(two_step));
        // In Chess960 mode e1g1 is a king move of two squares: not a legal one here.
        assert!(matches!(
            parse_uci_move(&board, "e1g1", true),
            Err(MoveError::Illegal { .. })
        ));
    }
}
