//! Principal variation search at one node, and the history updates of a cut-off.
//!
//! "(~N elo)" beside a technique: what switching it off (or adding it) measured here, on the
//! engine of its day; the matches are in docs/search-tests.md.

use super::*;

/// Late-move reduction by depth and move number: `LMR_BASE / 100 + ln(depth) ln(moves) /
/// (LMR_DIVISOR / 100)`.
fn lmr_formula(depth: usize, played: usize) -> i32 {
    let base = LMR_BASE.get() as f64 / 100.0;
    let divisor = LMR_DIVISOR.get() as f64 / 100.0;
    (base + (depth as f64).ln() * (played as f64).ln() / divisor) as i32
}

/// The reduction of the `played`th move at `depth`, from a table built once; a tuning build,
/// whose parameters change at run time, computes it each time.
fn reduction(depth: i32, played: i32) -> i32 {
    let (depth, played) = (depth.clamp(1, 63) as usize, played.clamp(1, 63) as usize);
    #[cfg(feature = "spsa")]
    return lmr_formula(depth, played);
    #[cfg(not(feature = "spsa"))]
    {
        use std::sync::LazyLock;
        static TABLE: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
            let mut table = [[0; 64]; 64];
            for (depth, row) in table.iter_mut().enumerate().skip(1) {
                for (played, r) in row.iter_mut().enumerate().skip(1) {
                    *r = lmr_formula(depth, played);
                }
            }
            table
        });
        TABLE[depth][played]
    }
}

/// The moves searched at a node before the current one (for history maluses), on the stack:
/// the first 64 quiet moves and 64 captures (later ones are not kept).
struct Tried {
    quiets: ArrayVec<(Move, Piece), 64>,
    captures: ArrayVec<Move, 64>,
}

impl Tried {
    fn new() -> Self {
        Tried {
            quiets: ArrayVec::new(),
            captures: ArrayVec::new(),
        }
    }

    /// Keeps the move if there is room.
    fn push(&mut self, mv: Move, piece: Piece, quiet: bool) {
        if quiet {
            let _ = self.quiets.try_push((mv, piece));
        } else {
            let _ = self.captures.try_push(mv);
        }
    }
}

impl<A: SliderAttacks> Worker<'_, A> {
    /// Principal variation search, the root (`ply` 0) included.
    pub fn negamax(
        &mut self,
        board: &Board<A::Occ>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        node: Node,
    ) -> i32 {
        let Node {
            ply,
            in_check,
            cut: cut_node,
        } = node;
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = 0;
        if depth <= 0 && !in_check {
            return self.quiescence(board, alpha, beta, ply);
        }
        depth = depth.max(1);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_stop() {
            return 0;
        }
        let excluded = self.stack[ply].excluded;
        if root {
            self.root_first = Move::NULL;
        }

        if !root {
            if Self::fifty_move_draw(board, in_check)
                || self.is_repetition(board)
                || board.insufficient_material()
            {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.evaluate(board, ply)
                };
            }
            // Upcoming repetition: one reversible move back to a position of the path holds a
            // draw.
            if alpha < DRAW && self.upcoming_repetition(board) {
                alpha = DRAW;
                if alpha >= beta {
                    return alpha;
                }
            }
            // Mate-distance pruning: no line here can beat a mate already found closer to the root.
            // (not measured: it changes only mate scores)
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let us = board.side_to_move();
        let tt = self.shared.tt;
        // A search with a move excluded (singular verification) keeps the entry's move and
        // evaluation, but its score and bound include the excluded move: no cut-off from them.
        let entry = tt.probe(board.hash(), ply, board.halfmove_clock());
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry
            && excluded.is_null()
            && !pv_node
            && e.depth >= depth
            && e.cuts_off(alpha, beta)
        {
            return e.score;
        }

        if !root
            && excluded.is_null()
            && let Some(score) = self.probe_tablebase(board, alpha, beta, depth, ply)
        {
            return score;
        }

        let keys = correction_keys(board);
        let (raw_eval, static_eval) = self.evaluations(board, entry, ply, &keys, in_check);
        let eval = if excluded.is_null() {
            refined(entry, static_eval, in_check)
        } else {
            static_eval
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        self.history.clear_killers(ply + 1);

        if !pv_node
            && !in_check
            && excluded.is_null()
            && let Some(score) = self.prune_node(board, beta, depth, node, eval)
        {
            return score;
        }

        // Internal iterative reduction: without a hash move this node is probably not critical
        // (not the root, and not a singular verification, which has its depth already).
        // (~13 elo, ± 25, 2+0.02)
        if tt_move.is_null()
            && excluded.is_null()
            && !root
            && depth >= IIR_MIN_DEPTH.get()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        let context = QuietContext {
            previous: self.previous_moves(ply),
            threats: board.attacked_by::<A>(!us),
        };
        let counter = self.history.counter(context.previous[0]);
        let mut picker = MovePicker::new(tt_move, self.history.killers(ply), counter);
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut moves_searched = 0;
        let mut tried = Tried::new();
        // Quiet moves the picker gave, pruned or not, for late-move pruning.
        let mut quiets_seen = 0;
        let checks = CheckInfo::new::<A>(board);

        while let Some(mv) = picker.next::<A>(board, self.history, &context) {
            if mv == excluded || (root && !self.root_moves.contains(&mv)) {
                continue;
            }
            // The child's table entry is fetched while the move is weighed for pruning.
            self.shared.tt.prefetch(board.key_after(mv));
            let quiet = mv.is_quiet();
            quiets_seen += quiet as i32;
            let piece = board.piece_on(mv.from()).expect("a mover");
            let gives_check = checks.gives_check::<A>(board, mv);

            if !root && best_score > -MATE_BOUND && board.has_non_pawn_material(us) {
                // Late-move pruning and futility: late quiet moves at low depth rarely matter.
                // Past the late-move limit the picker skips the remaining quiets altogether.
                // (late-move pruning ~93 elo, futility ~9, SEE pruning of quiets and captures
                // ~22; each ± 50-55 at 2+0.02, docs/search-tests.md)
                if quiet {
                    let limit =
                        (LMP_BASE.get() + depth * depth) / (LMP_DIVISOR.get() - improving as i32);
                    if quiets_seen > limit && !in_check {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility at the depth late-move reductions would search this move to,
                    // not the node's. (~21 elo ± 14 at 20 000 nodes over futility by depth)
                    let lmr_depth = (depth - 1 - reduction(depth, moves_searched + 1)).max(0);
                    if !in_check
                        && !gives_check
                        && lmr_depth <= FUTILITY_MAX_DEPTH.get()
                        && eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if depth <= SEE_QUIET_MAX_DEPTH.get()
                        && !see_ge::<A>(board, mv, -SEE_QUIET_MARGIN.get() * depth)
                    {
                        continue;
                    }
                } else if depth <= SEE_NOISY_MAX_DEPTH.get()
                    && !see_ge::<A>(board, mv, -SEE_NOISY_MARGIN.get() * depth * depth)
                {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than every other move?
            // (~41 elo ± 25 at 2+0.02; double extensions ~15 ± 13 more at 4+0.04)
            let mut extension = 0;
            if !root
                && depth >= SE_MIN_DEPTH.get()
                && mv == tt_move
                && excluded.is_null()
                && let Some(e) = entry
                && e.depth >= depth - SE_TT_DEPTH_MARGIN.get()
                && e.bound != Bound::Upper
                && !is_decisive(e.score)
            {
                match self.singular(board, e, beta, depth, node, pv_node) {
                    Singular::Extend(by) => extension = by,
                    Singular::Cut(score) => return score,
                }
            }

            let nodes_before = self.nodes;
            let child = self.make(board, mv, ply);
            // Checks that do not lose material are extended; losing sacrifices are not.
            // (SEE gate: part of the review's fixes, +22 ± 22 together at 4+0.04)
            if extension == 0 && gives_check && see_ge::<A>(board, mv, 0) {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + (extension >= 2) as i32;
            moves_searched += 1;
            if root && self.id == 0 {
                self.announce_root_move(mv, depth, moves_searched);
            }

            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    node.child(gives_check, !pv_node && !cut_node),
                );
            } else {
                // Late-move reductions. (~158 elo ± 65, 2+0.02)
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH.get() && moves_searched > 1 + pv_node as i32 {
                    r = reduction(depth, moves_searched);
                    if quiet {
                        r += !pv_node as i32 + cut_node as i32 - improving as i32;
                        let hist = self.history.quiet_score(us, mv, piece, &context);
                        r -= (hist / LMR_HISTORY_DIVISOR.get())
                            .clamp(-LMR_MAX_HISTORY.get(), LMR_MAX_HISTORY.get());
                        if mv == self.history.killers(ply)[0]
                            || mv == self.history.killers(ply)[1]
                            || mv == counter
                        {
                            r -= 1;
                        }
                    } else {
                        r = r / 2 + cut_node as i32;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    // The root's moves all matter: reduce them less.
                    if root {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    node.child(gives_check, true),
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        node.child(gives_check, !cut_node),
                    );
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(
                        &child,
                        -beta,
                        -alpha,
                        new_depth,
                        node.child(gives_check, false),
                    );
                }
            }
            self.pop_repetition_key();
            if root {
                self.root_move_nodes[Self::root_index(mv)] += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }
            if root && moves_searched == 1 {
                self.root_first = mv;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if root {
                        self.root_score = score;
                    }
                    if alpha >= beta {
                        self.reward_cutoff(board, mv, ply, depth, &tried, &context);
                        break;
                    }
                }
            }
            tried.push(mv, piece, quiet);
        }

        if moves_searched == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        if excluded.is_null() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let entry = TtEntry {
                mv: best_move,
                score: best_score,
                eval: raw_eval,
                depth,
                bound,
            };
            tt.store(board.hash(), ply, entry);
            // Teach the correction where a quiet search disagreed with the evaluation.
            // (the non-pawn tables ~19 elo ± 14 at 2+0.02, beside the pawn table)
            if !in_check
                && !is_decisive(best_score)
                && (best_move.is_null() || best_move.is_quiet())
                && bound.refines_estimate(best_score, static_eval)
            {
                self.history
                    .update_correction(us, &keys, depth, best_score - raw_eval);
            }
        }
        best_score
    }

    fn reward_cutoff(
        &mut self,
        board: &Board<A::Occ>,
        mv: Move,
        ply: usize,
        depth: i32,
        tried: &Tried,
        context: &QuietContext,
    ) {
        let us = board.side_to_move();
        let b = bonus(depth);
        if mv.is_quiet() {
            let piece = board.piece_on(mv.from()).expect("a mover");
            self.history
                .reward_quiet(us, ply, (mv, piece), &tried.quiets, context, depth);
        } else {
            self.update_capture_history(board, mv, b);
        }
        for &c in &tried.captures {
            self.update_capture_history(board, c, -b);
        }
    }

    fn update_capture_history(&mut self, board: &Board<A::Occ>, mv: Move, delta: i32) {
        if !mv.is_capture() {
            return;
        }
        let piece = board.piece_on(mv.from()).expect("a mover");
        let victim = board.piece_type_on(mv.to()).unwrap_or(PieceType::Pawn);
        self.history.update_capture(piece, mv.to(), victim, delta);
    }
}
