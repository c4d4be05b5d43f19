//! Self-play data generation: the engine plays itself at a soft node limit per move from
//! randomised openings and records every searched position, with the search score, the game's
//! result and what the trainer filters on (in check, a tactical best move, the ply), in the
//! packed format (`packed.rs`). Filtering happens at training time, so nothing is thrown away
//! twice. Games are appended whole and flushed, so a killed run loses only the games in flight
//! and a restart continues the file.

use crate::attacks::Magic;
use crate::board::{Board, START_FEN};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::search::{Limits, Score, SearchConfig, SearchControl, Searcher};
use crate::tablebase::{Tablebases, Wdl};
use crate::tune::packed::{self, ChessBoard, NOISY_BEST, RECORD};
use crate::types::Color;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play in total; 0 plays until the process is stopped.
    pub games: usize,
    pub threads: usize,
    /// Each move's search ends after the iteration that passes this many nodes...
    pub soft_nodes: u64,
    /// ...and at this many in any case.
    pub hard_nodes: u64,
    /// Random moves from the start position: this many, or one more (half the games).
    pub random_plies: usize,
    /// Openings a depth-8 search scores beyond this are skipped.
    pub max_opening_score: i32,
    pub seed: u64,
    pub output: PathBuf,
    pub evaluator: Evaluator,
    /// Syzygy folders: games reaching the tables end with the tables' result.
    pub syzygy_path: Option<String>,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 0,
            threads: 2,
            soft_nodes: 5_000,
            hard_nodes: 20_000,
            random_plies: 8,
            max_opening_score: 1_000,
            seed: 1,
            output: PathBuf::from("data/selfplay.bin"),
            evaluator: Evaluator::default(),
            syzygy_path: None,
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

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a run has done so far.
#[derive(Default)]
pub struct Progress {
    pub games: AtomicUsize,
    pub positions: AtomicU64,
    /// White wins, draws, Black wins.
    pub results: [AtomicUsize; 3],
}

impl Progress {
    pub fn line(&self, existing: u64, start: Instant) -> String {
        let positions = self.positions.load(Ordering::Relaxed);
        let hours = start.elapsed().as_secs_f64() / 3600.0;
        let [w, d, l] = &self.results;
        format!(
            "datagen: {} games, {positions} positions ({} in the file), {:.2} M positions/hour, \
             W/D/L {}/{}/{}",
            self.games.load(Ordering::Relaxed),
            existing + positions,
            positions as f64 / hours.max(1e-9) / 1e6,
            w.load(Ordering::Relaxed),
            d.load(Ordering::Relaxed),
            l.load(Ordering::Relaxed)
        )
    }
}

/// Plays games and appends their positions to `config.output`; reports progress through
/// `report` about every `report_every` games. Returns the positions written.
pub fn run(
    config: &DatagenConfig,
    report_every: usize,
    report: impl Fn(&str) + Sync,
) -> Result<u64, String> {
    let path = &config.output;
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    // A record cut short by a crash is dropped; whole records stay.
    let len = file.metadata().map_err(io)?.len();
    file.set_len(len - len % RECORD as u64).map_err(io)?;
    let existing = len / RECORD as u64;
    let tablebases = match &config.syzygy_path {
        Some(p) => Some(Tablebases::open(p)?),
        None => None,
    };
    let writer = Mutex::new(BufWriter::new(file));
    let progress = Progress::default();
    let start = Instant::now();
    std::thread::scope(|scope| {
        for thread in 0..config.threads.max(1) {
            let (writer, progress, report, tablebases) =
                (&writer, &progress, &report, tablebases.as_ref());
            scope.spawn(move || {
                // A resumed run must not replay the games already in the file.
                let mut rng = Rng((config.seed ^ existing.rotate_left(17))
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ ((thread as u64 + 1) * 0x1234_5678_9ABC)
                    | 1);
                let mut searcher = Searcher::new(16);
                loop {
                    let n = progress.games.fetch_add(1, Ordering::Relaxed);
                    if config.games != 0 && n >= config.games {
                        progress.games.fetch_sub(1, Ordering::Relaxed);
                        break;
                    }
                    let Some((positions, result)) =
                        play_game(config, &mut searcher, &mut rng, tablebases)
                    else {
                        progress.games.fetch_sub(1, Ordering::Relaxed);
                        continue;
                    };
                    let written = {
                        let mut out = writer.lock().expect("writer lock");
                        packed::write_all(&mut *out, &positions).and_then(|()| out.flush())
                    };
                    if let Err(e) = written {
                        report(&format!("datagen: {}: {e}", path.display()));
                        return;
                    }
                    progress
                        .positions
                        .fetch_add(positions.len() as u64, Ordering::Relaxed);
                    progress.results[(2.0 - 2.0 * result) as usize].fetch_add(1, Ordering::Relaxed);
                    if (n + 1) % report_every.max(1) == 0 {
                        report(&progress.line(existing, start));
                    }
                }
            });
        }
    });
    report(&progress.line(existing, start));
    Ok(progress.positions.load(Ordering::Relaxed))
}

/// A balanced random opening: `random_plies` (or one more) random moves that a depth-8
/// search scores within `max_opening_score`.
fn opening(config: &DatagenConfig, searcher: &mut Searcher, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new(Board::from_fen(START_FEN).expect("start position"));
    for _ in 0..config.random_plies + rng.below(2) {
        let moves = legal_moves::<Magic>(game.board());
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]);
    }
    if legal_moves::<Magic>(game.board()).is_empty() {
        return None;
    }
    let control = SearchControl::new();
    control.start(false);
    let mut score = Score::Cp(0);
    let search_config = SearchConfig {
        evaluator: config.evaluator.clone(),
        ..SearchConfig::default()
    };
    searcher.search(
        &game,
        &Limits::depth(8),
        &search_config,
        &control,
        &mut |info| {
            score = info.score;
        },
    );
    matches!(score, Score::Cp(cp) if cp.abs() <= config.max_opening_score).then_some(game)
}

/// One game: every searched position, packed once the result (for White) is known.
fn play_game(
    config: &DatagenConfig,
    searcher: &mut Searcher,
    rng: &mut Rng,
    tablebases: Option<&Tablebases>,
) -> Option<(Vec<ChessBoard>, f32)> {
    searcher.clear();
    let mut game = opening(config, searcher, rng)?;
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
    let mut records: Vec<(Board, i32, u8)> = Vec::new();
    let (mut win_streak, mut draw_streak) = (0, 0);
    let result: f32 = loop {
        let board = *game.board();
        let white = |stm_result: f32| match board.side_to_move() {
            Color::White => stm_result,
            Color::Black => 1.0 - stm_result,
        };
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
        if let Some(wdl) = tablebases.and_then(|t| t.probe_wdl(&board)) {
            break white(match wdl {
                Wdl::Win => 1.0,
                Wdl::Loss => 0.0,
                _ => 0.5,
            });
        }
        control.start(false);
        let mut score = Score::Cp(0);
        let found = searcher.search(&game, &limits, &search_config, &control, &mut |info| {
            score = info.score;
        });
        let cp = match score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 32_000,
            Score::Mate(_) => -32_000,
        };
        let noisy = !found.best.is_quiet();
        records.push((board, cp, if noisy { NOISY_BEST } else { 0 }));
        if cp.abs() >= WIN_SCORE {
            win_streak += 1;
            if win_streak >= WIN_PLIES {
                break white(if cp > 0 { 1.0 } else { 0.0 });
            }
        } else {
            win_streak = 0;
        }
        if game.moves().len() >= DRAW_FROM_PLY && cp.abs() <= DRAW_SCORE {
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
        game.play(found.best);
    };
    let positions = records
        .iter()
        .map(|(board, cp, flags)| packed::pack(board, *cp, result, *flags))
        .collect();
    Some((positions, result))
}
