//! Static evaluation, in centipawns from the side to move's point of view, by one of two
//! evaluators: the neural network (`nnue/`, the default), or the hand-crafted evaluation, a
//! tapered (middlegame/endgame) sum of linear terms whose weights the repository's own tuner
//! fits (`features.rs`, `params.rs`).

mod features;
mod masks;
pub mod nnue;
pub mod params;
mod pawn_cache;
mod score;
pub mod terms;

pub use features::{TermSink, Trace, evaluate_terms, pawn_terms, piece_terms};
pub use pawn_cache::{PawnCache, pawn_key};
pub use score::{S, s};

use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::types::{Color, PieceType};

/// Which evaluation the search uses.
#[derive(Clone)]
pub enum Evaluator {
    /// The hand-crafted evaluation (`params.rs`).
    Hce,
    /// A network: the embedded one or one loaded with `EvalFile`.
    Nnue(std::sync::Arc<nnue::Network>),
}

/// The embedded network: it beat the hand-crafted evaluation by SPRT (`nets/README.md`).
impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::Nnue(nnue::default_network())
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Evaluator::Hce => write!(f, "Hce"),
            Evaluator::Nnue(_) => write!(f, "Nnue"),
        }
    }
}

/// The game phase: 24 with all pieces on the board, 0 with only kings and pawns.
pub const MAX_PHASE: i32 = 24;

/// Sums parameter values.
#[derive(Default)]
struct Total(S);

impl TermSink for Total {
    #[inline(always)]
    fn add(&mut self, term: usize, sign: i32, count: i32) {
        self.0 += params::PARAMS[term] * (sign * count);
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

/// A breakdown of the evaluation by term group (the `eval` command), White's point of view,
/// and the score of `net`.
pub fn describe<A: SliderAttacks>(board: &Board<A::Occ>, net: &nnue::Network) -> String {
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
    let white = taper(total, t);
    let _ = writeln!(
        out,
        "phase {}/{MAX_PHASE}, endgame scale {}/128",
        t.phase,
        t.scale_for(total.eg())
    );
    let raw = nnue::Accumulator::from_board(net, board).evaluate(net, board);
    let stm = nnue::scale_by_material(raw, board);
    let _ = writeln!(
        out,
        "network: {} cp (White), {stm} cp (side to move); {raw} cp before the material scale {}/1024",
        stm * board.side_to_move().sign(),
        nnue::material_scale(board)
    );
    let _ = write!(
        out,
        "evaluation: {white} cp (White), {} cp (side to move)",
        white * board.side_to_move().sign()
    );
    out
}
