//! Set-wise direction fills (Kogge-Stone): the sliders of a whole set are flooded in one
//! direction through empty squares in three doubling steps, then shifted once more onto the
//! first blocker. One fill serves every slider of the set at once, which is what direction-wise
//! move generation and attack maps want.

use super::{Direction, SliderAttacks};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStone;

/// Attacks in `dir` of every slider in `sliders`, blocked by the complement of `empty`.
#[inline(always)]
pub fn fill_attacks(dir: Direction, sliders: Bitboard, empty: Bitboard) -> Bitboard {
    let d = dir.delta();
    let entry = dir.entry_mask();
    let mut fill = sliders;
    let mut pro = empty & entry;
    fill |= pro & fill.shift(d);
    pro &= pro.shift(d);
    fill |= pro & fill.shift(2 * d);
    pro &= pro.shift(2 * d);
    fill |= pro & fill.shift(4 * d);
    fill.shift(d) & entry
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
        let empty = !*occ;
        Direction::DIAGONAL
            .iter()
            .fold(Bitboard::EMPTY, |acc, &dir| {
                acc | fill_attacks(dir, sliders, empty)
            })
    }

    #[inline(always)]
    fn rook_set(sliders: Bitboard, occ: &Bitboard) -> Bitboard {
        let empty = !*occ;
        Direction::ORTHOGONAL
            .iter()
            .fold(Bitboard::EMPTY, |acc, &dir| {
                acc | fill_attacks(dir, sliders, empty)
            })
    }

    #[inline(always)]
    fn ray_set(dir: Direction, sliders: Bitboard, occ: &Bitboard) -> Bitboard {
        fill_attacks(dir, sliders, !*occ)
    }
}
