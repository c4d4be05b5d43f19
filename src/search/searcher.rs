//! The search driver: iterative deepening with aspiration windows, MultiPV, Lazy SMP on the
//! thread pool, and the `info` reports.
//!
//! A search runs on the pool's threads; the thread that started it watches it through
//! [`Running`]: the main search thread (pool thread 0) sends it each finished iteration, so it
//! can answer at once when told to stop, while the helpers are still winding down.

use super::gate::{Gate, OpenOnDrop};
use super::node::{Shared, TbRoot, Worker};
use super::params::{ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH};
use super::pool::{Pool, ThreadData};
use super::score::{DRAW, INFINITY, MATE_BOUND, TB_WIN, is_decisive};
use super::strength::Handicap;
use super::time::Effort;
use super::tt::TranspositionTable;
use super::wdl;
use super::{
    Bound, Limits, Score, SearchConfig, SearchControl, SearchInfo, SearchResult, TimeManager,
};
use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::tablebase::{Tablebases, Wdl};
use crate::types::{Move, Rng};
use crate::with_backend;
use crossbeam_channel::{Receiver, RecvError, Sender, unbounded};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The deepest iteration the search starts.
pub const MAX_DEPTH: i32 = 120;

/// The search state that lives across moves of a game: the transposition table, the search
/// threads and each one's move-ordering history.
pub struct Searcher {
    tt: TranspositionTable,
    pool: Pool,
    tablebases: Option<Tablebases>,
    /// For the strength limit's choices.
    random: Rng,
}

/// What the main search thread reports to the thread watching the search.
#[derive(Debug)]
pub struct Progress(Message);

#[derive(Debug)]
enum Message {
    Info(Box<SearchInfo>),
    /// The answer after the iteration that just finished.
    Best(SearchResult),
    /// The main thread's final answer.
    Done(SearchResult),
}

impl Searcher {
    /// An empty `hash_mb` table and one search thread.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut searcher = Searcher {
            tt: TranspositionTable::new(hash_mb),
            pool: Pool::new(1).expect("one search thread"),
            tablebases: None,
            random: Rng::from_clock(),
        };
        searcher.clear();
        searcher
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

    /// Resizes the transposition table (between searches), emptying it with all threads; on
    /// failure the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.tt.resize(mb)?;
        self.clear_table();
        Ok(())
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Starts `count` search threads (between searches), replacing the old ones and their
    /// histories.
    pub fn set_threads(&mut self, count: usize) -> Result<(), String> {
        if count.max(1) != self.pool.len() {
            self.pool = Pool::new(count)?;
        }
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.pool.len()
    }

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`), all threads clearing at once.
    pub fn clear(&mut self) {
        self.tt.restart_generations();
        self.pool.broadcast(|_, _, history| history.clear());
        self.clear_table();
    }

    /// Empties the table with every search thread, or one thread per core if there are more
    /// cores: bringing in gigabytes of fresh pages takes seconds on one.
    fn clear_table(&mut self) {
        let tt = &self.tt;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if self.pool.len() >= cores {
            self.pool
                .broadcast(|index, count, _| tt.clear_part(index, count));
            return;
        }
        std::thread::scope(|scope| {
            for part in 1..cores {
                scope.spawn(move || tt.clear_part(part, cores));
            }
            tt.clear_part(0, cores);
        });
    }

    /// Per-mille fill of the transposition table.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `game` within `limits` and waits for the answer, calling `on_info` once per
    /// finished iteration (and MultiPV line); with a strength limit, searches few nodes and
    /// picks among the best few moves.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_with(game, limits, config, control, Instant::now(), |running| {
            while !running.take(running.progress().recv(), on_info) {}
            running.answer(on_info)
        })
    }

    /// Starts a search on the pool (its clock started at `start`) and runs `watch` on this
    /// thread meanwhile; returns what `watch` returns once every search thread has ended. The
    /// search ends at a limit or when `control` is stopped; `watch` decides when to answer.
    pub fn search_with<R>(
        &mut self,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        control: &SearchControl,
        start: Instant,
        watch: impl FnOnce(&mut Running) -> R,
    ) -> R {
        let handicap = config.strength.and_then(Handicap::for_elo);
        let mut limits = limits.clone();
        let mut config = config.clone();
        let shown = config.multipv;
        if let Some(handicap) = &handicap {
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(handicap.nodes, |n| n.min(handicap.nodes)),
            );
            config.multipv = config.multipv.max(handicap.lines);
        }
        if let Err(e) = self.set_threads(config.threads) {
            log::error!("{e}; searching with {} thread(s)", self.pool.len());
        }
        self.tt.new_search();
        let tablebases = self
            .tablebases
            .as_ref()
            .filter(|_| config.syzygy_probe_limit > 0);
        let tb_limit = tablebases.map_or(0, |t| t.max_pieces().min(config.syzygy_probe_limit));
        let threads = self.pool.len();
        let shared = Shared {
            tt: &self.tt,
            control,
            limits: &limits,
            time: TimeManager::new(
                &limits,
                game.board().side_to_move(),
                config.move_overhead_ms,
                start,
            ),
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
            tbhits: AtomicU64::new(0),
            tb_depth: config.syzygy_probe_depth,
            tb_50_move_rule: config.syzygy_50_move_rule,
            tb_root: tablebases
                .and_then(|t| tb_root(t, game.board(), tb_limit, config.syzygy_50_move_rule)),
            evaluator: config.evaluator.clone(),
            publish: handicap.is_none(),
            first_iteration: Gate::default(),
        };
        shared
            .tbhits
            .store(u64::from(shared.tb_root.is_some()), Ordering::Relaxed);
        let (sender, progress) = unbounded();
        // Stopped before its first iteration, a search answers with the table's move.
        let hash_move = self
            .tt
            .probe(game.board().hash(), 0)
            .map_or(Move::NULL, |entry| entry.mv);
        if shared.publish && !hash_move.is_null() {
            control.publish(SearchResult {
                best: hash_move,
                ponder: None,
            });
        }
        let mut running = Running {
            progress,
            abort: &shared.abort,
            best: SearchResult {
                best: hash_move,
                ponder: None,
            },
            ended: false,
            handicap,
            shown,
            lines: Vec::new(),
            random: &mut self.random,
        };
        let keys = game.history();
        let sender = Mutex::new(Some(sender));
        with_backend!(config.backend, A => {
            let board = game.board().with_occupancy::<<A as SliderAttacks>::Occ>();
            let job = |index: usize, data: &mut ThreadData| {
                search_thread::<A>(index, data, &board, keys, &shared, &config, &sender);
            };
            self.pool.run(job, || {
                // Whatever `watch` did, the helpers end with it.
                let _abort = AbortOnDrop(running.abort);
                watch(&mut running)
            })
        })
    }
}

/// What the tables say about the root, when it is in them: only the moves that keep the best
/// result (by distance to zeroing), which the search then chooses among.
fn tb_root(tablebases: &Tablebases, board: &Board, tb_limit: u32, rule: bool) -> Option<TbRoot> {
    if board.occupied().count() > tb_limit {
        return None;
    }
    let probe = tablebases
        .probe_root(board)
        .filter(|probe| !probe.moves.is_empty())?;
    Some(TbRoot {
        moves: probe.best_moves(rule),
        score: match probe.wdl.counting_50_moves(rule) {
            Wdl::Win => TB_WIN - 1,
            Wdl::Loss => -TB_WIN + 1,
            _ => DRAW,
        },
    })
}

/// One pool thread's part of a search: thread 0 is the main thread, which reports and decides
/// and ends the helpers when it is done.
#[allow(clippy::too_many_arguments)]
fn search_thread<A: SliderAttacks>(
    index: usize,
    data: &mut ThreadData,
    board: &Board<A::Occ>,
    keys: &[u64],
    shared: &Shared,
    config: &SearchConfig,
    sender: &Mutex<Option<Sender<Progress>>>,
) {
    if index != 0 {
        shared.first_iteration.wait();
        let scratch = data.scratch.take().unwrap_or_default();
        let mut worker = Worker::<A>::new(shared, index, &mut data.history, keys, scratch);
        iterate(&mut worker, board, config, None);
        data.scratch = Some(worker.into_scratch());
        return;
    }
    let _open = OpenOnDrop(&shared.first_iteration);
    // Dropped when this thread ends, even by a panic: the watcher then sees the channel close.
    let Some(report) = sender.lock().ok().and_then(|mut s| s.take()) else {
        return;
    };
    let scratch = data.scratch.take().unwrap_or_default();
    let mut worker = Worker::<A>::new(shared, index, &mut data.history, keys, scratch);
    let result = iterate(&mut worker, board, config, Some(&report));
    data.scratch = Some(worker.into_scratch());
    shared.abort.store(true, Ordering::Relaxed);
    let _ = report.send(Progress(Message::Done(result)));
}

/// Sets the flag when dropped.
struct AbortOnDrop<'a>(&'a AtomicBool);

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A search in progress, as the thread that started it sees it.
pub struct Running<'a> {
    progress: Receiver<Progress>,
    abort: &'a AtomicBool,
    /// The answer of the last finished iteration, or the main thread's final one (before the
    /// first: the table's move, or none; the caller makes it legal).
    best: SearchResult,
    /// The main thread has ended.
    ended: bool,
    handicap: Option<Handicap>,
    /// MultiPV lines asked for (a strength limit searches more).
    shown: usize,
    /// The newest report of each line (with a strength limit).
    lines: Vec<Option<SearchInfo>>,
    random: &'a mut Rng,
}

impl Running<'_> {
    /// The main thread's reports, to wait on (with `select!`); pass each to [`Running::take`].
    pub fn progress(&self) -> &Receiver<Progress> {
        &self.progress
    }

    /// Takes one report, passing the `info` lines to show to `on_info`; true once the main
    /// thread has ended (its final answer taken, or gone without one).
    pub fn take(
        &mut self,
        report: Result<Progress, RecvError>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> bool {
        match report {
            Ok(Progress(Message::Info(info))) => {
                if self.handicap.is_some() {
                    let index = info.multipv - 1;
                    if self.lines.len() <= index {
                        self.lines.resize(index + 1, None);
                    }
                    self.lines[index] = Some((*info).clone());
                }
                if info.multipv <= self.shown {
                    on_info(&info);
                }
            }
            Ok(Progress(Message::Best(result))) => self.best = result,
            Ok(Progress(Message::Done(result))) => {
                self.best = result;
                self.ended = true;
            }
            Err(RecvError) => self.ended = true,
        }
        self.ended
    }

    /// The main thread has ended.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// There is a move to answer with (from an iteration, or the table's).
    pub fn has_move(&self) -> bool {
        !self.best.best.is_null()
    }

    /// The answer if the search were stopped now, when it needs no deciding (`None` before
    /// the first move, and with a strength limit, which chooses among the lines at the end).
    pub fn answer_so_far(&self) -> Option<SearchResult> {
        (self.handicap.is_none() && self.has_move()).then_some(self.best)
    }

    /// Ends the search now (the helpers too), as at a limit.
    pub fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }

    /// The answer, possible at any time: the best move so far (`Move::NULL` when there is
    /// none); with a strength limit, chosen among the best lines, and the line of the move
    /// played shown last.
    pub fn answer(&mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let result = self.best;
        let Some(handicap) = &self.handicap else {
            return result;
        };
        let candidates: Vec<(Move, i32)> = self
            .lines
            .iter()
            .flatten()
            .filter_map(|info| info.pv.first().map(|&mv| (mv, info.score.to_internal())))
            .collect();
        let Some(chosen) = handicap.choose(&candidates, self.random) else {
            return result;
        };
        let Some(line) = self
            .lines
            .iter()
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
}

/// Iterative deepening for one thread; only the main thread (id 0) reports and decides.
fn iterate<A: SliderAttacks>(
    worker: &mut Worker<A>,
    board: &Board<A::Occ>,
    config: &SearchConfig,
    report: Option<&Sender<Progress>>,
) -> SearchResult {
    let on_info = |info: SearchInfo| {
        if let Some(report) = report {
            let _ = report.send(Progress(Message::Info(Box::new(info))));
        }
    };
    let shared = worker.shared;
    let limits = shared.limits;
    let main = worker.id == 0;
    worker.set_root(board);
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
            on_info(SearchInfo {
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
        return SearchResult::NONE;
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
    let mut previous_best = None;

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
            let mut delta = ASPIRATION_DELTA.get();
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH.get() && !is_decisive(previous) {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITY, INFINITY)
                };
            // A fail high is re-searched one ply shallower each time (the move that failed high
            // is likely good anyway); a fail low at the iteration's depth.
            let mut search_depth = depth;
            worker.must_finish = main && depth == 1 && line == 0;
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
                if delta > ASPIRATION_MAX_DELTA.get() {
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
                if main && shared.publish {
                    shared.control.publish(result);
                }
                if main && depth == 1 {
                    shared.first_iteration.open();
                }
                if let Some(report) = report {
                    let _ = report.send(Progress(Message::Best(result)));
                }
            }
            if main {
                let elapsed = shared.time.elapsed().as_millis() as u64;
                let nodes = worker.nodes + helper_nodes(shared);
                on_info(SearchInfo {
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
        let effort = Effort {
            best_changes,
            best_move_share: worker.node_share(result.best),
            score_drop: previous_best.map_or(0, |previous| previous - scores[0]),
        };
        previous_best = Some(scores[0]);
        if !shared.control.is_pondering() && stop_after_iteration(shared, &effort) {
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

/// After an iteration: is there time for another?
fn stop_after_iteration(shared: &Shared, effort: &Effort) -> bool {
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
    shared.time.elapsed().as_secs_f64() >= soft.as_secs_f64() * effort.time_scale()
}
