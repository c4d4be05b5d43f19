//! Static evaluation, in centipawns from the side to move's point of view, by one of two
//! evaluators of equal standing: the neural network (`nnue/`, the default) and the hand-crafted
//! evaluation (`hce/`). The search asks one question, [`PathEval::evaluate`], which picks the
//! evaluator and applies the material scale.

pub mod hce;
pub mod nnue;

use crate::attacks::{Occupancy, SliderAttacks};
use crate::board::Board;
use crate::types::Move;
use hce::PawnCache;
use nnue::{AccumulatorStack, Network, scale_by_material};
use std::sync::Arc;

/// Which evaluation the search uses.
#[derive(Clone)]
pub enum Evaluator {
    /// The hand-crafted evaluation (`hce/`).
    Hce,
    /// A network: the embedded one or one loaded with `EvalFile`.
    Nnue(Arc<Network>),
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

/// One search thread's evaluation along its search path: the network with its accumulators,
/// updated move by move, or the hand-crafted evaluation with its pawn cache. Kept by the thread
/// from one search to the next, so neither buffer is allocated per search.
#[derive(Default)]
pub struct PathEval {
    pawn_cache: PawnCache,
    nnue: Option<(Arc<Network>, AccumulatorStack)>,
    /// The accumulators of an earlier network search, kept through hand-crafted ones.
    idle_stack: Option<AccumulatorStack>,
}

impl PathEval {
    /// Evaluates with `evaluator` from now on, along paths of up to `plies` positions.
    pub fn select(&mut self, evaluator: &Evaluator, plies: usize) {
        let stack = self
            .nnue
            .take()
            .map(|(_, stack)| stack)
            .or(self.idle_stack.take());
        match evaluator {
            // The stack's size does not depend on the network: it is refreshed at the root.
            Evaluator::Nnue(net) => {
                let stack = stack.unwrap_or_else(|| AccumulatorStack::new(net, plies));
                self.nnue = Some((net.clone(), stack));
            }
            Evaluator::Hce => self.idle_stack = stack,
        }
    }

    /// Starts a path at `root`.
    pub fn set_root<O: Occupancy>(&mut self, root: &Board<O>) {
        if let Some((net, stack)) = &mut self.nnue {
            stack.set_root(net, root);
        }
    }

    /// Records `mv` (or the null move), which took `parent` at `ply` to `child`.
    #[inline]
    pub fn push<O: Occupancy>(
        &mut self,
        ply: usize,
        parent: &Board<O>,
        mv: Move,
        child: &Board<O>,
    ) {
        if let Some((net, stack)) = &mut self.nnue {
            stack.push(net, ply, parent, mv, child);
        }
    }

    /// The evaluation of `board`, the position at `ply` on the current path: the network's
    /// output scaled by the material on the board, or the hand-crafted evaluation.
    #[inline]
    pub fn evaluate<A: SliderAttacks>(&mut self, board: &Board<A::Occ>, ply: usize) -> i32 {
        match &mut self.nnue {
            Some((net, stack)) => scale_by_material(stack.evaluate(net, board, ply), board),
            None => hce::evaluate::<A>(board, &mut self.pawn_cache),
        }
    }
}

/// A breakdown of the hand-crafted evaluation by term group (the `eval` command), White's point
/// of view, and the score of `net`.
pub fn describe<A: SliderAttacks>(board: &Board<A::Occ>, net: &Network) -> String {
    use std::fmt::Write as _;
    let (mut out, white) = hce::describe::<A>(board);
    let raw = nnue::Accumulator::from_board(net, board).evaluate(net, board);
    let stm = scale_by_material(raw, board);
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
