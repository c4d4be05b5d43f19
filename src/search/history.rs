//! Move-ordering memory of one search thread: killer moves per ply, the counter move to the
//! previous move, and history scores (butterfly, continuation, capture) that grow for moves
//! that caused cut-offs and shrink for those tried before them.

use super::params::{HISTORY_BONUS_BASE, HISTORY_BONUS_MARGIN, HISTORY_BONUS_MAX};
use crate::types::{Color, Move, Piece, PieceType, Square};

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

/// Bonus for a move that caused a cut-off at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * HISTORY_BONUS_MARGIN - HISTORY_BONUS_BASE).clamp(0, HISTORY_BONUS_MAX)
}

/// Adds `delta` to a history value, saturating smoothly towards ±HISTORY_MAX ("gravity").
#[inline]
fn update(value: &mut i16, delta: i32) {
    let v = *value as i32;
    let delta = delta.clamp(-HISTORY_MAX, HISTORY_MAX);
    *value = (v + delta - v * delta.abs() / HISTORY_MAX) as i16;
}

/// Continuation history: how good a move (piece, to) is after an earlier move (piece, to).
pub type ContinuationTable = [[[[i16; 64]; 12]; 64]; 12];

/// Pawn structures tracked by the evaluation correction.
const CORRECTION_ENTRIES: usize = 1 << 14;
/// Corrections are kept in 1/16 centipawn.
const CORRECTION_GRAIN: i32 = 16;
const CORRECTION_MAX: i32 = 400 * CORRECTION_GRAIN;

pub struct History {
    /// Per side to move and pawn structure: how far searches found the static evaluation off.
    correction: Box<[[i16; CORRECTION_ENTRIES]; 2]>,
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    captures: Box<[[[i16; 6]; 64]; 12]>,
    /// [0]: after the previous move (1 ply), [1]: after our own previous move (2 plies).
    continuation: [Box<ContinuationTable>; 2],
    killers: [[Move; 2]; MAX_PLY + 2],
    counters: Box<[[Move; 64]; 12]>,
}

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// An implementor must be valid with every byte zero (integers, and `Move`: its zero is
/// `Move::NULL`), as [`zeroed`] relies on it.
unsafe trait Zeroable {}

// SAFETY: a zero integer.
unsafe impl Zeroable for i16 {}
// SAFETY: `Move` is a `u16`; zero is `Move::NULL`.
unsafe impl Zeroable for Move {}
// SAFETY: an array of zero-valid elements is zero-valid.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A zeroed table on the heap, built in place (no multi-megabyte temporary on the stack, and
/// no page written twice: the allocator hands out zeroed memory).
fn zeroed<T: Zeroable>() -> Box<T> {
    // SAFETY: all-zero bytes are a valid `T` (the `Zeroable` contract).
    unsafe { Box::<T>::new_zeroed().assume_init() }
}

impl Default for History {
    fn default() -> Self {
        History {
            correction: zeroed(),
            butterfly: zeroed(),
            captures: zeroed(),
            continuation: [zeroed(), zeroed()],
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            counters: zeroed(),
        }
    }
}

/// A played move with its piece: the key of continuation and counter-move tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMove {
    pub piece: Piece,
    pub to: Square,
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The static evaluation corrected by what earlier searches of this pawn structure found.
    #[inline]
    pub fn corrected_eval(&self, color: Color, pawn_key: u64, raw: i32) -> i32 {
        let slot = self.correction[color as usize][pawn_key as usize % CORRECTION_ENTRIES];
        raw + slot as i32 / CORRECTION_GRAIN
    }

    /// Moves the correction towards `error` (search score minus raw evaluation), more for
    /// deeper searches.
    pub fn update_correction(&mut self, color: Color, pawn_key: u64, depth: i32, error: i32) {
        let slot = &mut self.correction[color as usize][pawn_key as usize % CORRECTION_ENTRIES];
        let weight = (depth + 1).min(16);
        let target = (error * CORRECTION_GRAIN).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        let value = (*slot as i32 * (256 - weight) + target * weight) / 256;
        *slot = value.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [Move::NULL; 2];
    }

    #[inline]
    pub fn counter(&self, previous: Option<PieceMove>) -> Move {
        previous.map_or(Move::NULL, |p| {
            self.counters[p.piece as usize][p.to as usize]
        })
    }

    /// Ordering score of a quiet move: butterfly plus the two continuation histories.
    #[inline]
    pub fn quiet_score(
        &self,
        color: Color,
        mv: Move,
        piece: Piece,
        previous_moves: &[Option<PieceMove>; 2],
    ) -> i32 {
        let mut score = self.butterfly[color as usize][mv.from() as usize][mv.to() as usize] as i32;
        for (table, prev) in self.continuation.iter().zip(previous_moves) {
            if let Some(p) = prev {
                score +=
                    table[p.piece as usize][p.to as usize][piece as usize][mv.to() as usize] as i32;
            }
        }
        score
    }

    #[inline]
    pub fn capture_score(&self, piece: Piece, to: Square, captured: PieceType) -> i32 {
        self.captures[piece as usize][to as usize][captured as usize] as i32
    }

    /// A quiet move caused a cut-off: reward it, punish the quiets tried before it.
    pub fn reward_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: (Move, Piece),
        tried: &[(Move, Piece)],
        previous_moves: &[Option<PieceMove>; 2],
        depth: i32,
    ) {
        let b = bonus(depth);
        let (mv, _) = best;
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        if let Some(prev) = previous_moves[0] {
            self.counters[prev.piece as usize][prev.to as usize] = mv;
        }
        self.update_quiet(color, best, previous_moves, b);
        for &other in tried {
            if other.0 != mv {
                self.update_quiet(color, other, previous_moves, -b);
            }
        }
    }

    fn update_quiet(
        &mut self,
        color: Color,
        (mv, piece): (Move, Piece),
        previous_moves: &[Option<PieceMove>; 2],
        delta: i32,
    ) {
        update(
            &mut self.butterfly[color as usize][mv.from() as usize][mv.to() as usize],
            delta,
        );
        for (table, prev) in self.continuation.iter_mut().zip(previous_moves) {
            if let Some(p) = prev {
                update(
                    &mut table[p.piece as usize][p.to as usize][piece as usize][mv.to() as usize],
                    delta,
                );
            }
        }
    }

    /// A capture caused a cut-off (or failed to): adjust its capture history.
    pub fn update_capture(&mut self, piece: Piece, to: Square, captured: PieceType, delta: i32) {
        update(
            &mut self.captures[piece as usize][to as usize][captured as usize],
            delta,
        );
    }
}
