use crate::types::{Bitboard, Square};
use std::fmt::Debug;

/// How a back-end wants the occupied squares represented.
///
/// Most back-ends read a plain [`Bitboard`]; rotated bitboards also keep the occupancy transposed
/// and packed along both diagonal directions. The board keeps one of these up to date
/// incrementally, so each back-end finds its occupancy ready in make/unmake.
pub trait Occupancy: Copy + Default + PartialEq + Debug + Send + Sync + 'static {
    fn from_bitboard(bb: Bitboard) -> Self;

    /// The occupied squares as a plain bitboard.
    fn bitboard(&self) -> Bitboard;

    /// Flips one square between empty and occupied.
    fn toggle(&mut self, sq: Square);

    /// Flips every square of `squares` (a from-to pair, usually).
    #[inline(always)]
    fn toggle_all(&mut self, squares: Bitboard) {
        for sq in squares {
            self.toggle(sq);
        }
    }

    /// A copy with `sq` flipped.
    #[inline(always)]
    fn toggled(mut self, sq: Square) -> Self {
        self.toggle(sq);
        self
    }
}

impl Occupancy for Bitboard {
    #[inline(always)]
    fn from_bitboard(bb: Bitboard) -> Self {
        bb
    }

    #[inline(always)]
    fn bitboard(&self) -> Bitboard {
        *self
    }

    #[inline(always)]
    fn toggle(&mut self, sq: Square) {
        *self ^= sq;
    }

    #[inline(always)]
    fn toggle_all(&mut self, squares: Bitboard) {
        *self ^= squares;
    }
}
