//! Set-wise direction fills, the plain way (dumb7fill): the sliders of a whole set step one
//! square at a time through empty squares, six times (the longest empty stretch a ray can
//! cross), then once more onto the first blocker. Kogge-Stone reaches the same fill in three
//! doubling steps; this is the loop it shortens, with one shift and one AND per step.

use super::Direction;
use crate::types::Bitboard;

#[derive(Clone, Copy, Debug, Default)]
pub struct Dumb7Fill;

/// Attacks in `dir` of every slider in `sliders`, blocked by the complement of `empty`.
#[inline(always)]
pub fn fill_attacks(dir: Direction, sliders: Bitboard, empty: Bitboard) -> Bitboard {
    let d = dir.delta();
    let entry = dir.entry_mask();
    let open = empty & entry;
    let mut front = sliders;
    let mut fill = sliders;
    for _ in 0..6 {
        front = front.shift(d) & open;
        fill |= front;
    }
    fill.shift(d) & entry
}

super::direction::set_wise_backend!(Dumb7Fill, "dumb7fill", fill_attacks);
