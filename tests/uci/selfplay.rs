//! 50 very fast games of the engine against itself through the protocol, as a GUI runs them:
//! `ucinewgame`, `position fen ... moves ...`, `go wtime .. btime .. winc .. binc ..`, with
//! the clock kept by this test. Every move is checked legal by an independent move generator,
//! and no side may run out of time.

use crate::chess::{fen_of, play, position};
use crate::harness::{Engine, SOON, test_data};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position};
use std::collections::HashMap;
use std::time::Instant;

const GAMES: usize = 50;
const THREADS: usize = 2;
/// Clock per side and increment, in ms.
const CLOCK_MS: i64 = 300;
const INCREMENT_MS: i64 = 15;
/// Longer games are adjudicated drawn (the point is the protocol, not the result).
const MAX_PLIES: usize = 50;
/// The latency this test machine may add to a move (pipes, scheduling on 2 shared cores, this
/// test's own threads), told to the engine as a GUI user would: CI machines run other tests
/// beside this one, and a stall of tens of milliseconds is not rare there.
const MOVE_OVERHEAD_MS: u32 = 30;

fn openings() -> Vec<String> {
    std::fs::read_to_string(test_data("books/balanced-8ply.epd"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect()
}

#[derive(Debug, Default)]
struct Tally {
    games: usize,
    decisive: usize,
    drawn: usize,
    adjudicated: usize,
    moves: usize,
    slowest_ms: u128,
    least_time_left_ms: i64,
}

fn play_game(engines: &mut [Engine; 2], opening: &str, white_first: usize, tally: &mut Tally) {
    for engine in engines.iter_mut() {
        engine.send("ucinewgame");
        engine.sync();
    }
    let mut pos = position(opening, false);
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [CLOCK_MS, CLOCK_MS];
    let mut seen: HashMap<u64, usize> = HashMap::new();
    loop {
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        let repeated = seen.entry(key.0).or_default();
        *repeated += 1;
        if pos.is_game_over() {
            if pos.is_checkmate() {
                tally.decisive += 1;
            } else {
                tally.drawn += 1;
            }
            break;
        }
        if *repeated >= 3 || pos.halfmoves() >= 100 {
            tally.drawn += 1;
            break;
        }
        if moves.len() >= MAX_PLIES {
            tally.adjudicated += 1;
            break;
        }
        let side = usize::from(pos.turn().is_black());
        let engine = &mut engines[(side + white_first) % 2];
        let command = format!("position fen {opening} moves {}", moves.join(" "));
        engine.send(command.trim_end());
        let start = Instant::now();
        engine.send(&format!(
            "go wtime {} btime {} winc {INCREMENT_MS} binc {INCREMENT_MS}",
            clock[0], clock[1]
        ));
        let (_, best, _) = engine.bestmove(SOON);
        let elapsed = start.elapsed();
        clock[side] -= elapsed.as_millis() as i64;
        assert!(
            clock[side] >= 0,
            "flag fall: {} ms over after {} ms for {best} in {} (moves {})",
            -clock[side],
            elapsed.as_millis(),
            fen_of(&pos),
            moves.join(" ")
        );
        tally.least_time_left_ms = tally.least_time_left_ms.min(clock[side]);
        tally.slowest_ms = tally.slowest_ms.max(elapsed.as_millis());
        clock[side] += INCREMENT_MS;
        pos = play(&pos, &best).unwrap_or_else(|e| {
            panic!("illegal move in self-play: {e} (moves {})", moves.join(" "))
        });
        moves.push(best);
        tally.moves += 1;
    }
    tally.games += 1;
}

#[test]
fn fifty_fast_self_play_games_are_legal_and_on_time() {
    let openings = openings();
    let per_thread = GAMES / THREADS;
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let openings = &openings;
                scope.spawn(move || {
                    let mut engines = [Engine::start(), Engine::start()];
                    for engine in &mut engines {
                        engine.send(&format!(
                            "setoption name Move Overhead value {MOVE_OVERHEAD_MS}"
                        ));
                    }
                    let mut tally = Tally {
                        least_time_left_ms: CLOCK_MS,
                        ..Tally::default()
                    };
                    for g in 0..per_thread {
                        // Each opening twice, colours reversed.
                        let opening = &openings[(t * per_thread + g) / 2 % openings.len()];
                        play_game(&mut engines, opening, (t * per_thread + g) % 2, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let games: usize = tallies.iter().map(|t| t.games).sum();
    assert_eq!(games, GAMES);
    eprintln!("self-play: {tallies:#?}");
}
