//! Rays on the empty board, calculated: the rank, file, diagonal and anti-diagonal through the
//! square come from shifts of one constant line, split into the positive half
//! (`line & (-2 << sq)`) and the negative half (`line & ((1 << sq) - 1)`), each cut at its
//! nearest blocker. No table at all: a back-end for machines where memory is slower than ALUs.

use super::SliderAttacks;
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct ClassicalCalc;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const MAIN_DIAGONAL: u64 = 0x8040_2010_0804_0201;
const MAIN_ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080;

#[inline(always)]
fn rank_mask(sq: u32) -> u64 {
    0xFF << (sq & 56)
}

#[inline(always)]
fn file_mask(sq: u32) -> u64 {
    FILE_A << (sq & 7)
}

/// Squares sharing `rank - file` with `sq`.
#[inline(always)]
fn diagonal_mask(sq: u32) -> u64 {
    let diag = (sq & 56) as i32 - ((sq & 7) as i32 * 8);
    if diag >= 0 {
        MAIN_DIAGONAL << diag
    } else {
        MAIN_DIAGONAL >> -diag
    }
}

/// Squares sharing `rank + file` with `sq`.
#[inline(always)]
fn anti_diagonal_mask(sq: u32) -> u64 {
    let diag = 56 - (sq & 56) as i32 - ((sq & 7) as i32 * 8);
    if diag >= 0 {
        MAIN_ANTI_DIAGONAL >> diag
    } else {
        MAIN_ANTI_DIAGONAL << -diag
    }
}

/// Attacks along one line through `sq`: nearest blocker above by bitscan forward, below by
/// bitscan reverse. A guard bit keeps both scans defined when a half is empty.
#[inline(always)]
fn line_attacks(line: u64, sq: u32, occ: u64) -> u64 {
    let upper = line & (!1u64 << sq);
    let lower = line & ((1u64 << sq) - 1);
    let first_up = (upper & occ | 1 << 63).trailing_zeros();
    let first_down = 63 - (lower & occ | 1).leading_zeros();
    let up = upper & (2u64 << first_up).wrapping_sub(1);
    let down = lower & !((1u64 << first_down) - 1);
    up | down
}

impl SliderAttacks for ClassicalCalc {
    type Occ = Bitboard;
    const NAME: &'static str = "classical-calc";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        let s = sq as u32;
        Bitboard(
            line_attacks(diagonal_mask(s), s, occ.0)
                | line_attacks(anti_diagonal_mask(s), s, occ.0),
        )
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        let s = sq as u32;
        Bitboard(line_attacks(rank_mask(s), s, occ.0) | line_attacks(file_mask(s), s, occ.0))
    }
}
