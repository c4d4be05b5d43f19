//! Self-play data generation: games of the engine against itself at a fixed node budget per
//! move, from randomised openings, writing quiet positions with the search score and the final
//! result. Uses several threads, appends to the output file after every game, and can run for
//! hours (`games = 0`: until killed).

use super::Sample;
use crate::attacks::Magic;
use crate::board::{Board, Game, START_FEN};
use crate::movegen::legal_moves;
use crate::search::{Limits, MATE_BOUND, Score, SearchConfig, SearchControl, Searcher};
use crate::types::{Color, Move};
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Openings a depth-8 search scores beyond this many centipawns are skipped.
const MAX_OPENING_SCORE: i32 = 300;

#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play in total; 0 plays until the process is stopped.
    pub games: usize,
    pub threads: usize,
    /// Search budget per move.
    pub nodes: u64,
    /// Random moves played from the start position before recording.
    pub random_plies: usize,
    pub seed: u64,
    pub output: PathBuf,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 0,
            threads: 2,
            nodes: 8_000,
            random_plies: 8,
            seed: 1,
            output: PathBuf::from("data/selfplay.txt"),
        }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays games and appends their positions to `config.output`. Returns positions written.
pub fn run(config: &DatagenConfig) -> std::io::Result<u64> {
    if let Some(dir) = config.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.output)?;
    let writer = Mutex::new(BufWriter::new(file));
    let games_started = AtomicUsize::new(0);
    let positions = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for thread in 0..config.threads.max(1) {
            let (writer, games_started, positions) = (&writer, &games_started, &positions);
            scope.spawn(move || {
                let mut rng = Rng(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ ((thread as u64 + 1) * 0x1234_5678_9ABC));
                let mut searcher = Searcher::new(16);
                loop {
                    let n = games_started.fetch_add(1, Ordering::Relaxed);
                    if config.games != 0 && n >= config.games {
                        break;
                    }
                    let samples = play_game(config, &mut searcher, &mut rng);
                    let mut out = writer.lock().expect("writer lock");
                    for s in &samples {
                        let _ = writeln!(out, "{}", s.to_line());
                    }
                    let _ = out.flush();
                    let total = positions.fetch_add(samples.len() as u64, Ordering::Relaxed)
                        + samples.len() as u64;
                    if (n + 1) % 100 == 0 {
                        eprintln!(
                            "datagen: {} games, {} positions, {:.0} positions/s",
                            n + 1,
                            total,
                            total as f64 / start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    Ok(positions.load(Ordering::Relaxed))
}

/// One self-play game; the recorded positions get the result once it is known.
fn play_game(config: &DatagenConfig, searcher: &mut Searcher, rng: &mut Rng) -> Vec<Sample> {
    let mut game = Game::new(Board::from_fen(START_FEN).expect("start position"));
    for _ in 0..config.random_plies {
        let moves = legal_moves::<Magic>(game.board());
        if moves.is_empty() {
            return Vec::new();
        }
        game.play(moves[(rng.next() % moves.len() as u64) as usize]);
    }
    searcher.clear();
    let control = SearchControl::new();
    let search_config = SearchConfig::default();
    // Random openings are often lost at once: keep only those a short search finds balanced.
    control.start(false);
    let mut opening_score = Score::Cp(0);
    searcher.search(
        &game,
        &Limits::depth(8),
        &search_config,
        &control,
        &mut |info| {
            opening_score = info.score;
        },
    );
    if !matches!(opening_score, Score::Cp(cp) if cp.abs() <= MAX_OPENING_SCORE) {
        return Vec::new();
    }
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let mut records: Vec<(String, i32)> = Vec::new();
    let mut winning_streak = 0;
    let mut quiet_streak = 0;
    let result: f64 = loop {
        let board = *game.board();
        if legal_moves::<Magic>(&board).is_empty() {
            break if board.in_check::<Magic>() {
                if board.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
        }
        if board.halfmove_clock() >= 100 || game.repetitions() >= 2 || board.insufficient_material()
        {
            break 0.5;
        }
        if game.moves().len() > 400 {
            break 0.5;
        }
        control.start(false);
        let mut score = Score::Cp(0);
        let mut raw = 0;
        let found = searcher.search(&game, &limits, &search_config, &control, &mut |info| {
            score = info.score;
        });
        if let Score::Cp(cp) = score {
            raw = cp;
        }
        let white_score = raw * board.side_to_move().sign();
        let mate = matches!(score, Score::Mate(_));
        // Record quiet positions: not in check, a quiet best move, no mate in sight.
        if game.moves().len() >= config.random_plies + 2
            && !mate
            && raw.abs() < MATE_BOUND
            && !board.in_check::<Magic>()
            && found.best.is_quiet()
        {
            records.push((board.to_fen(), white_score));
        }
        // Adjudication keeps games short once the outcome is clear.
        if mate || raw.abs() >= 1_200 {
            winning_streak += 1;
            if winning_streak >= 4 {
                let white_wins = match score {
                    Score::Mate(n) => (n > 0) == (board.side_to_move() == Color::White),
                    Score::Cp(_) => white_score > 0,
                };
                break if white_wins { 1.0 } else { 0.0 };
            }
        } else {
            winning_streak = 0;
        }
        if game.moves().len() > 120 && raw.abs() <= 8 {
            quiet_streak += 1;
            if quiet_streak >= 12 {
                break 0.5;
            }
        } else {
            quiet_streak = 0;
        }
        if found.best == Move::NULL {
            break 0.5;
        }
        game.play(found.best);
    };
    records
        .into_iter()
        .map(|(fen, score)| Sample { fen, score, result })
        .collect()
}
