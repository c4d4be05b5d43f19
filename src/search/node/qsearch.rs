//! Quiescence search: captures and promotions until the position is quiet.

use super::*;

impl<A: SliderAttacks> Worker<'_, A> {
    /// Captures (and promotions) until the position is quiet; all evasions when in check.
    pub fn quiescence(
        &mut self,
        board: &Board<A::Occ>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        if self.check_stop() {
            return 0;
        }
        let in_check = board.in_check::<A>();
        if Self::fifty_move_draw(board, in_check) || board.insufficient_material() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.evaluate(board, ply)
            };
        }

        let tt = self.shared.tt;
        let entry = tt.probe(board.hash(), ply, board.halfmove_clock());
        if let Some(e) = entry
            && e.cuts_off(alpha, beta)
        {
            return e.score;
        }

        // Standing pat on the same scale as the main search's margins.
        let (raw_eval, static_eval) =
            self.evaluations(board, entry, ply, &correction_keys(board), in_check);
        let eval = refined(entry, static_eval, in_check);
        let mut best_score = eval;
        if !in_check {
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
        }

        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let mut picker = if in_check {
            MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL)
        } else {
            MovePicker::quiescence(tt_move)
        };
        // Quiet moves come only as evasions.
        let context = QuietContext {
            previous: self.previous_moves(ply),
            threats: if in_check {
                board.attacked_by::<A>(!board.side_to_move())
            } else {
                Bitboard::EMPTY
            },
        };
        let mut best_move = Move::NULL;
        let mut searched = 0;
        // Built the first time move-count pruning needs to know whether a capture checks.
        let mut checks = None;
        while let Some(mv) = picker.next::<A>(board, self.history, &context) {
            self.shared.tt.prefetch(board.key_after(mv));
            if !in_check {
                // Delta pruning: even winning the piece cannot lift the score to alpha.
                let victim = board
                    .piece_type_on(mv.to())
                    .map_or(0, |p| SEE_VALUES[p as usize]);
                if mv.promotion().is_none() && eval + victim + DELTA_MARGIN.get() <= alpha {
                    continue;
                }
                // Futility: a capture that wins nothing cannot close the gap either.
                if eval + QS_FUTILITY_MARGIN.get() <= alpha && !see_ge::<A>(board, mv, 1) {
                    continue;
                }
                if !see_ge::<A>(board, mv, 0) {
                    continue;
                }
                // Move-count pruning: the picker gave the likeliest captures first.
                if searched >= QS_MOVE_LIMIT.get()
                    && mv.promotion().is_none()
                    && !checks
                        .get_or_insert_with(|| CheckInfo::new::<A>(board))
                        .gives_check::<A>(board, mv)
                {
                    continue;
                }
            } else if searched > 0 && best_score > -MATE_BOUND {
                // One evasion holds: the quiet ones left are unlikely to do better.
                picker.skip_quiets();
            }
            let child = self.make(board, mv, ply);
            searched += 1;
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.pop_repetition_key();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        let entry = TtEntry {
            mv: best_move,
            score: best_score,
            eval: raw_eval,
            depth: 0,
            bound,
        };
        tt.store(board.hash(), ply, entry);
        best_score
    }
}
