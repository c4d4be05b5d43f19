//! Self-play data generation: the engine plays itself at a soft node limit per move from
//! randomised openings (`openings.rs`: random plies from the start position or, in some games,
//! from a double Fischer random one) and records every searched position as a game record
//! (`records.rs`): the move played and its search score. Filtering happens at training time,
//! so nothing is thrown away twice.
//!
//! Each thread writes its own stream of chunks (`chunks.rs`), seeded by (seed, thread, chunk
//! number), so a chunk can be replayed from its manifest entry. A stop request closes the
//! chunks in progress with the games they have; a killed run's partial chunks are finished by
//! the next run, losing only the games in flight.

use crate::attacks::Magic;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::search::{Limits, Score, SearchConfig, SearchControl, Searcher};
use crate::tablebase::{Tablebases, Wdl};
use crate::train::chunks::{self, ChunkWriter, Manifest, Provenance};
use crate::train::openings::Openings;
use crate::train::records::GameRecord;
use crate::types::{Color, Rng};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play in total, shared out evenly between the threads; 0 plays until stopped.
    pub games: usize,
    pub threads: usize,
    /// Each move's search ends after the iteration that passes this many nodes...
    pub soft_nodes: u64,
    /// ...and at this many in any case.
    pub hard_nodes: u64,
    /// Random moves from the start position: this many, or one more (half the games); 0: none.
    pub random_plies: usize,
    /// Per cent of the games that start from a random double Fischer random position.
    pub dfrc_percent: u32,
    /// Each thread's transposition table, MB: a small one stays in the core's cache, and a
    /// game's 5 000-node searches fill few entries (docs/evaluation.md: 2 MB gave 2-6 % more
    /// positions an hour than 16).
    pub hash_mb: usize,
    /// Openings a depth-8 search scores beyond this are skipped.
    pub max_opening_score: i32,
    pub seed: u64,
    /// The folder of chunks and their manifest.
    pub dir: PathBuf,
    /// A thread starts a new chunk once its chunk holds this many positions.
    pub chunk_positions: u64,
    pub evaluator: Evaluator,
    /// What the manifest says of the evaluation (the network's hash and source).
    pub network: String,
    /// Syzygy folders: games reaching the tables end with the tables' result.
    pub syzygy_path: Option<String>,
    /// Per cent of the games reaching the tables that play on past the first hit (up to
    /// [`PLAYOUT_PLIES`]), labelled with the tables' result, so the network's smallest output
    /// bucket sees the 3-4-piece endings an engine without tables must evaluate.
    pub tb_playout_percent: u32,
}

impl DatagenConfig {
    /// How this run's openings are made.
    pub fn openings(&self) -> Openings {
        Openings {
            random_plies: self.random_plies,
            dfrc_percent: self.dfrc_percent,
            max_score: self.max_opening_score,
            evaluator: self.evaluator.clone(),
        }
    }
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 0,
            threads: 2,
            soft_nodes: 5_000,
            hard_nodes: 20_000,
            random_plies: 8,
            dfrc_percent: 10,
            hash_mb: 2,
            max_opening_score: 1_000,
            seed: 1,
            dir: PathBuf::from("data/selfplay"),
            chunk_positions: 500_000,
            evaluator: Evaluator::default(),
            network: String::new(),
            syzygy_path: None,
            tb_playout_percent: 50,
        }
    }
}

/// Adjudication: a side this far ahead for `WIN_PLIES` searches in a row has won...
const WIN_SCORE: i32 = 2_000;
const WIN_PLIES: u32 = 4;
/// ...and a game this level for `DRAW_PLIES` searches after `DRAW_FROM_PLY` is drawn.
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 10;
const DRAW_FROM_PLY: usize = 80;
/// Games are cut (as draws) after this many plies.
const MAX_PLIES: usize = 400;
/// A game played on past its first tablebase hit stops this many plies after it.
pub const PLAYOUT_PLIES: usize = 40;

/// What a run has done so far.
#[derive(Default)]
pub struct Tally {
    pub games: AtomicUsize,
    pub positions: AtomicU64,
    pub chunks: AtomicUsize,
    /// White wins, draws, Black wins.
    pub results: [AtomicUsize; 3],
}

impl Tally {
    pub fn line(&self, start: Instant) -> String {
        let positions = self.positions.load(Ordering::Relaxed);
        let hours = start.elapsed().as_secs_f64() / 3600.0;
        let [w, d, l] = &self.results;
        format!(
            "datagen: {} games, {positions} positions, {} chunks finished, {:.2} M positions/hour, \
             W/D/L {}/{}/{}",
            self.games.load(Ordering::Relaxed),
            self.chunks.load(Ordering::Relaxed),
            positions as f64 / hours.max(1e-9) / 1e6,
            w.load(Ordering::Relaxed),
            d.load(Ordering::Relaxed),
            l.load(Ordering::Relaxed)
        )
    }
}

/// Plays games into chunks in `config.dir` until `config.games` are played or `stop` is set;
/// reports progress through `report` about every `report_every` games. Partial chunks a killed
/// run left are finished first. Returns the positions written.
pub fn run(
    config: &DatagenConfig,
    report_every: usize,
    stop: &AtomicBool,
    report: impl Fn(&str) + Sync,
) -> Result<u64, String> {
    let dir = &config.dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let _claim = chunks::FolderLock::claim(dir)?;
    for entry in chunks::salvage(dir)? {
        report(&format!(
            "datagen: finished {} left by an earlier run: {} games, {} positions",
            entry.file, entry.games, entry.positions
        ));
    }
    let tablebases = match &config.syzygy_path {
        Some(p) => Some(Tablebases::open(p)?),
        None => None,
    };
    let search_config = SearchConfig {
        evaluator: config.evaluator.clone(),
        ..SearchConfig::default()
    };
    let bench =
        crate::search::bench_suite::run(crate::search::bench_suite::DEFAULT_DEPTH, &search_config)
            .nodes;
    let manifest = Manifest::read(dir)?;
    let template = Provenance {
        engine: crate::build_info::VERSION.to_string(),
        bench,
        network: config.network.clone(),
        soft_nodes: config.soft_nodes,
        hard_nodes: config.hard_nodes,
        random_plies: config.random_plies,
        dfrc_percent: config.dfrc_percent,
        syzygy: tablebases.is_some(),
        tb_playout_percent: tablebases.is_some().then_some(config.tb_playout_percent),
        hash_mb: Some(config.hash_mb),
        seed: config.seed,
        ..Provenance::default()
    };
    let progress = Tally::default();
    let start = Instant::now();
    let failure = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for thread in 0..config.threads.max(1) {
            let first = chunks::next_index(dir, &manifest, config.seed, thread);
            let (progress, report, tablebases, template, failure) =
                (&progress, &report, tablebases.as_ref(), &template, &failure);
            scope.spawn(move || {
                let stream = Stream {
                    config,
                    thread,
                    tablebases,
                    template,
                    progress,
                    stop,
                };
                if let Err(e) = stream.play(first, report_every, &|line| report(line), start) {
                    report(&format!("datagen: thread {thread}: {e}"));
                    stop.store(true, Ordering::Relaxed);
                    *failure.lock().expect("failure lock") = Some(e);
                }
            });
        }
    });
    report(&progress.line(start));
    match failure.into_inner().expect("failure lock") {
        Some(e) => Err(e),
        None => Ok(progress.positions.load(Ordering::Relaxed)),
    }
}

/// One thread's games, chunk after chunk.
struct Stream<'a> {
    config: &'a DatagenConfig,
    thread: usize,
    tablebases: Option<&'a Tablebases>,
    template: &'a Provenance,
    progress: &'a Tally,
    stop: &'a AtomicBool,
}

impl Stream<'_> {
    fn play(
        &self,
        mut index: u32,
        report_every: usize,
        report: &dyn Fn(&str),
        start: Instant,
    ) -> Result<(), String> {
        let config = self.config;
        let mut searcher = Searcher::new(config.hash_mb);
        let mut played = 0;
        loop {
            let provenance = Provenance {
                thread: self.thread,
                index,
                started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                ..self.template.clone()
            };
            let mut rng = Rng::new(
                config.seed
                    ^ (self.thread as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ u64::from(index).rotate_left(32),
            );
            let mut writer = ChunkWriter::create(&config.dir, provenance)?;
            let mut more = true;
            while writer.positions() < config.chunk_positions {
                if !self.plays_another(played) {
                    more = false;
                    break;
                }
                let Some(game) =
                    play_game(config, &mut searcher, &mut rng, self.tablebases, self.stop)
                else {
                    if self.stop.load(Ordering::Relaxed) {
                        more = false;
                        break;
                    }
                    continue;
                };
                writer.add(&game)?;
                played += 1;
                let n = self.progress.games.fetch_add(1, Ordering::Relaxed) + 1;
                self.progress
                    .positions
                    .fetch_add(game.len() as u64, Ordering::Relaxed);
                self.progress.results[(2.0 - 2.0 * game.result) as usize]
                    .fetch_add(1, Ordering::Relaxed);
                if n.is_multiple_of(report_every.max(1)) {
                    report(&self.progress.line(start));
                }
            }
            if let Some(entry) = writer.finish()? {
                self.progress.chunks.fetch_add(1, Ordering::Relaxed);
                report(&format!(
                    "datagen: chunk {}: {} games, {} positions, {} bytes ({:.2} bytes/position)",
                    entry.file,
                    entry.games,
                    entry.positions,
                    entry.bytes,
                    entry.bytes as f64 / entry.positions as f64
                ));
            }
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }

    /// Whether this thread plays another game after `played`: false when stopped or when its
    /// share of the run's total is played.
    fn plays_another(&self, played: usize) -> bool {
        !self.stop.load(Ordering::Relaxed) && self.quota().is_none_or(|quota| played < quota)
    }

    /// This thread's share of `--games` (the first `games % threads` threads play one more).
    /// A fixed share, not first come first served, so the chunks a run writes depend on its
    /// seed and thread count and not on which thread the scheduler ran first.
    fn quota(&self) -> Option<usize> {
        let (games, threads) = (self.config.games, self.config.threads.max(1));
        (games != 0).then(|| games / threads + usize::from(self.thread < games % threads))
    }
}

/// The result for the side to move that a tablebase value stands for (a win or loss the
/// 50-move rule spoils is a draw).
fn tablebase_result(wdl: Wdl) -> f32 {
    match wdl {
        Wdl::Win => 1.0,
        Wdl::Loss => 0.0,
        _ => 0.5,
    }
}

/// One game from a random opening: every searched position's move and score. None when the
/// opening is refused or `stop` is set.
fn play_game(
    config: &DatagenConfig,
    searcher: &mut Searcher,
    rng: &mut Rng,
    tablebases: Option<&Tablebases>,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    searcher.clear();
    let game = config.openings().random(searcher, rng)?;
    play_from(config, game, searcher, rng, tablebases, stop)
}

/// The rest of a game from `game`'s position on.
fn play_from(
    config: &DatagenConfig,
    mut game: Game,
    searcher: &mut Searcher,
    rng: &mut Rng,
    tablebases: Option<&Tablebases>,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut record = GameRecord::new(*game.board());
    let search_config = SearchConfig {
        evaluator: config.evaluator.clone(),
        ..SearchConfig::default()
    };
    let limits = Limits {
        nodes: Some(config.hard_nodes),
        soft_nodes: Some(config.soft_nodes),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let (mut win_streak, mut draw_streak) = (0, 0);
    // Once past the first tablebase hit: the tables' result (White's) and the hit's ply.
    let mut playout: Option<(f32, usize)> = None;
    record.result = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let board = *game.board();
        let white = |stm_result: f32| match board.side_to_move() {
            Color::White => stm_result,
            Color::Black => 1.0 - stm_result,
        };
        let probe = || {
            tablebases
                .and_then(|t| t.probe_wdl(&board))
                .map(|wdl| white(tablebase_result(wdl)))
        };
        if let Some((known, hit)) = playout {
            // Every position of the playout carries the tables' result: the game stops at the
            // end of the board or the playout, or when a move has thrown the result away.
            let over = legal_moves::<Magic>(&board).is_empty()
                || board.halfmove_clock() >= 100
                || game.repetitions() >= 2
                || board.insufficient_material()
                || game.moves().len() >= (hit + PLAYOUT_PLIES).min(MAX_PLIES);
            if over || probe() != Some(known) {
                break known;
            }
        } else {
            if legal_moves::<Magic>(&board).is_empty() {
                break if board.in_check::<Magic>() {
                    white(0.0)
                } else {
                    0.5
                };
            }
            if board.halfmove_clock() >= 100
                || game.repetitions() >= 2
                || board.insufficient_material()
                || game.moves().len() >= MAX_PLIES
            {
                break 0.5;
            }
            if let Some(known) = probe() {
                if rng.below(100) >= config.tb_playout_percent as usize {
                    break known;
                }
                playout = Some((known, game.moves().len()));
            }
        }
        control.start_next(false);
        let mut score = Score::Cp(0);
        let found = searcher.search(&game, &limits, &search_config, &control, &mut |info| {
            score = info.score;
        });
        let cp = match score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 32_000,
            Score::Mate(_) => -32_000,
        };
        if playout.is_some() {
            // The result is known: no adjudication.
        } else if cp.abs() >= WIN_SCORE {
            win_streak += 1;
            if win_streak >= WIN_PLIES {
                break white(if cp > 0 { 1.0 } else { 0.0 });
            }
        } else {
            win_streak = 0;
        }
        if playout.is_none() && game.moves().len() >= DRAW_FROM_PLY && cp.abs() <= DRAW_SCORE {
            draw_streak += 1;
            if draw_streak >= DRAW_PLIES {
                break 0.5;
            }
        } else {
            draw_streak = 0;
        }
        if found.best.is_null() {
            break 0.5;
        }
        let white_cp = (cp * board.side_to_move().sign()).clamp(-32_000, 32_000) as i16;
        record.moves.push((found.best, white_cp));
        game.play(found.best);
    };
    Some(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Games from 4-piece positions with the tables: the played-out share records the ending's
    /// positions, each with the tables' value for its result; the rest stop at once.
    #[test]
    fn games_past_a_tablebase_hit_carry_the_tables_result() {
        let tables = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy"))
            .expect("the test tables");
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(1);
        // Won for White (KQvK, KRvK, KPvK), drawn (KNvKN, KBvKB), and won for Black.
        let fens = [
            "8/8/8/3k4/8/8/8/1Q2K3 w - - 0 60",
            "8/8/4k3/8/8/8/8/R3K3 b - - 0 60",
            "8/8/8/4k3/8/8/2P5/2K5 w - - 0 60",
            "8/8/3nk3/8/8/3N4/8/4K3 w - - 0 60",
            "8/8/3bk3/8/8/3B4/8/4K3 b - - 0 60",
            "8/8/8/8/8/8/3qk3/7K w - - 0 60",
        ];
        for percent in [0, 100] {
            let config = DatagenConfig {
                soft_nodes: 300,
                hard_nodes: 1_200,
                evaluator: Evaluator::Hce,
                tb_playout_percent: percent,
                ..DatagenConfig::default()
            };
            let mut rng = Rng::new(3);
            for fen in fens {
                let start = Board::from_fen(fen).unwrap();
                let stm = start.side_to_move();
                let value = tablebase_result(tables.probe_wdl(&start).unwrap());
                let expected = if stm == Color::White {
                    value
                } else {
                    1.0 - value
                };
                let game = Game::new(start);
                let record =
                    play_from(&config, game, &mut searcher, &mut rng, Some(&tables), &stop)
                        .expect("a game");
                assert_eq!(record.result, expected, "{fen}");
                if percent == 0 {
                    assert_eq!(record.len(), 0, "{fen}: ends at the hit");
                    continue;
                }
                assert!(record.len() >= 2, "{fen}: {} positions", record.len());
                assert!(record.len() <= PLAYOUT_PLIES, "{fen}");
                for (board, _, _) in record.positions() {
                    let value = tablebase_result(tables.probe_wdl(&board).unwrap());
                    let white = match board.side_to_move() {
                        Color::White => value,
                        Color::Black => 1.0 - value,
                    };
                    assert_eq!(white, record.result, "{fen}: {}", board.to_fen());
                }
            }
        }
    }
}
