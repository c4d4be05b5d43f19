//! Static evaluation: a tapered (middlegame/endgame) sum of linear terms whose weights are fitted
//! by the repository's own tuner. Scores are centipawns from the side to move's point of view.

mod features;
mod masks;
pub mod params;
mod pawn_cache;
mod score;
pub mod terms;

pub use features::{Accumulator, Trace, evaluate_terms, pawn_terms, piece_terms};
pub use pawn_cache::PawnCache;
pub use score::{S, s};

use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::types::{Color, PieceType};

/// The game phase: 24 with all pieces on the board, 0 with only kings and pawns.
pub const MAX_PHASE: i32 = 24;

/// Sums parameter values.
#[derive(Default)]
struct Total(S);

impl Accumulator for Total {
    #[inline(always)]
    fn add(&mut self, term: usize, sign: i32, count: i32) {
        self.0 += params::PARAMS[term] * (sign * count);
    }
}

/// Blends middlegame and endgame by phase; `scale` (of 128) shrinks drawish endgames.
#[inline(always)]
pub fn taper(score: S, phase: i32, scale: i32) -> i32 {
    let eg = score.eg() * scale / 128;
    (score.mg() * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
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
    let (phase, scale) = piece_terms::<A, _>(board, &mut total, passed);
    taper(total.0, phase, scale) * board.side_to_move().sign()
}

/// The evaluation without a pawn cache (for one-off use such as the `eval` command).
pub fn evaluate_uncached<A: SliderAttacks>(board: &Board<A::Occ>) -> i32 {
    let mut total = Total::default();
    let (phase, scale) = evaluate_terms::<A, _>(board, &mut total);
    taper(total.0, phase, scale) * board.side_to_move().sign()
}

/// A breakdown of the evaluation by term group (the `eval` command), White's point of view.
pub fn describe<A: SliderAttacks>(board: &Board<A::Occ>) -> String {
    use std::fmt::Write as _;
    let mut trace = Trace::default();
    let (phase, scale) = evaluate_terms::<A, _>(board, &mut trace);
    let mut out = String::new();
    let _ = writeln!(out, "{:<52} {:>7} {:>7}", "term (White - Black)", "mg", "eg");
    let mut total = S::ZERO;
    for (name, start, len) in terms::GROUPS {
        let mut group = S::ZERO;
        for i in start..start + len {
            group += params::PARAMS[i] * trace.coefficients[i];
        }
        total += group;
        if group != S::ZERO {
            let _ = writeln!(out, "{name:<52} {:>7} {:>7}", group.mg(), group.eg());
        }
    }
    let _ = writeln!(out, "{:<52} {:>7} {:>7}", "total", total.mg(), total.eg());
    let white = taper(total, phase, scale);
    let _ = writeln!(out, "phase {phase}/{MAX_PHASE}, endgame scale {scale}/128");
    let _ = write!(
        out,
        "evaluation: {white} cp (White), {} cp (side to move)",
        white * board.side_to_move().sign()
    );
    out
}
