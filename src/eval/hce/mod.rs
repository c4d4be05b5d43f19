//! The hand-crafted evaluation: a tapered (middlegame/endgame) sum of linear terms whose
//! weights the repository's own tuner fits. `terms.rs` says what it looks at, `layout.rs` where
//! each term's weights sit in the flat table, `weights.rs` the fitted values.

pub mod layout;
mod masks;
mod mg_eg;
mod pawn_cache;
mod terms;
pub mod weights;

pub use mg_eg::{S, s};
pub use pawn_cache::{PawnCache, pawn_key};
pub use terms::{TermSink, Trace, evaluate_terms, pawn_terms, piece_terms};

use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::types::{Color, PieceType};

/// The game phase: 24 with all pieces on the board, 0 with only kings and pawns.
pub const MAX_PHASE: i32 = 24;

/// Sums parameter values.
#[derive(Default)]
struct Total(S);

impl TermSink for Total {
    #[inline(always)]
    fn add(&mut self, term: usize, sign: i32, count: i32) {
        self.0 += weights::PARAMS[term] * (sign * count);
    }
}

/// How to blend a position's middlegame and endgame scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taper {
    /// 0 (pawn endgame) ..= [`MAX_PHASE`] (all pieces on).
    pub phase: i32,
    /// Endgame scale (of 128) when White is ahead, and when Black is: drawish material shrinks
    /// the winning side's score.
    pub scale: [i32; 2],
}

impl Taper {
    /// The endgame scale for an endgame score of this sign.
    #[inline(always)]
    pub fn scale_for(&self, eg: i32) -> i32 {
        self.scale[(eg < 0) as usize]
    }
}

/// Blends middlegame and endgame by phase, scaling drawish endgames; White's point of view.
#[inline(always)]
pub fn taper(score: S, t: Taper) -> i32 {
    let eg = score.eg() * t.scale_for(score.eg()) / 128;
    (score.mg() * t.phase + eg * (MAX_PHASE - t.phase)) / MAX_PHASE
}

/// The evaluation of `board` for the side to move, in centipawns.
pub fn evaluate<A: SliderAttacks>(board: &Board<A::Occ>, cache: &mut PawnCache) -> i32 {
    let white = board.pieces_of(Color::White, PieceType::Pawn);
    let black = board.pieces_of(Color::Black, PieceType::Pawn);
    let mut total = Total::default();
    let passed = match cache.probe(white, black) {
        Some((score, passed)) => {
            total.0 = score;
            passed
        }
        None => {
            let passed = pawn_terms(board, &mut total);
            cache.store(white, black, total.0, passed);
            passed
        }
    };
    let t = piece_terms::<A, _>(board, &mut total, passed);
    taper(total.0, t) * board.side_to_move().sign()
}

/// The evaluation without a pawn cache (for one-off use such as the `eval` command).
pub fn evaluate_uncached<A: SliderAttacks>(board: &Board<A::Occ>) -> i32 {
    let mut total = Total::default();
    let t = evaluate_terms::<A, _>(board, &mut total);
    taper(total.0, t) * board.side_to_move().sign()
}

/// The evaluation by term group, White's point of view (the `eval` command): the table, the
/// phase line, and White's score.
pub fn describe<A: SliderAttacks>(board: &Board<A::Occ>) -> (String, i32) {
    use std::fmt::Write as _;
    let mut trace = Trace::default();
    let t = evaluate_terms::<A, _>(board, &mut trace);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<52} {:>7} {:>7}",
        "term (White - Black)", "mg", "eg"
    );
    let mut total = S::ZERO;
    for (name, start, len) in layout::GROUPS {
        let mut group = S::ZERO;
        for i in start..start + len {
            group += weights::PARAMS[i] * trace.coefficients[i];
        }
        total += group;
        if group != S::ZERO {
            let _ = writeln!(out, "{name:<52} {:>7} {:>7}", group.mg(), group.eg());
        }
    }
    let _ = writeln!(out, "{:<52} {:>7} {:>7}", "total", total.mg(), total.eg());
    let _ = writeln!(
        out,
        "phase {}/{MAX_PHASE}, endgame scale {}/128",
        t.phase,
        t.scale_for(total.eg())
    );
    (out, taper(total, t))
}
