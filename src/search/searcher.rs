//! The search driver: iterative deepening with aspiration windows, MultiPV, Lazy SMP helper
//! threads, and the `info` reports.

use super::history::History;
use super::params::{ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH};
use super::score::{DRAW, INFINITY, MATE_BOUND, TB_WIN, is_decisive};
use super::strength::{Handicap, Random};
use super::tt::TranspositionTable;
use super::wdl;
use super::worker::{Shared, TbRoot, Worker};
use super::{
    Bound, Limits, Score, SearchConfig, SearchControl, SearchInfo, SearchResult, TimeManager,
};
use crate::attacks::SliderAttacks;
use crate::board::{Board, Game};
use crate::movegen::legal_moves;
use crate::tablebase::{Tablebases, Wdl};
use crate::types::Move;
use crate::with_backend;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The deepest iteration the search starts.
pub const MAX_DEPTH: i32 = 120;

/// The search state that lives across moves of a game: the transposition table and each
/// thread's move-ordering history.
pub struct Searcher {
    tt: TranspositionTable,
    histories: Vec<History>,
    tablebases: Option<Tablebases>,
    /// For the strength limit's choices.
    random: Random,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            histories: vec![History::default()],
            tablebases: None,
            random: Random::from_clock(),
        }
    }

    /// Opens the Syzygy tables in `paths` (empty: none), replacing those open before.
    pub fn set_tablebases(&mut self, paths: &str) -> Result<(), String> {
        // The prober allows one set of tables at a time.
        self.tablebases = None;
        if !paths.trim().is_empty() {
            self.tablebases = Some(Tablebases::open(paths)?);
        }
        Ok(())
    }

    /// Resizes the transposition table (between searches), emptying it.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt.resize(mb);
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Per-mille fill of the transposition table.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `game` within `limits`, calling `on_info` once per finished iteration; with a
    /// strength limit, searches few nodes and picks among the best few moves.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let Some(handicap) = config.strength.and_then(Handicap::for_elo) else {
            return self.search_full(game, limits, config, control, on_info);
        };
        let limits = Limits {
            nodes: Some(
                limits
                    .nodes
                    .map_or(handicap.nodes, |n| n.min(handicap.nodes)),
            ),
            ..limits.clone()
        };
        let shown = config.multipv;
        let config = SearchConfig {
            multipv: config.multipv.max(handicap.lines),
            ..config.clone()
        };
        // The newest report of each line.
        let mut lines: Vec<Option<SearchInfo>> = Vec::new();
        let result = self.search_full(game, &limits, &config, control, &mut |info| {
            let index = info.multipv - 1;
            if lines.len() <= index {
                lines.resize(index + 1, None);
            }
            lines[index] = Some(info.clone());
            if info.multipv <= shown {
                on_info(info);
            }
        });
        let candidates: Vec<(Move, i32)> = lines
            .iter()
            .flatten()
            .filter_map(|info| info.pv.first().map(|&mv| (mv, info.score.to_internal())))
            .collect();
        let Some(chosen) = handicap.choose(&candidates, &mut self.random) else {
            return result;
        };
        let Some(line) = lines
            .into_iter()
            .flatten()
            .find(|info| info.pv.first() == Some(&chosen))
        else {
            return result;
        };
        if chosen != result.best {
            // The last line shown is the move played, as GUIs expect.
            on_info(&SearchInfo {
                multipv: 1,
                ..line.clone()
            });
        }
        SearchResult {
            best: chosen,
            ponder: line.pv.get(1).copied(),
        }
    }

    /// Searches `game` within `limits`, calling `on_info` once per finished iteration (and per
    /// MultiPV line). Returns when a limit is reached or `control` is stopped; the caller decides
    /// when to print `bestmove` (after `stop`/`ponderhit` for infinite and ponder searches).
    fn search_full(
        &mut self,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let threads = config.threads.max(1);
        while self.histories.len() < threads {
            self.histories.push(History::default());
        }
        self.tt.new_search();
        let us = game.board().side_to_move();
        let tablebases = self
            .tablebases
            .as_ref()
            .filter(|_| config.syzygy_probe_limit > 0);
        let tb_limit = tablebases.map_or(0, |t| t.max_pieces().min(config.syzygy_probe_limit));
        // At the root the distance to zeroing picks the moves that keep the best result; the
        // search then chooses among those.
        let tb_root = tablebases
            .filter(|_| game.board().occupied().count() <= tb_limit)
            .and_then(|t| t.probe_root(game.board()))
            .filter(|probe| !probe.moves.is_empty())
            .map(|probe| TbRoot {
                moves: probe.best_moves(),
                score: match probe.wdl {
                    Wdl::Win => TB_WIN - 1,
                    Wdl::Loss => -TB_WIN + 1,
                    _ => DRAW,
                },
            });
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            time: TimeManager::new(limits, us, config.move_overhead_ms, start),
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            // Small node budgets (the strength limit) are kept to the node.
            poll_mask: if limits.nodes.is_some_and(|n| n < 100_000) {
                15
            } else {
                1023
            },
            tablebases: tablebases.filter(|_| tb_limit > 0),
            tb_limit,
            tbhits: AtomicU64::new(u64::from(tb_root.is_some())),
            tb_root,
            evaluator: config.evaluator.clone(),
        };
        let keys = game.history().to_vec();
        let histories = &mut self.histories[..threads];
        with_backend!(config.backend, A => {
            let board = game.board().with_occupancy::<<A as SliderAttacks>::Occ>();
            run_threads::<A>(&board, &keys, &shared, histories, config, on_info)
        })
    }
}

fn run_threads<A: SliderAttacks>(
    board: &Board<A::Occ>,
    keys: &[u64],
    shared: &Shared,
    histories: &mut [History],
    config: &SearchConfig,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let (main_history, helper_histories) = histories.split_first_mut().expect("one thread");
    std::thread::scope(|scope| {
        for (i, history) in helper_histories.iter_mut().enumerate() {
            let keys = keys.to_vec();
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut worker = Worker::<A>::new(shared, i + 1, history, keys);
                    iterate(&mut worker, board, config, &mut |_| {});
                })
                .expect("spawn a search thread");
        }
        let mut worker = Worker::<A>::new(shared, 0, main_history, keys.to_vec());
        let result = iterate(&mut worker, board, config, on_info);
        shared.abort.store(true, Ordering::Relaxed);
        result
    })
}

/// Iterative deepening for one thread; only the main thread (id 0) reports and decides.
fn iterate<A: SliderAttacks>(
    worker: &mut Worker<A>,
    board: &Board<A::Occ>,
    config: &SearchConfig,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let shared = worker.shared;
    let limits = shared.limits;
    let main = worker.id == 0;
    let mut root_moves: Vec<Move> = legal_moves::<A>(board).iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        let allowed: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if !allowed.is_empty() {
            root_moves = allowed;
        }
    }
    if let Some(tb) = &shared.tb_root
        && root_moves.iter().any(|m| tb.moves.contains(m))
    {
        root_moves.retain(|m| tb.moves.contains(m));
    }
    if root_moves.is_empty() {
        if main {
            let score = if board.in_check::<A>() {
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
                wdl: config.show_wdl.then_some(if score == Score::Mate(0) {
                    (0, 0, 1000)
                } else {
                    (0, 1000, 0)
                }),
                nodes: 0,
                nps: 0,
                hashfull: 0,
                time_ms: 0,
                tbhits: 0,
                pv: Vec::new(),
            });
        }
        return SearchResult {
            best: Move::NULL,
            ponder: None,
        };
    }

    let in_check = board.in_check::<A>();
    let lines = config.multipv.clamp(1, root_moves.len());
    let max_depth = limits
        .depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
    let mut result = SearchResult {
        best: root_moves[0],
        ponder: None,
    };
    let mut scores = vec![0i32; lines];
    let mut best_changes = 0;

    for depth in 1..=max_depth {
        // Helpers skip some depths so the threads spread over different iterations.
        if !main && depth > 1 && (depth + worker.id as i32) % 3 == 0 {
            continue;
        }
        let mut taken: Vec<Move> = Vec::new();
        for (line, line_score) in scores.iter_mut().enumerate() {
            worker.root_moves = root_moves
                .iter()
                .copied()
                .filter(|m| !taken.contains(m))
                .collect();
            worker.seldepth = 0;
            let previous = *line_score;
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !is_decisive(previous) {
                (previous - delta, previous + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            // A fail high is re-searched one ply shallower each time (the move that failed high
            // is likely good anyway); a fail low at the iteration's depth.
            let mut search_depth = depth;
            let score = loop {
                let score = worker.negamax(board, alpha, beta, search_depth, 0, in_check, false);
                if worker.stopped {
                    break score;
                }
                // A full window cannot be widened further.
                if (score <= alpha && alpha <= -INFINITY) || (score >= beta && beta >= INFINITY) {
                    break score;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                    search_depth = depth;
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                    if !is_decisive(score) {
                        search_depth = (search_depth - 1).max(1);
                    }
                } else {
                    break score;
                }
                delta += delta / 2;
                if delta > ASPIRATION_MAX_DELTA {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            // An interrupted iteration's move is kept only if its PV is complete.
            if worker.stopped && (depth > 1 || worker.pv_len[0] == 0) {
                return result;
            }
            let pv = worker.pv_line();
            if pv.is_empty() {
                return result;
            }
            *line_score = score;
            taken.push(pv[0]);
            if line == 0 {
                if pv[0] != result.best {
                    best_changes += 1;
                }
                result = SearchResult {
                    best: pv[0],
                    ponder: pv.get(1).copied(),
                };
            }
            if main {
                let elapsed = shared.time.elapsed().as_millis() as u64;
                let nodes = worker.nodes + helper_nodes(shared);
                on_info(&SearchInfo {
                    depth: depth as u32,
                    seldepth: worker.seldepth.max(depth as usize) as u32,
                    multipv: line + 1,
                    score: Score::from_internal(shown_score(shared, score)),
                    bound: Bound::Exact,
                    wdl: config
                        .show_wdl
                        .then(|| wdl::wdl(shown_score(shared, score), wdl::material(board))),
                    nodes,
                    nps: nodes * 1000 / elapsed.max(1),
                    hashfull: shared.tt.hashfull(),
                    time_ms: elapsed,
                    tbhits: shared.tbhits.load(Ordering::Relaxed),
                    pv,
                });
            }
            if worker.stopped {
                return result;
            }
        }
        if !main {
            continue;
        }
        if let Some(mate) = limits.mate
            && matches!(Score::from_internal(scores[0]), Score::Mate(n) if n > 0 && n <= mate as i32)
        {
            break;
        }
        if !shared.control.is_pondering() && stop_after_iteration(shared, depth, best_changes) {
            break;
        }
        best_changes = best_changes * 2 / 3;
    }
    result
}

/// The score to report: the tablebase value when the root is in the tables and the search has
/// not found a mate (its own scores there only see the evaluation).
fn shown_score(shared: &Shared, score: i32) -> i32 {
    match &shared.tb_root {
        Some(tb) if score.abs() < MATE_BOUND => tb.score,
        _ => score,
    }
}

fn helper_nodes(shared: &Shared) -> u64 {
    shared
        .nodes
        .iter()
        .skip(1)
        .map(|n| n.load(Ordering::Relaxed))
        .sum()
}

/// After an iteration: is there time for another? An unstable best move earns more time.
fn stop_after_iteration(shared: &Shared, _depth: i32, best_changes: u32) -> bool {
    if shared
        .limits
        .soft_nodes
        .is_some_and(|n| shared.total_nodes() >= n)
    {
        return true;
    }
    let Some(soft) = shared.time.soft_limit() else {
        return false;
    };
    let scale = 0.7 + 0.3 * best_changes.min(5) as f64;
    shared.time.elapsed().as_secs_f64() >= soft.as_secs_f64() * scale.min(2.0)
}
