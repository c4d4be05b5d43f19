use super::score::{DRAW, INFINITY, mated_in};
use super::{
    Bound, Limits, Score, SearchConfig, SearchControl, SearchInfo, SearchResult, TimeManager,
};
use crate::attacks::SliderAttacks;
use crate::board::{Board, Game};
use crate::eval::evaluate;
use crate::movegen::{GenType, MoveList, legal_moves, piecewise};
use crate::types::Move;
use crate::with_backend;
use std::time::Instant;

const MAX_PLY: usize = 128;

/// The search state that lives across moves of a game.
pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { hash_mb }
    }

    /// Resizes the transposition table (between searches).
    pub fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {}

    /// Per-mille fill of the transposition table.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches `game` within `limits`, calling `on_info` once per finished iteration (and per
    /// MultiPV line). Returns when a limit is reached or `control` is stopped; the caller decides
    /// when to print `bestmove` (after `stop`/`ponderhit` for infinite and ponder searches).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        with_backend!(config.backend, A => {
            let board = game.board().with_occupancy::<<A as SliderAttacks>::Occ>();
            let mut worker = Worker::<A> {
                root: board,
                history: game.history().to_vec(),
                limits,
                control,
                time: TimeManager::new(limits, board.side_to_move(), config.move_overhead_ms, start),
                nodes: 0,
                seldepth: 0,
                stopped: false,
                pv: [[Move::NULL; MAX_PLY]; MAX_PLY],
                pv_len: [0; MAX_PLY],
                _a: std::marker::PhantomData,
            };
            worker.iterate(config, on_info)
        })
    }
}

struct Worker<'a, A: SliderAttacks> {
    root: Board<A::Occ>,
    history: Vec<u64>,
    limits: &'a Limits,
    control: &'a SearchControl,
    time: TimeManager,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    pv: [[Move; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
    _a: std::marker::PhantomData<A>,
}

impl<A: SliderAttacks> Worker<'_, A> {
    fn iterate(
        &mut self,
        config: &SearchConfig,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut root_moves: Vec<Move> = legal_moves::<A>(&self.root).iter().copied().collect();
        if !self.limits.searchmoves.is_empty() {
            let allowed: Vec<Move> = root_moves
                .iter()
                .copied()
                .filter(|m| self.limits.searchmoves.contains(m))
                .collect();
            if !allowed.is_empty() {
                root_moves = allowed;
            }
        }
        if root_moves.is_empty() {
            let score = if self.root.in_check::<A>() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            on_info(&SearchInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                wdl: None,
                nodes: 0,
                nps: 0,
                hashfull: 0,
                time_ms: 0,
                tbhits: 0,
                pv: Vec::new(),
            });
            return SearchResult {
                best: Move::NULL,
                ponder: None,
            };
        }
        let mut best = SearchResult {
            best: root_moves[0],
            ponder: None,
        };
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let lines = config.multipv.clamp(1, root_moves.len());
        for depth in 1..=max_depth {
            let mut excluded: Vec<Move> = Vec::new();
            for line in 1..=lines {
                let candidates: Vec<Move> = root_moves
                    .iter()
                    .copied()
                    .filter(|m| !excluded.contains(m))
                    .collect();
                self.seldepth = 0;
                let score = self.root_search(&candidates, depth);
                if self.stopped && depth > 1 {
                    return best;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                if pv.is_empty() {
                    return best;
                }
                excluded.push(pv[0]);
                if line == 1 {
                    best = SearchResult {
                        best: pv[0],
                        ponder: pv.get(1).copied(),
                    };
                }
                let elapsed = self.time.elapsed().as_millis() as u64;
                on_info(&SearchInfo {
                    depth,
                    seldepth: self.seldepth.max(depth),
                    multipv: line,
                    score: Score::from_internal(score),
                    bound: Bound::Exact,
                    wdl: config.show_wdl.then(|| wdl(score)),
                    nodes: self.nodes,
                    nps: self.nodes * 1000 / elapsed.max(1),
                    hashfull: 0,
                    time_ms: elapsed,
                    tbhits: 0,
                    pv,
                });
                if self.stopped {
                    return best;
                }
                if let Some(mate) = self.limits.mate
                    && matches!(Score::from_internal(score), Score::Mate(n) if n > 0 && n <= mate as i32)
                {
                    return best;
                }
            }
            if !self.control.is_pondering() && self.time.soft_expired() {
                break;
            }
        }
        best
    }

    fn root_search(&mut self, moves: &[Move], depth: u32) -> i32 {
        let mut alpha = -INFINITY;
        self.pv_len[0] = 0;
        for &mv in moves {
            let mut child = self.root;
            child.play(mv);
            self.history.push(self.root.hash());
            let score = -self.alphabeta(&child, depth as i32 - 1, 1, -INFINITY, -alpha);
            self.history.pop();
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(0, mv);
            }
        }
        alpha
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    fn should_stop(&mut self) -> bool {
        if self.nodes % 1024 == 0 {
            if self.control.is_stopped()
                || (!self.control.is_pondering() && self.time.hard_expired())
            {
                self.stopped = true;
            }
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_repetition(&self, board: &Board<A::Occ>) -> bool {
        let key = board.hash();
        self.history
            .iter()
            .rev()
            .take(board.halfmove_clock() as usize)
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    fn alphabeta(
        &mut self,
        board: &Board<A::Occ>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(board, ply, alpha, beta);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if board.halfmove_clock() >= 100
            || self.is_repetition(board)
            || board.insufficient_material()
        {
            return DRAW;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(board);
        }
        let moves = legal_moves::<A>(board);
        if moves.is_empty() {
            return if board.in_check::<A>() {
                mated_in(ply)
            } else {
                DRAW
            };
        }
        let mut best = -INFINITY;
        for &mv in moves.iter() {
            let mut child = *board;
            child.play(mv);
            self.history.push(board.hash());
            let score = -self.alphabeta(&child, depth - 1, ply + 1, -beta, -alpha);
            self.history.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn quiescence(&mut self, board: &Board<A::Occ>, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.should_stop() {
            return 0;
        }
        let stand_pat = evaluate(board);
        if stand_pat >= beta || ply >= MAX_PLY - 2 {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = MoveList::new();
        piecewise::generate::<A, _>(board, GenType::Noisy, &mut moves);
        for &mv in moves.iter() {
            let mut child = *board;
            child.play(mv);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

/// A rough win/draw/loss estimate (per mille) from a score.
fn wdl(score: i32) -> (u32, u32, u32) {
    let win = |s: f64| 1000.0 / (1.0 + (-(s - 200.0) / 80.0).exp());
    let s = score.clamp(-2000, 2000) as f64;
    let w = win(s).round() as u32;
    let l = win(-s).round() as u32;
    (w, 1000 - w - l, l)
}
