//! Rays on the empty board, looked up: each direction's ray from the square is cut behind the
//! nearest blocker, found by bitscan forward on positive rays and bitscan reverse on negative ones.

use super::{Direction, SliderAttacks, ray};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Classical;

#[inline(always)]
fn positive_ray(dir: Direction, sq: Square, occ: Bitboard) -> Bitboard {
    let attacks = ray(dir, sq);
    let blockers = attacks & occ;
    if blockers.any() {
        attacks ^ ray(dir, blockers.lsb())
    } else {
        attacks
    }
}

#[inline(always)]
fn negative_ray(dir: Direction, sq: Square, occ: Bitboard) -> Bitboard {
    let attacks = ray(dir, sq);
    let blockers = attacks & occ;
    if blockers.any() {
        attacks ^ ray(dir, blockers.msb())
    } else {
        attacks
    }
}

impl SliderAttacks for Classical {
    type Occ = Bitboard;
    const NAME: &'static str = "classical";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        positive_ray(Direction::NorthEast, sq, *occ)
            | positive_ray(Direction::NorthWest, sq, *occ)
            | negative_ray(Direction::SouthEast, sq, *occ)
            | negative_ray(Direction::SouthWest, sq, *occ)
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        positive_ray(Direction::North, sq, *occ)
            | positive_ray(Direction::East, sq, *occ)
            | negative_ray(Direction::South, sq, *occ)
            | negative_ray(Direction::West, sq, *occ)
    }
}
