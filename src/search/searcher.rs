//! The searcher: what lives from one search to the next (transposition table, thread pool,
//! tablebases) and the start of a search on the pool, with its tablebase root moves (the
//! iterations themselves are in `iterate.rs`).
//!
//! A search runs on the pool's threads; the thread that started it watches it through
//! [`Running`]: the main search thread (pool thread 0) sends it each finished iteration, so it
//! can answer at once when told to stop, while the helpers are still winding down.

use super::gate::{Gate, OpenOnDrop};
use super::iterate::iterate;
use super::node::{Shared, TbRoot, Worker};
use super::pool::{Pool, ThreadData};
use super::running::{Message, Progress, Running};
use super::score::{DRAW, TB_WIN};
use super::strength::Handicap;
use super::tt::TranspositionTable;
use super::{Limits, SearchConfig, SearchControl, SearchInfo, SearchResult, TimeManager};
use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::game::Game;
use crate::tablebase::{Tablebases, Wdl};
use crate::types::{Move, Rng};
use crate::with_backend;
use crossbeam_channel::{Sender, unbounded};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The search state that lives across moves of a game: the transposition table, the search
/// threads and each one's move-ordering history.
pub struct Searcher {
    tt: TranspositionTable,
    pool: Pool,
    tablebases: Option<Tablebases>,
    /// For the strength limit's choices.
    random: Rng,
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
            root_move: AtomicU64::new(0),
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
            .probe(game.board().hash(), 0, game.board().halfmove_clock())
            .map_or(Move::NULL, |entry| entry.mv);
        if shared.publish && !hash_move.is_null() {
            control.publish(SearchResult {
                best: hash_move,
                ponder: None,
            });
        }
        let mut running = Running::new(progress, &shared, handicap, shown, &mut self.random);
        let keys = game.history();
        let sender = Mutex::new(Some(sender));
        with_backend!(config.backend, A => {
            let board = game.board().with_occupancy::<<A as SliderAttacks>::Occ>();
            let search = Search::<A> {
                board: &board,
                keys,
                shared: &shared,
                config: &config,
                sender: &sender,
            };
            let job = |index: usize, data: &mut ThreadData| search.run(index, data);
            self.pool.run(job, || {
                // Whatever `watch` did, the helpers end with it.
                let _abort = AbortOnDrop(&shared.abort);
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

/// What every pool thread of one search starts from.
struct Search<'a, A: SliderAttacks> {
    board: &'a Board<A::Occ>,
    /// The game's position keys, for repetitions.
    keys: &'a [u64],
    shared: &'a Shared<'a>,
    config: &'a SearchConfig,
    /// The main thread's line to the engine thread, taken by it.
    sender: &'a Mutex<Option<Sender<Progress>>>,
}

impl<A: SliderAttacks> Search<'_, A> {
    /// One pool thread's part of the search: thread 0 is the main thread, which reports and
    /// decides and ends the helpers when it is done.
    fn run(&self, index: usize, data: &mut ThreadData) {
        let Search {
            board,
            keys,
            shared,
            config,
            sender,
        } = *self;
        if index != 0 {
            shared.first_iteration.wait();
            let scratch = data.scratch.take().unwrap_or_default();
            let mut worker = Worker::<A>::new(shared, index, &mut data.history, keys, scratch);
            iterate(&mut worker, board, config, None);
            data.scratch = Some(worker.into_scratch());
            return;
        }
        let _open = OpenOnDrop(&shared.first_iteration);
        // Dropped when this thread ends, even by a panic: the engine thread then sees the
        // channel close.
        let Some(report) = sender.lock().ok().and_then(|mut s| s.take()) else {
            return;
        };
        let scratch = data.scratch.take().unwrap_or_default();
        let mut worker = Worker::<A>::new(shared, index, &mut data.history, keys, scratch);
        let result = iterate(&mut worker, board, config, Some(&report));
        data.scratch = Some(worker.into_scratch());
        // An iteration cut short before its first move leaves one unpublished.
        if shared.publish && !result.best.is_null() {
            shared.control.publish(result);
        }
        shared.abort.store(true, Ordering::Relaxed);
        let _ = report.send(Progress(Message::Done(result)));
    }
}

/// Sets the flag when dropped.
struct AbortOnDrop<'a>(&'a AtomicBool);

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
