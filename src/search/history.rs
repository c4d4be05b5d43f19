//! Move-ordering memory of one search thread: killer moves per ply, the counter move to the
//! previous move, and history scores (butterfly, continuation, capture) that grow for moves
//! that caused cut-offs and shrink for those tried before them.

use super::limits::MAX_PLY;
use super::params::{HISTORY_BONUS_BASE, HISTORY_BONUS_MARGIN, HISTORY_BONUS_MAX};
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square};

const HISTORY_MAX: i32 = 16_384;

/// Bonus for a move that caused a cut-off at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * HISTORY_BONUS_MARGIN.get() - HISTORY_BONUS_BASE.get())
        .clamp(0, HISTORY_BONUS_MAX.get())
}

/// Adds `delta` to a history value, saturating smoothly towards ±HISTORY_MAX ("gravity").
#[inline]
fn update(value: &mut i16, delta: i32) {
    let v = *value as i32;
    let delta = delta.clamp(-HISTORY_MAX, HISTORY_MAX);
    *value = (v + delta - v * delta.abs() / HISTORY_MAX) as i16;
}

/// Butterfly history of one side: [from attacked][to attacked][from][to].
pub type ButterflyTable = [[[[i16; 64]; 64]; 2]; 2];

/// Continuation history: how good a move (piece, to) is after an earlier move (piece, to).
pub type ContinuationTable = [[[[i16; 64]; 12]; 64]; 12];

/// Entries of each correction table, indexed by a key of part of the position.
const CORRECTION_BITS: u32 = 14;
const CORRECTION_ENTRIES: usize = 1 << CORRECTION_BITS;
/// Corrections are kept in 1/16 centipawn.
const CORRECTION_GRAIN: i32 = 16;
const CORRECTION_MAX: i32 = 400 * CORRECTION_GRAIN;

/// The parts of a position the evaluation correction remembers errors by: the pawn structure,
/// and each side's pieces other than pawns (what the pawn key cannot tell apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    pub pawns: u64,
    pub non_pawns: [u64; 2],
}

impl CorrectionKeys {
    /// Each key's entry. The keys end in a multiplication, whose low bits see only the low bits
    /// of what was multiplied, so every bit is mixed into the top ones before they are taken.
    pub(super) fn slots(&self) -> [usize; 3] {
        [self.pawns, self.non_pawns[0], self.non_pawns[1]]
            .map(|k| (mix(k) >> (u64::BITS - CORRECTION_BITS)) as usize)
    }
}

/// A finaliser in which every input bit flips each output bit with probability about 1/2
/// (the constants are MurmurHash3's `fmix64`).
#[inline]
fn mix(mut k: u64) -> u64 {
    k = (k ^ (k >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    k = (k ^ (k >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    k ^ (k >> 33)
}

/// Weights of the pawn, White non-pawn and Black non-pawn corrections, in quarters: when all
/// three tables have learnt the same error, the correction is that error.
const CORRECTION_WEIGHTS: [i32; 3] = [2, 1, 1];

pub struct History {
    /// Per table (pawns, White's and Black's other pieces), side to move and key: how far
    /// searches found the static evaluation off.
    correction: Box<[[[i16; CORRECTION_ENTRIES]; 2]; 3]>,
    /// Per colour: a move out of or into an attack is learnt apart from the same move
    /// elsewhere. (threat-aware history)
    butterfly: Box<[ButterflyTable; 2]>,
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

/// Writes zero bytes over `table`.
fn zero<T: Zeroable>(table: &mut T) {
    // SAFETY: `table` is a live, exclusive reference, so one `T` may be written through it, and
    // all-zero bytes are a valid `T` (the `Zeroable` contract).
    unsafe { std::ptr::write_bytes(std::ptr::from_mut(table), 0, 1) }
}

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

/// What a quiet move's history depends on besides the move: the two moves before it, and the
/// squares the opponent attacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuietContext {
    pub previous: [Option<PieceMove>; 2],
    pub threats: Bitboard,
}

impl QuietContext {
    #[inline]
    fn butterfly_index(&self, mv: Move) -> [usize; 4] {
        let (from, to) = (mv.from(), mv.to());
        [
            self.threats.contains(from) as usize,
            self.threats.contains(to) as usize,
            from as usize,
            to as usize,
        ]
    }
}

/// A played move with its piece: the key of continuation and counter-move tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMove {
    pub piece: Piece,
    pub to: Square,
}

impl History {
    /// Forgets everything, in place: the pages stay mapped, so the next search does not
    /// fault them in again (with many threads, first touches contend in the kernel for seconds).
    pub fn clear(&mut self) {
        zero(&mut *self.correction);
        zero(&mut *self.butterfly);
        zero(&mut *self.captures);
        for table in &mut self.continuation {
            zero(&mut **table);
        }
        zero(&mut *self.counters);
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    /// The static evaluation corrected by what earlier searches of positions sharing its pawn
    /// structure or one side's other pieces found.
    #[inline]
    pub fn corrected_eval(&self, color: Color, keys: &CorrectionKeys, raw: i32) -> i32 {
        let weighted: i32 = (self.correction.iter().zip(keys.slots()))
            .zip(CORRECTION_WEIGHTS)
            .map(|((table, slot), weight)| table[color as usize][slot] as i32 * weight)
            .sum();
        raw + weighted / (4 * CORRECTION_GRAIN)
    }

    /// Moves each correction towards `error` (search score minus raw evaluation), more for
    /// deeper searches.
    pub fn update_correction(
        &mut self,
        color: Color,
        keys: &CorrectionKeys,
        depth: i32,
        error: i32,
    ) {
        let weight = (depth + 1).min(16);
        let target = (error * CORRECTION_GRAIN).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        for (table, slot) in self.correction.iter_mut().zip(keys.slots()) {
            let entry = &mut table[color as usize][slot];
            let value = (*entry as i32 * (256 - weight) + target * weight) / 256;
            *entry = value.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
        }
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
    pub fn quiet_score(&self, color: Color, mv: Move, piece: Piece, context: &QuietContext) -> i32 {
        let [f, t, from, to] = context.butterfly_index(mv);
        let mut score = self.butterfly[color as usize][f][t][from][to] as i32;
        for (table, prev) in self.continuation.iter().zip(&context.previous) {
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
        context: &QuietContext,
        depth: i32,
    ) {
        let b = bonus(depth);
        let (mv, _) = best;
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        if let Some(prev) = context.previous[0] {
            self.counters[prev.piece as usize][prev.to as usize] = mv;
        }
        self.update_quiet(color, best, context, b);
        for &other in tried {
            if other.0 != mv {
                self.update_quiet(color, other, context, -b);
            }
        }
    }

    fn update_quiet(
        &mut self,
        color: Color,
        (mv, piece): (Move, Piece),
        context: &QuietContext,
        delta: i32,
    ) {
        let [f, t, from, to] = context.butterfly_index(mv);
        update(&mut self.butterfly[color as usize][f][t][from][to], delta);
        for (table, prev) in self.continuation.iter_mut().zip(&context.previous) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: CorrectionKeys = CorrectionKeys {
        pawns: 11,
        non_pawns: [22, 33],
    };

    #[test]
    fn a_quiet_move_is_learnt_apart_by_whether_its_squares_are_attacked() {
        let mut history = History::default();
        let knight = Piece::new(Color::White, PieceType::Knight);
        let mv = Move::new(Square::G1, Square::F3, crate::types::MoveKind::Quiet);
        let safe = QuietContext::default();
        let from_attacked = QuietContext {
            threats: Bitboard::from_square(Square::G1),
            ..safe
        };
        let to_attacked = QuietContext {
            threats: Bitboard::from_square(Square::F3),
            ..safe
        };
        history.reward_quiet(Color::White, 0, (mv, knight), &[], &from_attacked, 10);
        assert!(history.quiet_score(Color::White, mv, knight, &from_attacked) > 0);
        assert_eq!(history.quiet_score(Color::White, mv, knight, &safe), 0);
        assert_eq!(
            history.quiet_score(Color::White, mv, knight, &to_attacked),
            0
        );
        // Squares away from the move do not matter.
        let elsewhere = QuietContext {
            threats: from_attacked.threats | Bitboard::from_square(Square::A8),
            ..safe
        };
        assert_eq!(
            history.quiet_score(Color::White, mv, knight, &elsewhere),
            history.quiet_score(Color::White, mv, knight, &from_attacked)
        );
    }

    fn learn(history: &mut History, keys: &CorrectionKeys, error: i32) {
        for _ in 0..200 {
            history.update_correction(Color::White, keys, 20, error);
        }
    }

    #[test]
    fn the_correction_learns_the_error_of_a_position() {
        let mut history = History::default();
        assert_eq!(history.corrected_eval(Color::White, &KEYS, 50), 50);
        learn(&mut history, &KEYS, 80);
        let corrected = history.corrected_eval(Color::White, &KEYS, 50);
        assert!((125..=130).contains(&corrected), "{corrected}");
        // Kept per side to move.
        assert_eq!(history.corrected_eval(Color::Black, &KEYS, 50), 50);
    }

    #[test]
    fn a_position_sharing_part_of_the_keys_gets_that_part() {
        let mut history = History::default();
        learn(&mut history, &KEYS, -80);
        let same_pawns = CorrectionKeys {
            pawns: KEYS.pawns,
            non_pawns: [44, 55],
        };
        let same_white_pieces = CorrectionKeys {
            pawns: 66,
            non_pawns: [KEYS.non_pawns[0], 77],
        };
        // Half the error through the pawn table, a quarter through White's pieces.
        let pawns_only = history.corrected_eval(Color::White, &same_pawns, 0);
        let white_pieces_only = history.corrected_eval(Color::White, &same_white_pieces, 0);
        assert!((-41..=-38).contains(&pawns_only), "{pawns_only}");
        assert!(
            (-21..=-18).contains(&white_pieces_only),
            "{white_pieces_only}"
        );
    }

    #[test]
    fn corrections_are_bounded() {
        let mut history = History::default();
        learn(&mut history, &KEYS, 100_000);
        let corrected = history.corrected_eval(Color::White, &KEYS, 0);
        let cap = CORRECTION_MAX / CORRECTION_GRAIN;
        assert!((cap - 2..=cap).contains(&corrected), "{corrected}");
    }
}
