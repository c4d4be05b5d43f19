//! The network's score scaled by the material left on the board (~13 elo ± 10 at 20 000
//! nodes, nets/README.md): the same advantage is worth more with many pieces to press it home
//! than in a bare ending, so the search learns to trade down when behind and to keep pieces
//! when ahead. The trainer applies the same scale to the network's output before comparing it
//! with the search score (`train::nnue::Objective::material_scaling`), so the network learns the
//! raw value and the scaled one is what both the search and the trainer's target measure.

use crate::attacks::Occupancy;
use crate::board::Board;
use crate::types::PieceType;

/// The scale is `(BASE + Σ weight · count) / DIVISOR`: 0.75 with kings alone, about 1.0 in a
/// typical middlegame (a queen, a rook and two minor pieces each, twelve pawns), 1.12 at the start.
const BASE: i32 = 768;
pub const DIVISOR: i32 = 1024;
/// Per piece of each kind, both colours, indexed by [`PieceType`] (kings do not count).
const WEIGHTS: [i32; 5] = [8, 12, 12, 20, 36];

/// The scale's numerator (over [`DIVISOR`]) for `board`.
#[inline]
pub fn material_scale<O: Occupancy>(board: &Board<O>) -> i32 {
    material_scale_of(|kind| board.pieces(kind).count())
}

/// The scale's numerator for a position with `count(kind)` pieces of each kind (both colours):
/// the one formula behind the engine's and the trainer's scale.
#[inline]
pub fn material_scale_of(count: impl Fn(PieceType) -> u32) -> i32 {
    let mut scale = BASE;
    for (kind, weight) in PieceType::ALL.iter().zip(WEIGHTS) {
        scale += weight * count(*kind) as i32;
    }
    scale
}

/// `raw` scaled by the material on `board`.
#[inline]
pub fn scale_by_material<O: Occupancy>(raw: i32, board: &Board<O>) -> i32 {
    raw * material_scale(board) / DIVISOR
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("a legal FEN")
    }

    #[test]
    fn the_scale_grows_with_material_and_keeps_the_sign() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let middle = board("r1bq1rk1/pp3ppp/2n2n2/8/3P4/2N2N2/PP3PPP/R2Q1RK1 w - - 0 12");
        let ending = board("8/5k2/8/3K4/8/8/8/8 w - - 0 60");
        assert_eq!(material_scale(&ending), BASE);
        assert!(material_scale(&ending) < material_scale(&middle));
        assert!(material_scale(&middle) < material_scale(&start));
        assert_eq!(
            material_scale(&start),
            BASE + 16 * 8 + 4 * 12 + 4 * 12 + 4 * 20 + 2 * 36
        );
        assert_eq!(scale_by_material(100, &ending), 75);
        assert_eq!(scale_by_material(-100, &ending), -75);
        assert_eq!(scale_by_material(0, &start), 0);
    }
}
