//! Legal move generation in two styles: piece by piece ([`piecewise`]) and direction by
//! direction ([`directional`], whose per-direction target sets feed the search's move picker).

mod checks;
mod constraints;
pub mod directional;
mod is_legal;
mod list;
pub mod piecewise;
mod sink;
mod special;

pub use checks::CheckInfo;
pub use constraints::{Constraints, GenType};
pub use is_legal::is_legal;
pub use list::{MAX_MOVES, MoveList};
pub use sink::{MoveCounter, MoveSink, PROMOTION_PIECES, PawnMoves};

use crate::attacks::SliderAttacks;
use crate::board::Board;

/// All legal moves, generated piece by piece.
#[inline]
pub fn legal_moves<A: SliderAttacks>(board: &Board<A::Occ>) -> MoveList {
    let mut list = MoveList::new();
    piecewise::generate::<A, _>(board, GenType::All, &mut list);
    list
}

/// The number of legal moves, counted without building them.
#[inline]
pub fn count_legal_moves<A: SliderAttacks>(board: &Board<A::Occ>) -> u64 {
    let mut counter = MoveCounter::default();
    piecewise::generate::<A, _>(board, GenType::All, &mut counter);
    counter.0
}

/// All legal moves, generated direction by direction.
#[inline]
pub fn legal_moves_directional<A: SliderAttacks>(board: &Board<A::Occ>) -> MoveList {
    let mut list = MoveList::new();
    directional::TargetSets::new::<A>(board, GenType::All).drain(&mut list);
    list
}
