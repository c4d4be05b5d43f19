//! Set-wise direction fills (Kogge-Stone): the sliders of a whole set are flooded in one
//! direction through empty squares in three doubling steps, then shifted once more onto the
//! first blocker. One fill serves every slider of the set at once, which is what direction-wise
//! move generation and attack maps want.

use super::{Direction, SliderAttacks};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStone;

/// Squares a slider may step *into* when moving in `dir`: excludes the file it would wrap onto.
#[inline(always)]
const fn entry_mask(dir: Direction) -> u64 {
    match dir.step().0 {
        1 => !Bitboard::FILE_A.0,
        -1 => !Bitboard::FILE_H.0,
        _ => !0,
    }
}

#[inline(always)]
const fn shift(bb: u64, delta: i32) -> u64 {
    if delta >= 0 {
        bb << delta
    } else {
        bb >> -delta
    }
}

/// Attacks in `dir` of every slider in `sliders`, blocked by the complement of `empty`.
#[inline(always)]
pub fn fill_attacks(dir: Direction, sliders: u64, empty: u64) -> u64 {
    let d = dir.delta();
    let entry = entry_mask(dir);
    let mut fill = sliders;
    let mut pro = empty & entry;
    fill |= pro & shift(fill, d);
    pro &= shift(pro, d);
    fill |= pro & shift(fill, 2 * d);
    pro &= shift(pro, 2 * d);
    fill |= pro & shift(fill, 4 * d);
    shift(fill, d) & entry
}

impl SliderAttacks for KoggeStone {
    type Occ = Bitboard;
    const NAME: &'static str = "kogge-stone";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        Self::bishop_set(Bitboard::from_square(sq), occ)
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        Self::rook_set(Bitboard::from_square(sq), occ)
    }

    #[inline(always)]
    fn bishop_set(sliders: Bitboard, occ: &Bitboard) -> Bitboard {
        let empty = !occ.0;
        Bitboard(
            Direction::DIAGONAL
                .iter()
                .fold(0, |acc, &dir| acc | fill_attacks(dir, sliders.0, empty)),
        )
    }

    #[inline(always)]
    fn rook_set(sliders: Bitboard, occ: &Bitboard) -> Bitboard {
        let empty = !occ.0;
        Bitboard(
            Direction::ORTHOGONAL
                .iter()
                .fold(0, |acc, &dir| acc | fill_attacks(dir, sliders.0, empty)),
        )
    }

    #[inline(always)]
    fn ray_set(dir: Direction, sliders: Bitboard, occ: &Bitboard) -> Bitboard {
        Bitboard(fill_attacks(dir, sliders.0, !occ.0))
    }
}
