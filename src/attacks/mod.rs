//! Attack generation: leaper tables shared by all, and one file per sliding-attack technique,
//! each behind [`SliderAttacks`] so move generation can be instantiated with any of them.

mod backend;
mod classical;
mod classical_calc;
mod direction;
mod dumb7fill;
mod hyperbola;
mod kogge_stone;
mod magic;
pub mod magic_finder;
mod magic_numbers;
mod occupancy;
mod pext;
mod rotated;
mod tables;

pub use backend::Backend;
pub use classical::Classical;
pub use classical_calc::ClassicalCalc;
pub use direction::Direction;
pub use dumb7fill::Dumb7Fill;
pub use hyperbola::Hyperbola;
pub use kogge_stone::KoggeStone;
pub use magic::Magic;
pub use occupancy::Occupancy;
pub use pext::Pext;
pub use rotated::{Rotated, RotatedOccupancy};
pub use tables::{
    KNIGHT_STEPS, between, bishop_rays, king_attacks, king_attacks_set, knight_attacks,
    knight_attacks_set, line, pawn_attacks, pawn_attacks_set, ray, ray_walk, rook_rays,
    slider_walk,
};

use crate::types::{Bitboard, Square};

/// A sliding-attack technique: bishop and rook attacks from a square given the occupancy.
///
/// Every implementation must return exactly the squares a slider reaches, stopping at (and
/// including) the first occupied square in each direction.
pub trait SliderAttacks: Copy + Send + Sync + 'static {
    /// The occupancy representation this technique reads.
    type Occ: Occupancy;

    /// The name used by the `Attacks` option and `--attacks`.
    const NAME: &'static str;

    fn bishop(sq: Square, occ: &Self::Occ) -> Bitboard;

    fn rook(sq: Square, occ: &Self::Occ) -> Bitboard;

    #[inline(always)]
    fn queen(sq: Square, occ: &Self::Occ) -> Bitboard {
        Self::bishop(sq, occ) | Self::rook(sq, occ)
    }

    /// Attacks of a whole set of bishops-like sliders (set-wise back-ends do this at once).
    #[inline(always)]
    fn bishop_set(sliders: Bitboard, occ: &Self::Occ) -> Bitboard {
        sliders
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | Self::bishop(sq, occ))
    }

    /// Attacks of a whole set of rook-like sliders.
    #[inline(always)]
    fn rook_set(sliders: Bitboard, occ: &Self::Occ) -> Bitboard {
        sliders
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | Self::rook(sq, occ))
    }

    /// Squares reached in one direction by a set of sliders that move that way.
    #[inline(always)]
    fn ray_set(dir: Direction, sliders: Bitboard, occ: &Self::Occ) -> Bitboard {
        sliders.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
            let attacks = if dir.is_diagonal() {
                Self::bishop(sq, occ)
            } else {
                Self::rook(sq, occ)
            };
            acc | (attacks & ray(dir, sq))
        })
    }
}
