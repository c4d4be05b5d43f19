//! Moves in Standard Algebraic Notation (`Nf3`, `exd5`, `e8=Q+`, `O-O`, `R1e2`, `Qh4xe1`),
//! found among the legal moves of a position. A capture mark is not checked; check and
//! annotation marks are ignored. Castling is by the king's side, so Chess960 reads the same.

use crate::attacks::Magic;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{File, Move, PieceType, Rank, Square};

/// The legal move `san` names in `board`: an error when none or more than one does.
pub fn find_move(board: &Board, san: &str) -> Result<Move, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let wanted = parse(text).ok_or_else(|| format!("'{san}' is not a move in SAN"))?;
    let moves = legal_moves::<Magic>(board);
    let mut found = moves
        .iter()
        .copied()
        .filter(|&mv| wanted.matches(board, mv));
    match (found.next(), found.next()) {
        (Some(mv), None) => Ok(mv),
        (None, _) => Err(format!("'{san}' is not legal in {}", board.to_fen())),
        (Some(_), Some(_)) => Err(format!("'{san}' is ambiguous in {}", board.to_fen())),
    }
}

/// What a SAN move says.
#[derive(Debug, PartialEq)]
enum San {
    /// Castling: true on the king's side.
    Castle(bool),
    Normal {
        piece: PieceType,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<PieceType>,
    },
}

impl San {
    fn matches(&self, board: &Board, mv: Move) -> bool {
        match *self {
            San::Castle(king_side) => {
                mv.is_castle() && (mv.castle_king_to().file() == File::G) == king_side
            }
            San::Normal {
                piece,
                from_file,
                from_rank,
                to,
                promotion,
            } => {
                !mv.is_castle()
                    && mv.to() == to
                    && mv.promotion() == promotion
                    && board.piece_on(mv.from()).map(|p| p.kind()) == Some(piece)
                    && from_file.is_none_or(|f| mv.from().file() == f)
                    && from_rank.is_none_or(|r| mv.from().rank() == r)
            }
        }
    }
}

fn parse(text: &str) -> Option<San> {
    match text {
        "O-O" | "0-0" => return Some(San::Castle(true)),
        "O-O-O" | "0-0-0" => return Some(San::Castle(false)),
        _ => {}
    }
    let (piece, rest) = match text.chars().next()? {
        c @ ('N' | 'B' | 'R' | 'Q' | 'K') => (PieceType::from_char(c)?, &text[1..]),
        _ => (PieceType::Pawn, text),
    };
    let (rest, promotion) = split_promotion(rest, piece)?;
    let squares: Vec<char> = rest.chars().filter(|&c| c != 'x' && c != '-').collect();
    if squares.len() < 2 || squares.len() > 4 {
        return None;
    }
    let (from, to) = squares.split_at(squares.len() - 2);
    let to = Square::new(file(to[0])?, Rank::from_char(to[1])?);
    let (mut from_file, mut from_rank) = (None, None);
    for &c in from {
        match (file(c), Rank::from_char(c)) {
            (Some(file), _) if from_file.is_none() && from_rank.is_none() => from_file = Some(file),
            (_, Some(rank)) if from_rank.is_none() => from_rank = Some(rank),
            _ => return None,
        }
    }
    Some(San::Normal {
        piece,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// A file letter: lower case only (`B` is a bishop).
fn file(c: char) -> Option<File> {
    c.is_ascii_lowercase().then(|| File::from_char(c)).flatten()
}

/// The text before a promotion (`=Q`, or a bare `Q` after a pawn move) and the piece.
fn split_promotion(text: &str, piece: PieceType) -> Option<(&str, Option<PieceType>)> {
    let last = text.chars().last()?;
    if piece != PieceType::Pawn || !"NBRQ".contains(last) {
        return Some((text, None));
    }
    let promotion = PieceType::from_char(last)?;
    let body = &text[..text.len() - 1];
    Some((body.strip_suffix('=').unwrap_or(body), Some(promotion)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &[&str]) -> Board {
        let mut board = Board::from_fen(fen).unwrap();
        for san in moves {
            let mv = find_move(&board, san).unwrap_or_else(|e| panic!("{e}"));
            board.play(mv);
        }
        board
    }

    #[test]
    fn every_kind_of_move_is_found() {
        let board = play(
            crate::board::START_FEN,
            &[
                "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "d4", "Nf6", "Nf3", "Bf5", "Bd2", "e6",
                "Bc4", "Bb4", "O-O", "Nbd7", "a3", "O-O-O", "axb4!", "Qxa1?!",
            ],
        );
        assert_eq!(
            board.to_fen(),
            "2kr3r/pppn1ppp/4pn2/5b2/1PBP4/2N2N2/1PPB1PPP/q2Q1RK1 w - - 0 11"
        );
        // Promotions with and without '=', a capture-promotion, check marks.
        let board = play(
            "r3k3/1P6/8/8/8/8/p7/4K2R w K - 0 1",
            &["bxa8=Q+", "Kd7", "O-O", "a1N"],
        );
        assert_eq!(board.to_fen(), "Q7/3k4/8/8/8/8/8/n4RK1 w - - 0 3");
        let board = play("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a8R+"]);
        assert!(board.to_fen().starts_with("R3k3"));
    }

    #[test]
    fn disambiguation_by_file_rank_or_square() {
        let fen = "4k3/8/8/8/8/R6R/8/R3K3 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        for ambiguous in ["Rb3", "Ra2"] {
            assert!(
                find_move(&board, ambiguous)
                    .unwrap_err()
                    .contains("ambiguous")
            );
        }
        assert_eq!(
            play(fen, &["Rhb3"]).to_fen(),
            "4k3/8/8/8/8/RR6/8/R3K3 b - - 1 1"
        );
        assert_eq!(
            play(fen, &["R1a2"]).to_fen(),
            "4k3/8/8/8/8/R6R/R7/4K3 b - - 1 1"
        );
        assert_eq!(
            play(fen, &["Ra3xb3"]).to_fen(),
            "4k3/8/8/8/8/1R5R/8/R3K3 b - - 1 1"
        );
    }

    #[test]
    fn chess960_castling_reads_by_side() {
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        let board = play(fen, &["O-O", "O-O-O"]);
        assert_eq!(
            board.to_fen(),
            "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2"
        );
    }

    #[test]
    fn illegal_malformed_and_ambiguous_moves_are_refused() {
        let board = Board::startpos();
        for (san, says) in [
            ("e5", "not legal"),
            ("Nf4", "not legal"),
            ("O-O", "not legal"),
            ("Zf3", "not a move"),
            ("e", "not a move"),
            ("e2e4e5", "not a move"),
        ] {
            let error = find_move(&board, san).unwrap_err();
            assert!(error.contains(says), "{san}: {error}");
        }
        let two_knights = Board::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
        assert!(
            find_move(&two_knights, "Nd2")
                .unwrap_err()
                .contains("ambiguous")
        );
    }
}
