//! Hyperbola quintessence: on one line, `o - 2r` sets every bit from the slider up to the first
//! blocker; doing the same on the reversed board gives the other direction, so
//! `(o - 2r) ^ reverse(reverse(o) - 2 reverse(r))` is the line's attack set. Files and diagonals
//! have at most one square per rank, so `swap_bytes` reverses them; ranks need `reverse_bits`.

use super::{Direction, SliderAttacks, ray};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Hyperbola;

/// Line masks through each square, the square itself excluded.
struct Masks {
    file: [u64; 64],
    diagonal: [u64; 64],
    anti_diagonal: [u64; 64],
    rank: [u64; 64],
}

const fn masks() -> Masks {
    let mut m = Masks {
        file: [0; 64],
        diagonal: [0; 64],
        anti_diagonal: [0; 64],
        rank: [0; 64],
    };
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i);
        m.file[i] = ray(Direction::North, sq).0 | ray(Direction::South, sq).0;
        m.diagonal[i] = ray(Direction::NorthEast, sq).0 | ray(Direction::SouthWest, sq).0;
        m.anti_diagonal[i] = ray(Direction::NorthWest, sq).0 | ray(Direction::SouthEast, sq).0;
        m.rank[i] = ray(Direction::East, sq).0 | ray(Direction::West, sq).0;
        i += 1;
    }
    m
}

static MASKS: Masks = masks();

/// Line attacks for lines with one square per rank (files, diagonals, anti-diagonals).
#[inline(always)]
fn byte_line(mask: u64, bit: u64, occ: u64) -> u64 {
    let forward = occ & mask;
    let reverse = forward.swap_bytes();
    let forward = forward.wrapping_sub(bit.wrapping_mul(2));
    let reverse = reverse.wrapping_sub(bit.swap_bytes().wrapping_mul(2));
    (forward ^ reverse.swap_bytes()) & mask
}

#[inline(always)]
fn rank_line(mask: u64, bit: u64, occ: u64) -> u64 {
    let forward = occ & mask;
    let reverse = forward.reverse_bits();
    let forward = forward.wrapping_sub(bit.wrapping_mul(2));
    let reverse = reverse.wrapping_sub(bit.reverse_bits().wrapping_mul(2));
    (forward ^ reverse.reverse_bits()) & mask
}

impl SliderAttacks for Hyperbola {
    type Occ = Bitboard;
    const NAME: &'static str = "hyperbola";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        let i = sq as usize;
        let bit = 1u64 << i;
        Bitboard(
            byte_line(MASKS.diagonal[i], bit, occ.0)
                | byte_line(MASKS.anti_diagonal[i], bit, occ.0),
        )
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        let i = sq as usize;
        let bit = 1u64 << i;
        Bitboard(byte_line(MASKS.file[i], bit, occ.0) | rank_line(MASKS.rank[i], bit, occ.0))
    }
}
