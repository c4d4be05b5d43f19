//! Singular extensions: is the hash move much better than every other move?

use super::*;

/// What the singular-extension search decided for the hash move.
pub(super) enum Singular {
    /// Search it this many plies deeper (or shallower, when negative).
    Extend(i32),
    /// Return this score from the node without searching further.
    Cut(i32),
}

impl<A: SliderAttacks> Worker<'_, A> {
    /// Singular extension of the hash move `entry.mv`: searched once more without it at half
    /// depth, the node tells whether the hash move is much better than every other move.
    pub(super) fn singular(
        &mut self,
        board: &Board<A::Occ>,
        entry: TtEntry,
        beta: i32,
        depth: i32,
        node: Node,
        pv_node: bool,
    ) -> Singular {
        let ply = node.ply;
        let singular_beta = entry.score - SE_BETA_MARGIN.get() * depth;
        self.stack[ply].excluded = entry.mv;
        let score = self.negamax(
            board,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            node,
        );
        self.stack[ply].excluded = Move::NULL;
        if self.stopped {
            Singular::Cut(0)
        } else if score < singular_beta - DEXT_MARGIN.get()
            && !pv_node
            && self.stack[ply].double_extensions < DEXT_LIMIT.get()
        {
            Singular::Extend(2)
        } else if score < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            // Several moves beat beta: a cut is near certain (multi-cut).
            Singular::Cut(singular_beta)
        } else if entry.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
