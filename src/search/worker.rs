//! One search thread's alpha-beta: principal variation search with the usual selectivity
//! (null move, reverse futility, late-move pruning and reductions, SEE pruning, singular
//! extensions) and a quiescence search over captures.

use super::gate::Gate;
use super::history::{CorrectionKeys, History, PieceMove, bonus};
use super::limits::MAX_PLY;
use super::params::*;
use super::picker::MovePicker;
use super::score::{
    DRAW, INFINITY, MATE_BOUND, TB_WIN, TB_WIN_BOUND, is_decisive, mate_in, mated_in,
};
use super::see::{SEE_VALUES, see_ge};
use super::tt::{TranspositionTable, TtEntry};
use super::{Bound, Limits, SearchControl, TimeManager};
use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::eval::nnue::{AccumulatorStack, Network};
use crate::eval::{Evaluator, PawnCache, evaluate, pawn_key};
use crate::movegen::{CheckInfo, legal_moves};
use crate::tablebase::{Tablebases, Wdl};
use crate::types::{Color, Move, Piece, PieceType};
use arrayvec::ArrayVec;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a Limits,
    pub time: TimeManager,
    /// Set by the main thread when the search must end (time, nodes, stop).
    pub abort: AtomicBool,
    /// Node counts per thread.
    pub nodes: Vec<AtomicU64>,
    /// Stop conditions are polled when `nodes & poll_mask == 0`.
    pub poll_mask: u64,
    /// Syzygy tables to probe in positions of at most `tb_limit` pieces.
    pub tablebases: Option<&'a Tablebases>,
    pub tb_limit: u32,
    pub tbhits: AtomicU64,
    /// What the tables say about the root, when it is in them.
    pub tb_root: Option<TbRoot>,
    pub evaluator: Evaluator,
    /// The helpers start once the main thread has finished its first iteration: with many
    /// more threads than cores, that iteration would otherwise wait for CPU time (and `stop`
    /// with it, which always waits for it) for as long as seconds.
    pub first_iteration: Gate,
    /// The main thread publishes each iteration's answer in `control` (not with a strength
    /// limit: the move is then chosen among the lines afterwards).
    pub publish: bool,
}

pub struct TbRoot {
    /// The root moves that keep the best result.
    pub moves: Vec<Move>,
    /// That result as a score.
    pub score: i32,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// The moves searched at a node before the current one (for history maluses), on the stack:
/// the first 64 of them (later ones are not kept).
struct Tried<T: Copy>(ArrayVec<T, 64>);

impl<T: Copy> Tried<T> {
    fn new() -> Self {
        Tried(ArrayVec::new_const())
    }

    /// Keeps `item` if there is room.
    fn push(&mut self, item: T) {
        let _ = self.0.try_push(item);
    }

    fn as_slice(&self) -> &[T] {
        &self.0
    }
}

/// What the singular-extension search decided for the hash move.
enum Singular {
    /// Search it this many plies deeper (or shallower, when negative).
    Extend(i32),
    /// Return this score from the node without searching further.
    Cut(i32),
}

#[derive(Clone, Copy, Default)]
struct PlyState {
    static_eval: i32,
    /// The move made from this ply (None for a null move or none yet).
    moved: Option<PieceMove>,
    excluded: Move,
    /// Double extensions on the path from the root to this node: they are capped, or the
    /// search could extend without end.
    double_extensions: i32,
}

/// A search thread's buffers, kept by the pool between searches: allocated for each search by
/// hundreds of threads at once, they stall the whole process in the kernel.
pub struct Scratch {
    keys: Vec<u64>,
    pawn_cache: PawnCache,
    accumulators: Option<AccumulatorStack>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            keys: Vec::with_capacity(1024),
            pawn_cache: PawnCache::default(),
            accumulators: None,
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
        }
    }
}

pub struct Worker<'a, A: SliderAttacks> {
    pub shared: &'a Shared<'a>,
    pub id: usize,
    pub history: &'a mut History,
    /// Keys of the game so far and of the current search path, for repetitions.
    pub keys: Vec<u64>,
    /// Where the root's key goes in `keys`: earlier keys are the game before the search.
    root_index: usize,
    /// The first key after the latest null move on the path (0 without one): no repetition
    /// reaches across a null move.
    null_floor: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// Set for the main thread's first iteration, which `stop` does not interrupt: a stopped
    /// search then always has a searched move (the iteration takes well under a millisecond).
    pub must_finish: bool,
    /// The moves the root may play (searchmoves, MultiPV lines not yet taken).
    pub root_moves: Vec<Move>,
    /// Nodes spent below each root move since the search began, by from-to square pair.
    root_move_nodes: [u64; 64 * 64],
    pawn_cache: PawnCache,
    /// The network and the accumulators of the current path, when the evaluation is neural.
    nnue: Option<(Arc<Network>, AccumulatorStack)>,
    stack: [PlyState; MAX_PLY + 4],
    pub pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    _attacks: std::marker::PhantomData<A>,
}

impl<'a, A: SliderAttacks> Worker<'a, A> {
    /// A worker searching after the game's `keys`, with the buffers of `scratch`.
    pub fn new(
        shared: &'a Shared<'a>,
        id: usize,
        history: &'a mut History,
        game_keys: &[u64],
        scratch: Scratch,
    ) -> Self {
        let Scratch {
            mut keys,
            pawn_cache,
            accumulators,
            pv,
        } = scratch;
        keys.clear();
        keys.extend_from_slice(game_keys);
        Worker {
            shared,
            id,
            history,
            root_index: keys.len(),
            null_floor: 0,
            keys,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            must_finish: false,
            root_moves: Vec::new(),
            root_move_nodes: [0; 64 * 64],
            pawn_cache,
            nnue: match &shared.evaluator {
                // The stack's size does not depend on the network: it is refreshed at the root.
                Evaluator::Nnue(net) => Some((
                    net.clone(),
                    accumulators.unwrap_or_else(|| AccumulatorStack::new(net, MAX_PLY + 4)),
                )),
                Evaluator::Hce => None,
            },
            stack: [PlyState::default(); MAX_PLY + 4],
            pv,
            pv_len: [0; MAX_PLY + 1],
            _attacks: std::marker::PhantomData,
        }
    }

    /// The share of this thread's nodes spent below root move `mv` so far.
    pub fn node_share(&self, mv: Move) -> f64 {
        self.root_move_nodes[Self::root_index(mv)] as f64 / self.nodes.max(1) as f64
    }

    fn root_index(mv: Move) -> usize {
        mv.from() as usize * 64 + mv.to() as usize
    }

    /// Its buffers, for the next search.
    pub fn into_scratch(self) -> Scratch {
        Scratch {
            keys: self.keys,
            pawn_cache: self.pawn_cache,
            accumulators: self.nnue.map(|(_, stack)| stack),
            pv: self.pv,
        }
    }

    pub fn pv_line(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Polls the stop conditions every `poll_mask + 1` nodes (1 024, or 16 under a small node
    /// budget; the main thread also the clock), the abort flag at every node.
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.nodes & self.shared.poll_mask == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            let shared = self.shared;
            if self.id == 0 {
                let out_of_time = !shared.control.is_pondering() && shared.time.hard_expired();
                let out_of_nodes = shared
                    .limits
                    .nodes
                    .is_some_and(|n| shared.total_nodes() >= n);
                if shared.control.is_stopped() || out_of_time || out_of_nodes {
                    shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        // Every node: with more threads than cores, a thread that is scheduled after `stop`
        // should let the others have the core at once.
        if !self.must_finish && self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The moves that led to `ply`: the last one first (None before the root or after a null
    /// move), for the counter move and the continuation histories.
    fn previous_moves(&self, ply: usize) -> [Option<PieceMove>; 2] {
        let prev = |back: usize| {
            if ply >= back {
                self.stack[ply - back].moved
            } else {
                None
            }
        };
        [prev(1), prev(2)]
    }

    /// A repetition since the last irreversible move and null move: one occurrence inside the
    /// search is enough (the side that can repeat can do so again), one before the root must
    /// be the second (three-fold, as the rules count).
    fn is_repetition(&self, board: &Board<A::Occ>) -> bool {
        let key = board.hash();
        let len = self.keys.len();
        let window = (board.halfmove_clock() as usize).min(len - self.null_floor);
        let mut before_root = 0;
        // keys[len - 1] is the parent, with the other side to move.
        for back in (2..=window).step_by(2) {
            let index = len - back;
            if self.keys[index] == key {
                if index > self.root_index {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// The 50-move rule, unless the move that reached the limit mated.
    fn fifty_move_draw(board: &Board<A::Occ>, in_check: bool) -> bool {
        board.halfmove_clock() >= 100 && (!in_check || !legal_moves::<A>(board).is_empty())
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = mv;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Starts a search of `root`.
    pub fn set_root(&mut self, root: &Board<A::Occ>) {
        if let Some((net, stack)) = &mut self.nnue {
            stack.set_root(net, root);
        }
    }

    /// The static evaluation of `board`, the position at `ply` on the current path.
    #[inline]
    fn evaluate(&mut self, board: &Board<A::Occ>, ply: usize) -> i32 {
        match &mut self.nnue {
            Some((net, stack)) => stack.evaluate(net, board, ply),
            None => evaluate::<A>(board, &mut self.pawn_cache),
        }
    }

    /// Plays `mv` on a copy, pushing the parent's key onto the repetition path.
    #[inline]
    fn make(&mut self, board: &Board<A::Occ>, mv: Move, ply: usize) -> Board<A::Occ> {
        let mut child = *board;
        child.play(mv);
        if let Some((_, stack)) = &mut self.nnue {
            stack.push(ply, board, &child);
        }
        self.shared.tt.prefetch(child.hash());
        self.keys.push(board.hash());
        let piece = board.piece_on(mv.from()).expect("a mover");
        self.stack[ply].moved = Some(PieceMove { piece, to: mv.to() });
        child
    }

    /// Undoes [`Self::make`]'s push (the child board is simply dropped).
    #[inline]
    fn pop_repetition_key(&mut self) {
        self.keys.pop();
    }

    /// A tablebase score that settles this node, right after a capture or pawn move (where
    /// win/draw/loss is exact). Wins and losses are bounds: a real mate may still be found.
    fn probe_tablebase(
        &mut self,
        board: &Board<A::Occ>,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let tables = self.shared.tablebases?;
        if board.halfmove_clock() != 0 || board.occupied().count() > self.shared.tb_limit {
            return None;
        }
        let wdl = tables.probe_wdl(board)?;
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let (score, bound) = match wdl {
            Wdl::Win => (TB_WIN - ply as i32, Bound::Lower),
            Wdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            // Won or lost on the board but drawn by the 50-move rule: a draw, nudged.
            Wdl::CursedWin => (DRAW + 1, Bound::Exact),
            Wdl::BlessedLoss => (DRAW - 1, Bound::Exact),
            Wdl::Draw => (DRAW, Bound::Exact),
        };
        if bound.settles(score, alpha, beta) {
            let depth = (depth + TB_DEPTH_BONUS.get()).min(MAX_PLY as i32);
            self.shared.tt.store(
                board.hash(),
                ply,
                Move::NULL,
                score,
                -INFINITY,
                depth,
                bound,
            );
            return Some(score);
        }
        None
    }

    /// The evaluation (the table's when it has one; what is stored back) and that evaluation
    /// corrected by what searches of this pawn structure found. -INFINITY for both in check.
    fn evaluations(
        &mut self,
        board: &Board<A::Occ>,
        entry: Option<TtEntry>,
        ply: usize,
        keys: &CorrectionKeys,
        in_check: bool,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        // Entries stored without an evaluation (in check, tablebase results) hold -INFINITY.
        let raw = match entry {
            Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
            _ => self.evaluate(board, ply),
        };
        let corrected = self
            .history
            .corrected_eval(board.side_to_move(), keys, raw)
            .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1);
        (raw, corrected)
    }

    /// Whether the evaluation rose since our previous move, or the one before when we were in
    /// check then (a position in check has no evaluation).
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        [2, 4]
            .into_iter()
            .filter(|&back| ply >= back)
            .map(|back| self.stack[ply - back].static_eval)
            .find(|&earlier| earlier != -INFINITY)
            .is_some_and(|earlier| static_eval > earlier)
    }

    /// Principal variation search, the root (`ply` 0) included.
    #[allow(clippy::too_many_arguments)]
    pub fn negamax(
        &mut self,
        board: &Board<A::Occ>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
        cut_node: bool,
    ) -> i32 {
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
            // Mate-distance pruning: no line here can beat a mate already found closer to the root.
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
        let entry = tt.probe(board.hash(), ply);
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
            && let Some(score) = self.prune_node(
                board,
                beta,
                depth,
                ply,
                eval,
                static_eval,
                improving,
                cut_node,
            )
        {
            return score;
        }

        // Internal iterative reduction: without a hash move this node is probably not critical
        // (not the root, and not a singular verification, which has its depth already).
        if tt_move.is_null()
            && excluded.is_null()
            && !root
            && depth >= IIR_MIN_DEPTH.get()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        let previous_moves = self.previous_moves(ply);
        let counter = self.history.counter(previous_moves[0]);
        let mut picker = MovePicker::new(tt_move, self.history.killers(ply), counter);
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut moves_searched = 0;
        let mut quiets_tried = Tried::<(Move, Piece)>::new();
        // Quiet moves the picker gave, pruned or not, for late-move pruning.
        let mut quiets_seen = 0;
        let mut captures_tried = Tried::<Move>::new();
        let checks = CheckInfo::new::<A>(board);

        while let Some(mv) = picker.next::<A>(board, self.history, &previous_moves) {
            if mv == excluded || (root && !self.root_moves.contains(&mv)) {
                continue;
            }
            let quiet = mv.is_quiet();
            quiets_seen += quiet as i32;
            let piece = board.piece_on(mv.from()).expect("a mover");
            let gives_check = checks.gives_check::<A>(board, mv);

            if !root && best_score > -MATE_BOUND && board.has_non_pawn_material(us) {
                // Late-move pruning and futility: late quiet moves at low depth rarely matter.
                // Past the late-move limit the picker skips the remaining quiets altogether.
                if quiet {
                    let limit =
                        (LMP_BASE.get() + depth * depth) / (LMP_DIVISOR.get() - improving as i32);
                    if quiets_seen > limit && !in_check {
                        picker.skip_quiets();
                        continue;
                    }
                    if !in_check
                        && !gives_check
                        && depth <= FUTILITY_MAX_DEPTH.get()
                        && eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get() * depth <= alpha
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
                match self.singular(board, e, beta, depth, ply, in_check, pv_node, cut_node) {
                    Singular::Extend(by) => extension = by,
                    Singular::Cut(score) => return score,
                }
            }

            let nodes_before = self.nodes;
            let child = self.make(board, mv, ply);
            // Checks that do not lose material are extended; losing sacrifices are not.
            if extension == 0 && gives_check && see_ge::<A>(board, mv, 0) {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + (extension >= 2) as i32;
            moves_searched += 1;

            let mut score;
            if moves_searched == 1 {
                score = -self.negamax(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    gives_check,
                    !pv_node && !cut_node,
                );
            } else {
                // Late-move reductions.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH.get() && moves_searched > 1 + pv_node as i32 {
                    r = reduction(depth, moves_searched);
                    if quiet {
                        r += !pv_node as i32 + cut_node as i32 - improving as i32;
                        let hist = self.history.quiet_score(us, mv, piece, &previous_moves);
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
                    ply + 1,
                    gives_check,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        gives_check,
                        !cut_node,
                    );
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(
                        &child,
                        -beta,
                        -alpha,
                        new_depth,
                        ply + 1,
                        gives_check,
                        false,
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

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if alpha >= beta {
                        self.reward_cutoff(
                            board,
                            mv,
                            ply,
                            depth,
                            quiets_tried.as_slice(),
                            captures_tried.as_slice(),
                            &previous_moves,
                        );
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push((mv, piece));
            } else {
                captures_tried.push(mv);
            }
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
            tt.store(
                board.hash(),
                ply,
                best_move,
                best_score,
                raw_eval,
                depth,
                bound,
            );
            // Teach the correction where a quiet search disagreed with the evaluation.
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

    /// Reverse futility and null-move pruning, before any move is searched: a score that
    /// settles this node (not a PV node, not in check, no move excluded), if there is one.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        board: &Board<A::Occ>,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        static_eval: i32,
        improving: bool,
        cut_node: bool,
    ) -> Option<i32> {
        // Reverse futility: far above beta with little depth left, assume it holds.
        if depth <= RFP_MAX_DEPTH.get()
            && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
            && !is_decisive(eval)
            && !is_decisive(beta)
        {
            return Some((eval + beta) / 2);
        }
        // Null move: if passing still fails high, a real move will too. Not with only pawns
        // (zugzwang) and not twice in a row.
        if depth >= NMP_MIN_DEPTH.get()
            && eval >= beta
            && static_eval >= beta - NMP_EVAL_DEPTH_MARGIN.get() * depth + NMP_EVAL_BASE.get()
            && board.has_non_pawn_material(board.side_to_move())
            && ply >= 1
            && self.stack[ply - 1].moved.is_some()
        {
            let r = NMP_BASE_REDUCTION.get()
                + depth / NMP_DEPTH_DIVISOR.get()
                + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_MAX_EVAL_REDUCTION.get());
            let mut child = *board;
            child.play_null();
            if let Some((_, stack)) = &mut self.nnue {
                stack.push(ply, board, &child);
            }
            self.keys.push(board.hash());
            let null_floor = std::mem::replace(&mut self.null_floor, self.keys.len());
            self.stack[ply].moved = None;
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            let score = -self.negamax(
                &child,
                -beta,
                -beta + 1,
                depth - r,
                ply + 1,
                false,
                !cut_node,
            );
            self.keys.pop();
            self.null_floor = null_floor;
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_decisive(score) { beta } else { score });
            }
        }
        None
    }

    /// Singular extension of the hash move `entry.mv`: searched once more without it at half
    /// depth, the node tells whether the hash move is much better than every other move.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        board: &Board<A::Occ>,
        entry: TtEntry,
        beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        let singular_beta = entry.score - SE_BETA_MARGIN.get() * depth;
        self.stack[ply].excluded = entry.mv;
        let score = self.negamax(
            board,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            in_check,
            cut_node,
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

    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        board: &Board<A::Occ>,
        mv: Move,
        ply: usize,
        depth: i32,
        quiets: &[(Move, Piece)],
        captures: &[Move],
        previous_moves: &[Option<PieceMove>; 2],
    ) {
        let us = board.side_to_move();
        let b = bonus(depth);
        if mv.is_quiet() {
            let piece = board.piece_on(mv.from()).expect("a mover");
            self.history
                .reward_quiet(us, ply, (mv, piece), quiets, previous_moves, depth);
        } else {
            self.update_capture_history(board, mv, b);
        }
        for &c in captures {
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
        let entry = tt.probe(board.hash(), ply);
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
        let previous_moves = self.previous_moves(ply);
        let mut best_move = Move::NULL;
        let mut searched = 0;
        while let Some(mv) = picker.next::<A>(board, self.history, &previous_moves) {
            if !in_check {
                // Delta pruning: even winning the piece cannot lift the score to alpha.
                let victim = board
                    .piece_type_on(mv.to())
                    .map_or(0, |p| SEE_VALUES[p as usize]);
                if mv.promotion().is_none() && eval + victim + DELTA_MARGIN.get() <= alpha {
                    continue;
                }
                if !see_ge::<A>(board, mv, 0) {
                    continue;
                }
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
        tt.store(board.hash(), ply, best_move, best_score, raw_eval, 0, bound);
        best_score
    }
}

/// The keys the evaluation correction remembers a position by.
fn correction_keys<O: crate::attacks::Occupancy>(board: &Board<O>) -> CorrectionKeys {
    let non_pawns = |color| {
        const KINDS: [(PieceType, u64); 5] = [
            (PieceType::Knight, 0x9E37_79B9_7F4A_7C15),
            (PieceType::Bishop, 0xC2B2_AE3D_27D4_EB4F),
            (PieceType::Rook, 0x1656_67B1_9E37_79F9),
            (PieceType::Queen, 0x85EB_CA77_C2B2_AE63),
            (PieceType::King, 0x27D4_EB2F_1656_67C5),
        ];
        let h = KINDS.iter().fold(0u64, |h, &(kind, mul)| {
            (h ^ board.pieces_of(color, kind).0.wrapping_mul(mul)).rotate_left(23)
        });
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20
    };
    CorrectionKeys {
        pawns: pawn_key(
            board.pieces_of(Color::White, PieceType::Pawn),
            board.pieces_of(Color::Black, PieceType::Pawn),
        ),
        non_pawns: [non_pawns(Color::White), non_pawns(Color::Black)],
    }
}

/// The table's score in place of the evaluation when its bound says the true value lies
/// beyond it (mate and tablebase scores excepted).
fn refined(entry: Option<TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match entry {
        Some(e)
            if !in_check
                && !is_decisive(e.score)
                && e.bound.refines_estimate(e.score, static_eval) =>
        {
            e.score
        }
        _ => static_eval,
    }
}
