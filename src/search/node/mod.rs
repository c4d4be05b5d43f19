//! One search thread's alpha-beta: principal variation search with the usual selectivity
//! (null move, reverse futility, late-move pruning and reductions, SEE pruning, singular
//! extensions) and a quiescence search over captures. This file holds the thread's state and
//! what every node uses; each part of the node search has its own file.

mod correction;
mod negamax;
mod prune;
mod qsearch;
mod singular;

use super::gate::Gate;
use super::history::{CorrectionKeys, History, PieceMove, QuietContext, bonus};
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
use crate::attacks::between;
use crate::board::{Board, cuckoo};
use crate::eval::hce::pawn_key;
use crate::eval::{Evaluator, PathEval};
use crate::movegen::{CheckInfo, legal_moves};
use crate::tablebase::{Tablebases, Wdl};
use crate::types::{Bitboard, Color, Move, Piece, PieceType};
use arrayvec::ArrayVec;
use correction::{correction_keys, refined};
use singular::Singular;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a Limits,
    pub time: TimeManager,
    /// This search is over (time, nodes, the job's `stop`, or the engine thread has answered): the
    /// one flag every thread polls at each node. It is not the job's stop in `control`: a
    /// `go infinite` or `go ponder` that ends by itself sets this, but its `bestmove` waits
    /// for the GUI's `stop`, which only `control` records.
    pub abort: AtomicBool,
    /// Node counts per thread.
    pub nodes: Vec<AtomicU64>,
    /// The main thread's root move in progress, [`RootMove::pack`]ed (0: none yet).
    pub root_move: AtomicU64,
    /// Stop conditions are polled when `nodes & poll_mask == 0`.
    pub poll_mask: u64,
    /// Syzygy tables to probe in positions of at most `tb_limit` pieces.
    pub tablebases: Option<&'a Tablebases>,
    pub tb_limit: u32,
    /// At `tb_limit` pieces, probe only from this depth (fewer pieces: always).
    pub tb_depth: i32,
    /// Whether cursed wins and blessed losses are draws (the 50-move rule counts).
    pub tb_50_move_rule: bool,
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

/// Where a node is and what is expected of it, beyond its window and depth. (A PV node is
/// told by its window: wider than one.)
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Plies from the root.
    pub ply: usize,
    /// The side to move is in check (the caller knows it from the move it played).
    pub in_check: bool,
    /// Expected to fail high.
    pub cut: bool,
}

impl Node {
    /// The root: not expected to fail high.
    pub fn root(in_check: bool) -> Node {
        Node {
            ply: 0,
            in_check,
            cut: false,
        }
    }

    /// A node one ply further from the root.
    pub fn child(self, in_check: bool, cut: bool) -> Node {
        Node {
            ply: self.ply + 1,
            in_check,
            cut,
        }
    }
}

/// The root move the main thread is searching, for the `currmove` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub depth: u32,
    pub mv: Move,
    /// 1-based, in the order searched.
    pub number: u32,
}

impl RootMove {
    pub fn pack(self) -> u64 {
        u64::from(self.depth) << 48 | u64::from(self.number) << 16 | u64::from(self.mv.raw())
    }

    pub fn unpack(packed: u64) -> Option<RootMove> {
        Some(RootMove {
            depth: (packed >> 48) as u32,
            number: (packed >> 16) as u32,
            mv: Move::from_raw(packed as u16).filter(|mv| !mv.is_null())?,
        })
    }
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
    eval: PathEval,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            keys: Vec::with_capacity(1024),
            eval: PathEval::default(),
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
    /// While a null move's verification search runs: the side whose null moves are off, and
    /// the ply from which they are allowed again (0: none running).
    null_off: (Color, usize),
    pub nodes: u64,
    pub seldepth: usize,
    /// `abort` seen by this thread: once set, every node on the way back up returns at once
    /// (the first iteration's excepted).
    pub stopped: bool,
    /// Set for the main thread's first iteration, which `stop` does not interrupt: a stopped
    /// search then always has a searched move (the iteration takes well under a millisecond).
    pub must_finish: bool,
    /// The moves the root may play (searchmoves, MultiPV lines not yet taken).
    pub root_moves: Vec<Move>,
    /// The first root move whose search finished in the latest root search (null until one
    /// has): an interrupted iteration's best move is proven only against it.
    pub root_first: Move,
    /// The score of the move that last raised alpha at the root.
    pub root_score: i32,
    /// Nodes spent below each root move since the search began, by from-to square pair.
    root_move_nodes: [u64; 64 * 64],
    /// The static evaluation along the current path.
    eval: PathEval,
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
            mut eval,
            pv,
        } = scratch;
        eval.select(&shared.evaluator, MAX_PLY + 4);
        keys.clear();
        keys.extend_from_slice(game_keys);
        Worker {
            shared,
            id,
            history,
            root_index: keys.len(),
            null_floor: 0,
            null_off: (Color::White, 0),
            keys,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            must_finish: false,
            root_moves: Vec::new(),
            root_first: Move::NULL,
            root_score: -INFINITY,
            root_move_nodes: [0; 64 * 64],
            eval,
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

    /// Tells the engine thread which root move the main thread has started on.
    fn announce_root_move(&self, mv: Move, depth: i32, number: i32) {
        let now = RootMove {
            depth: depth.max(0) as u32,
            mv,
            number: number as u32,
        };
        self.shared.root_move.store(now.pack(), Ordering::Relaxed);
    }

    /// Its buffers, for the next search.
    pub fn into_scratch(self) -> Scratch {
        Scratch {
            keys: self.keys,
            eval: self.eval,
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

    /// How many plies back a position can repeat: to the last irreversible move, and not past
    /// a null move.
    fn repetition_window(&self, board: &Board<A::Occ>) -> usize {
        (board.halfmove_clock() as usize).min(self.keys.len() - self.null_floor)
    }

    /// A repetition since the last irreversible move and null move: one occurrence inside the
    /// search is enough (the side that can repeat can do so again), one before the root must
    /// be the second (three-fold, as the rules count).
    fn is_repetition(&self, board: &Board<A::Occ>) -> bool {
        let key = board.hash();
        let len = self.keys.len();
        let window = self.repetition_window(board);
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

    /// Whether the side to move can go back, with one reversible move, to a position of the
    /// search path after the root: that repeats it, so the node is worth at least a draw.
    /// (Constraints of the move is not checked.)
    fn upcoming_repetition(&self, board: &Board<A::Occ>) -> bool {
        let key = board.hash();
        let len = self.keys.len();
        let window = self.repetition_window(board);
        let occupied = board.occupied();
        let us = board.side_to_move();
        // keys[len - back] is `back` plies up; an odd count has the other side to move, as
        // the position after our move would.
        for back in (3..=window).step_by(2) {
            let index = len - back;
            if index <= self.root_index {
                break;
            }
            let Some((a, b)) = cuckoo::reversible_move(key ^ self.keys[index]) else {
                continue;
            };
            if !(between(a, b) & occupied).is_empty() {
                continue;
            }
            // One end holds our piece, the other is empty (a capture is not reversible).
            let mover = match (board.piece_on(a), board.piece_on(b)) {
                (Some(p), None) | (None, Some(p)) => p,
                _ => continue,
            };
            if mover.color() == us {
                return true;
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
        self.eval.set_root(root);
    }

    /// The static evaluation of `board`, the position at `ply` on the current path.
    #[inline]
    fn evaluate(&mut self, board: &Board<A::Occ>, ply: usize) -> i32 {
        self.eval.evaluate::<A>(board, ply)
    }

    /// Plays `mv` on a copy, pushing the parent's key onto the repetition path.
    #[inline]
    fn make(&mut self, board: &Board<A::Occ>, mv: Move, ply: usize) -> Board<A::Occ> {
        let mut child = *board;
        child.play(mv);
        self.eval.push(ply, board, mv, &child);
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
        let pieces = board.occupied().count();
        if board.halfmove_clock() != 0
            || pieces > self.shared.tb_limit
            || (pieces == self.shared.tb_limit && depth < self.shared.tb_depth)
        {
            return None;
        }
        let wdl = tables.probe_wdl(board)?;
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let (score, bound) = match wdl.counting_50_moves(self.shared.tb_50_move_rule) {
            Wdl::Win => (TB_WIN - ply as i32, Bound::Lower),
            Wdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            // Won or lost on the board but drawn by the 50-move rule: a draw, nudged.
            Wdl::CursedWin => (DRAW + 1, Bound::Exact),
            Wdl::BlessedLoss => (DRAW - 1, Bound::Exact),
            Wdl::Draw => (DRAW, Bound::Exact),
        };
        if bound.settles(score, alpha, beta) {
            let depth = (depth + TB_DEPTH_BONUS.get()).min(MAX_PLY as i32);
            let entry = TtEntry {
                mv: Move::NULL,
                score,
                eval: -INFINITY,
                depth,
                bound,
            };
            self.shared.tt.store(board.hash(), ply, entry);
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

    /// Whether the opponent's position is worse after our move than theirs was before it: their
    /// static evaluation at the parent, seen from our side, is below ours now.
    fn opponent_worsening(&self, ply: usize, static_eval: i32) -> bool {
        ply >= 1 && {
            let theirs = self.stack[ply - 1].static_eval;
            theirs != -INFINITY && static_eval > -theirs + 1
        }
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
}
