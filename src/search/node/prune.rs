//! Node pruning before any move is searched: reverse futility and the null move.

use super::*;

impl<A: SliderAttacks> Worker<'_, A> {
    /// Reverse futility and null-move pruning, before any move is searched: a score that
    /// settles this node (not a PV node, not in check, no move excluded), if there is one.
    /// `eval` is the table-refined evaluation; the static one is on the stack already.
    pub(super) fn prune_node(
        &mut self,
        board: &Board<A::Occ>,
        beta: i32,
        depth: i32,
        node: Node,
        eval: i32,
    ) -> Option<i32> {
        let ply = node.ply;
        let static_eval = self.stack[ply].static_eval;
        // Not in check here, so as negamax computes it.
        let improving = self.improving(ply, static_eval);
        // The opponent's last move left them worse off than before it: one depth less margin.
        // (~18 elo ± 13 at 20 000 nodes; Halogen +10.2)
        let worsening = self.opponent_worsening(ply, static_eval);
        // Reverse futility: far above beta with little depth left, assume it holds.
        // (~44 elo ± 57, 2+0.02)
        if depth <= RFP_MAX_DEPTH.get()
            && eval - RFP_MARGIN.get() * (depth - improving as i32 - worsening as i32) >= beta
            && !is_decisive(eval)
            && !is_decisive(beta)
        {
            return Some((eval + beta) / 2);
        }
        // Null move: if passing still fails high, a real move will too. Not with only pawns
        // (zugzwang) and not twice in a row. (~44 elo ± 54, 2+0.02)
        let us = board.side_to_move();
        if depth >= NMP_MIN_DEPTH.get()
            && eval >= beta
            && static_eval >= beta - NMP_EVAL_DEPTH_MARGIN.get() * depth + NMP_EVAL_BASE.get()
            && board.has_non_pawn_material(us)
            && !(self.null_off.0 == us && ply < self.null_off.1)
            && ply >= 1
            && self.stack[ply - 1].moved.is_some()
        {
            let r = NMP_BASE_REDUCTION.get()
                + depth / NMP_DEPTH_DIVISOR.get()
                + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_MAX_EVAL_REDUCTION.get());
            let mut child = *board;
            child.play_null();
            self.eval.push(ply, board, Move::NULL, &child);
            self.keys.push(board.hash());
            let null_floor = std::mem::replace(&mut self.null_floor, self.keys.len());
            self.stack[ply].moved = None;
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            let score = -self.negamax(
                &child,
                -beta,
                -beta + 1,
                depth - r,
                node.child(false, !node.cut),
            );
            self.keys.pop();
            self.null_floor = null_floor;
            if self.stopped {
                return Some(0);
            }
            if score < beta {
                return None;
            }
            let score = if is_decisive(score) { beta } else { score };
            if board.has_more_than_a_minor(us) {
                return Some(score);
            }
            // With a lone minor piece zugzwang is common (`kbK5/pp6/1P6/8/8/8/8/R7 w`: every
            // Black move loses, passing does not; the mate in two stayed hidden until depth
            // 24): a real search, without our null moves, must fail high too.
            let verify_depth = (depth - r).max(1);
            let off = std::mem::replace(&mut self.null_off, (us, ply + verify_depth as usize));
            let verified = self.negamax(board, beta - 1, beta, verify_depth, node);
            self.null_off = off;
            if self.stopped {
                return Some(0);
            }
            if verified >= beta {
                return Some(score);
            }
        }
        None
    }
}
