//! Set-wise direction fills (Kogge-Stone): the sliders of a whole set are flooded in one
//! direction through empty squares in three doubling steps, then shifted once more onto the
//! first blocker. One fill serves every slider of the set at once, which is what direction-wise
//! move generation and attack maps want.

use super::Direction;
use crate::types::Bitboard;

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

super::direction::set_wise_backend!(KoggeStone, "kogge-stone", fill_attacks);
