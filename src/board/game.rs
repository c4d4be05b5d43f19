//! A game: the position the front-end was given plus the moves played since, with the keys of
//! every earlier position so the search can see repetitions.

use super::{Board, FenError};
use crate::attacks::Magic;
use crate::movegen::legal_moves;
use crate::types::Move;

#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Keys of the positions before the current one, oldest first.
    history: Vec<u64>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(board: Board) -> Game {
        Game {
            board,
            history: Vec::new(),
            moves: Vec::new(),
        }
    }

    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Board::from_fen(fen).map(Game::new)
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Keys of the earlier positions, oldest first (the current one excluded).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.board.hash());
        self.moves.push(mv);
        self.board.play(mv);
    }

    /// Parses and plays a move in UCI notation; an illegal or malformed move is an error and
    /// leaves the game unchanged.
    pub fn play_uci(&mut self, text: &str, chess960: bool) -> Result<Move, String> {
        let mv = parse_uci_move(&self.board, text, chess960)?;
        self.play(mv);
        Ok(mv)
    }

    /// How often the current position occurred before (same key, within the reversible moves).
    pub fn repetitions(&self) -> usize {
        let key = self.board.hash();
        let reversible = self.board.halfmove_clock() as usize;
        self.history
            .iter()
            .rev()
            .take(reversible)
            .filter(|&&k| k == key)
            .count()
    }
}

/// Finds the legal move written `text` in UCI notation. Castling is accepted as king-takes-rook
/// (`e1h1`) always, and as the king's two-square step (`e1g1`) unless in Chess960 mode, where
/// that text can be a plain king move.
pub fn parse_uci_move(board: &Board, text: &str, chess960: bool) -> Result<Move, String> {
    let text = text.trim();
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(format!("malformed move '{text}'"));
    }
    let lower = text.to_ascii_lowercase();
    let moves = legal_moves::<Magic>(board);
    moves
        .iter()
        .copied()
        .find(|m| m.to_uci(true) == lower)
        .or_else(|| {
            (!chess960)
                .then(|| moves.iter().copied().find(|m| m.to_uci(false) == lower))
                .flatten()
        })
        .ok_or_else(|| {
            if crate::types::Square::parse(&lower[0..2]).is_none()
                || crate::types::Square::parse(&lower[2..4]).is_none()
            {
                format!("malformed move '{text}'")
            } else {
                format!("illegal move '{text}' in position {}", board.to_fen())
            }
        })
}
