//! A game: the position the front-end was given plus the moves played since, with the keys of
//! every earlier position so the search can see repetitions; and moves read from UCI text.
//! It sits above move generation (a move is read by finding it among the legal ones), where
//! the board below cannot.

mod uci_move;

pub use uci_move::{MoveError, parse_uci_move};

use crate::board::{Board, FenError};
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
    pub fn play_uci(&mut self, text: &str, chess960: bool) -> Result<Move, MoveError> {
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
