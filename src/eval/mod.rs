//! Static evaluation, from the side to move's point of view, in centipawns.

use crate::attacks::Occupancy;
use crate::board::Board;
use crate::types::{Color, PieceType};

pub const PIECE_VALUES: [i32; 6] = [100, 310, 330, 500, 950, 0];

/// Material plus a small bonus for central squares (a placeholder until the tuned evaluation).
pub fn evaluate<O: Occupancy>(board: &Board<O>) -> i32 {
    let mut score = 0;
    for color in Color::ALL {
        let sign = color.sign();
        for kind in PieceType::ALL {
            for sq in board.pieces_of(color, kind) {
                let file = sq.file() as i32;
                let rank = sq.rank() as i32;
                let centre = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
                let bonus = match kind {
                    PieceType::King => 0,
                    PieceType::Pawn => {
                        rank * 3 * sign - if color == Color::Black { -21 } else { 0 }
                    }
                    _ => centre * 3,
                };
                score += sign * (PIECE_VALUES[kind as usize] + bonus);
            }
        }
    }
    score * board.side_to_move().sign()
}
