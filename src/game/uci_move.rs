//! Moves written in UCI notation, read against a position.

use crate::attacks::Magic;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::Move;

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
