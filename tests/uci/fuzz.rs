//! Tens of thousands of random and mutated lines, invalid UTF-8 included: the engine must stay
//! alive, write only protocol lines, and still play a legal move afterwards.
//!
//! Lines that legitimately end the engine or start work that cannot be stopped (`quit`,
//! `perft`, `bench`) or that allocate a lot or write files (`Hash`, `Threads`, the debug log)
//! are left out there; bursts of hostile but well-formed input (impossible FENs, 218-move
//! positions, counters at their limits, `Threads` up to 256, `Hash` at its cap) check that every
//! `go` gets exactly one legal `bestmove` for its own position, and injected panics that even
//! then it does. Set QUINTESSENCE_FUZZ_SEED to replay another sequence.

use crate::chess::{after, fen_of, play, position};
use crate::harness::{Engine, SOON};
use quintessence::types::Rng;
use shakmaty::{Chess, Position};
use std::time::{Duration, Instant};

const LINES: usize = 30_000;

/// One of `items`, at random.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

const SEEDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
    "position fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1 e8d8",
    "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "position fen 8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q",
    "go depth 2",
    "go movetime 5",
    "go wtime 100 btime 100 winc 5 binc 5",
    "go wtime 50 btime 50 movestogo 3",
    "go ponder wtime 100 btime 100 winc 1 binc 1",
    "go infinite",
    "go nodes 300",
    "go mate 2 depth 3",
    "go searchmoves e2e4 d2d4 depth 2",
    "go",
    "stop",
    "ponderhit",
    "setoption name MultiPV value 2",
    "setoption name UCI_Chess960 value true",
    "setoption name UCI_Chess960 value false",
    "setoption name UCI_ShowWDL value true",
    "setoption name Ponder value true",
    "setoption name Move Overhead value 20",
    "setoption name Attacks value magic",
    "setoption name Attacks value kogge-stone",
    "debug on",
    "debug off",
    "register later",
    "d",
    "eval",
];

const VOCABULARY: &[&str] = &[
    "go",
    "position",
    "startpos",
    "fen",
    "moves",
    "setoption",
    "name",
    "value",
    "depth",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "stop",
    "isready",
    "uci",
    "debug",
    "on",
    "off",
    "e2e4",
    "e7e5",
    "e1g1",
    "e1h1",
    "a7a8q",
    "0000",
    "-1",
    "0",
    "1",
    "300",
    "-999999999999",
    "99999999999999999999999",
    "KQkq",
    "HFhf",
    "-",
    "w",
    "b",
    "8/8/8/8/8/8/8/8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "MultiPV",
    "UCI_Chess960",
    "Ponder",
    "Move",
    "Overhead",
    "\t",
    "  ",
    "\u{fffd}",
    "é",
    "🙂",
];

const FORBIDDEN: &[&str] = &["quit", "perft", "bench", "hash", "thread", "log"];

fn random_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        // Random bytes, any but the line end.
        0 | 1 => (0..rng.below(80))
            .map(|_| rng.next_u64() as u8)
            .filter(|&b| b != b'\n')
            .collect(),
        // Random words.
        2 | 3 => (0..1 + rng.below(12))
            .map(|_| pick(rng, VOCABULARY))
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes(),
        // A valid line, mutated.
        _ => {
            let seed = pick(rng, SEEDS);
            let mut words: Vec<String> = seed.split(' ').map(String::from).collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(words.len());
                match rng.below(7) {
                    0 if words.len() > 1 => {
                        words.remove(at);
                    }
                    1 => words.insert(at, pick(rng, VOCABULARY).to_string()),
                    2 => {
                        let other = rng.below(words.len());
                        words.swap(at, other);
                    }
                    3 => words[at] = format!("{}", rng.next_u64() as i64 % 100_000),
                    4 => words.truncate(at.max(1)),
                    _ => {}
                }
            }
            let mut bytes = words.join(" ").into_bytes();
            match rng.below(5) {
                0 if !bytes.is_empty() => {
                    let at = rng.below(bytes.len());
                    bytes[at] ^= 1 << rng.below(8);
                }
                1 => {
                    let at = rng.below(bytes.len() + 1);
                    let junk: &[u8] =
                        [&b"\xff"[..], b"\xc3\x28", b"\xe2\x82", b"\r", b"\x00"][rng.below(5)];
                    bytes.splice(at..at, junk.iter().copied());
                }
                _ => {}
            }
            bytes.retain(|&b| b != b'\n');
            bytes
        }
    }
}

fn allowed_output(line: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "id name ",
        "id author ",
        "option name ",
        "uciok",
        "readyok",
        "info ",
        "bestmove ",
        " +---",
        " | ",
        "   a   b",
        "Fen: ",
        "Key: ",
        "evaluation: ",
        "network: ",
        "phase ",
    ];
    // `eval` prints a table: a term name, then middlegame and endgame values.
    let table_row = || {
        let last: Vec<&str> = line.split_whitespace().rev().take(2).collect();
        last.len() == 2 && (last.iter().all(|w| w.parse::<i32>().is_ok()) || last == ["eg", "mg"])
    };
    line.is_empty() || PREFIXES.iter().any(|p| line.starts_with(p)) || table_row()
}

#[test]
fn fuzzed_input_never_breaks_the_engine() {
    let seed = std::env::var("QUINTESSENCE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_CAFE_F00D_u64);
    let mut rng = Rng::new(seed);
    let mut engine = Engine::start();
    let mut sent = 0;
    let mut batch = Vec::new();
    while sent < LINES {
        let line = random_line(&mut rng);
        let lower = String::from_utf8_lossy(&line).to_lowercase();
        if FORBIDDEN.iter().any(|w| lower.contains(w)) {
            continue;
        }
        batch.extend_from_slice(&line);
        batch.push(b'\n');
        sent += 1;
        if sent % 500 == 0 {
            engine.send_bytes(&batch);
            batch.clear();
            // Still alive and answering?
            engine.send("isready");
            engine.until(SOON, |l| l == "readyok");
        }
    }
    engine.send_bytes(&batch);
    engine.send("stop");
    // Let every queued job finish: wait for the output to go quiet.
    let deadline = Instant::now() + SOON;
    while !engine.quiet_for(Duration::from_millis(500)).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the engine never went quiet (seed {seed})"
        );
    }
    let count = |prefix: &str| {
        engine
            .transcript
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    };
    eprintln!(
        "fuzz (seed {seed}): {LINES} lines sent; {} info strings, {} bestmoves, {} output lines",
        count("info string"),
        count("bestmove"),
        engine.transcript.len()
    );
    let bad: Vec<&String> = engine
        .transcript
        .iter()
        .filter(|l| !allowed_output(l))
        .collect();
    assert!(
        bad.is_empty(),
        "non-protocol output (seed {seed}): {bad:#?}"
    );

    engine.send("setoption name UCI_Chess960 value false");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 2");
    let (_, best, ponder) = engine.bestmove(SOON);
    let pos = play(&after(&["e2e4", "e7e5"]), &best)
        .unwrap_or_else(|e| panic!("after fuzzing (seed {seed}): {e}"));
    if let Some(p) = ponder {
        play(&pos, &p).unwrap();
    }
}

/// Positions the engine must accept: many moves, counters at their limits, the 50-move edge.
const POSSIBLE: &[&str] = &[
    "startpos",
    "startpos moves e2e4 c7c5 g1f3",
    // 218 legal moves, the most a game can reach.
    "fen R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "fen R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1 moves h8h7",
    "fen 4k3/8/8/8/8/8/8/4K2R w K - 65535 65535 moves e1g1 e8d8 f1f2",
    "fen 4k3/8/8/8/8/8/8/4K2R b K - 65535 65535 moves e8d7",
    "fen 8/8/8/4k3/8/8/4K3/4R3 w - - 99 65535",
    "fen 8/P7/8/8/8/8/8/k6K w - - 100 1 moves a7a8q",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

/// FENs no game can reach: each refused with an `info string`, the position kept.
const IMPOSSIBLE: &[&str] = &[
    "fen QQQQQQnk/Q4Q1P/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1 moves a1a2",
    "fen QQQQQQnk/Q4Q1P/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
    "fen QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1",
    "fen 4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
    "fen 4k3/8/8/8/8/NNN5/PPPPPPPP/4K3 w - - 0 1",
    "fen 4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
    "fen 4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
    "fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
];

/// The position a `position` line sets up.
fn set_up(line: &str) -> Chess {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let start = match words[0] {
        "startpos" => Chess::default(),
        _ => position(&words[1..at].join(" "), false),
    };
    words[at..]
        .iter()
        .skip(1)
        .fold(start, |pos, mv| play(&pos, mv).unwrap())
}

/// One burst: lines to send, and the position of each `go` among them, in order.
fn burst(rng: &mut Rng, current: &mut Chess, threads: &mut u32) -> (Vec<String>, Vec<Chess>) {
    let mut lines = Vec::new();
    let mut gos = Vec::new();
    for _ in 0..4 + rng.below(12) {
        match rng.below(12) {
            0 | 1 => {
                let line = pick(rng, POSSIBLE);
                *current = set_up(line);
                lines.push(format!("position {line}"));
            }
            2 => lines.push(format!("position {}", pick(rng, IMPOSSIBLE))),
            3 => {
                // Few threads mostly; many only now and then, as each go spawns them.
                *threads = match rng.below(10) {
                    0 => 256,
                    1 => 64,
                    2 => 300,
                    n => n as u32 % 4 + 1,
                };
                lines.push(format!("setoption name Threads value {threads}"));
            }
            4 => {
                // At and past the cap (half the memory, 12 GB on a 24 GB machine): replaced by a
                // small table before anything allocates it (`go`, `isready`, `ucinewgame`).
                let big = pick(rng, &["65536", "65535", "65537", "99999999999999999999"]);
                let between = pick(rng, &["stop", "ponderhit", "position startpos", "debug on"]);
                if between == "position startpos" {
                    *current = Chess::default();
                }
                lines.push(format!("setoption name Hash value {big}"));
                lines.push(between.to_string());
                lines.push(format!("setoption name Hash value {}", 1 + rng.below(64)));
            }
            5 => lines.push(pick(rng, &["stop", "isready", "ucinewgame", "ponderhit"]).to_string()),
            6 => lines.push(format!("go perft {}", 1 + rng.below(2))),
            _ => {
                // Hundreds of threads take seconds to start and stop on two cores (for now).
                let go = if *threads > 64 {
                    "go depth 1"
                } else if *threads > 8 {
                    pick(rng, &["go depth 1", "go movetime 2", "go infinite"])
                } else {
                    pick(
                        rng,
                        &[
                            "go depth 1",
                            "go depth 3",
                            "go movetime 5",
                            "go nodes 2000",
                            "go wtime 30 btime 30",
                            "go wtime 1 btime 1 winc 0 binc 0",
                            "go infinite",
                            "go ponder wtime 100 btime 100",
                        ],
                    )
                };
                lines.push(go.to_string());
                gos.push(current.clone());
            }
        }
    }
    (lines, gos)
}

#[test]
fn bursts_of_hostile_input_answer_every_go_with_one_legal_move() {
    let seed = std::env::var("QUINTESSENCE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xB0257_u64);
    let mut rng = Rng::new(seed);
    let mut engine = Engine::start();
    let mut current = Chess::default();
    let mut threads = 1;
    let (mut gos, mut refused, mut crowded) = (0, 0, 0);
    for round in 0..30 {
        let (lines, positions) = burst(&mut rng, &mut current, &mut threads);
        refused += lines
            .iter()
            .filter(|l| IMPOSSIBLE.iter().any(|f| l.ends_with(f)))
            .count();
        let mut text = lines.join("\n");
        // A search left running (infinite, ponder) ends with this `stop`; many threads stay
        // for one burst only, each search spawning them.
        text.push_str("\nstop\nsetoption name Threads value 1\n");
        threads = 1;
        engine.send_bytes(text.as_bytes());
        let what = || format!("seed {seed}, burst {round}:\n{}", lines.join("\n"));
        // Hundreds of threads on two cores take seconds to start and end (for now).
        let many_threads = lines.iter().any(|l| {
            l.strip_prefix("setoption name Threads value ")
                .is_some_and(|n| n.parse::<u32>().unwrap() > 64)
        });
        crowded += usize::from(many_threads);
        let patience = if many_threads {
            Duration::from_secs(120)
        } else {
            SOON
        };
        let mut answered = 0;
        while answered < positions.len() {
            let (_, best, _) = engine.bestmove(patience);
            let pos = &positions[answered];
            // `0000` exactly when there is no move (the 218-move position after h8h7 is stalemate).
            if best != "0000" || !pos.legal_moves().is_empty() {
                play(pos, &best).unwrap_or_else(|e| {
                    panic!("{e}: bestmove {best} in {} ({})", fen_of(pos), what())
                });
            }
            answered += 1;
        }
        gos += answered;
        // No second answer to any of them.
        let extra = engine.sync();
        assert!(
            !extra.iter().any(|l| l.starts_with("bestmove")),
            "a bestmove too many ({}): {extra:#?}",
            what()
        );
    }
    let refusals = engine
        .transcript
        .iter()
        .filter(|l| l.starts_with("info string") && l.contains("illegal position"))
        .count();
    eprintln!(
        "bursts (seed {seed}): {gos} searches, {refused} impossible FENs, {crowded} bursts with Threads 256"
    );
    assert_eq!(refusals, refused, "each impossible FEN is refused once");
    assert!(
        gos > 100 && refused > 10 && crowded > 0,
        "only {gos} searches, {refused} impossible FENs, {crowded} bursts with Threads 256"
    );
}

#[test]
fn a_panic_anywhere_still_ends_every_go_with_one_legal_bestmove() {
    let mut engine = Engine::start_env(
        &[],
        &[
            ("QUINTESSENCE_TEST_PANIC", "search,answer,perft"),
            ("RUST_LOG", "off"),
        ],
        "panics",
    );
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    for (threads, setup, go) in [
        (1, "startpos moves e2e4", "go depth 2"),
        (
            3,
            "fen R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
            "go movetime 5",
        ),
        (1, "startpos", "go infinite"),
        (2, "startpos moves d2d4", "go ponder wtime 100 btime 100"),
    ] {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(&format!("position {setup}"));
        engine.send("go perft 1");
        engine.send(go);
        engine.send("stop");
        let (lines, best, _) = engine.bestmove(SOON);
        play(&set_up(setup), &best).unwrap_or_else(|e| panic!("{e} after {setup}, {go}"));
        assert!(
            lines.iter().any(|l| l.contains("internal error")),
            "the panics are reported: {lines:#?}"
        );
        let extra = engine.sync();
        assert!(
            !extra.iter().any(|l| l.starts_with("bestmove")),
            "{extra:#?}"
        );
    }
    engine.send(&format!("position fen {mated}"));
    engine.send("go depth 1");
    assert_eq!(engine.bestmove(SOON).1, "0000");
    let stderr = engine.stderr();
    for step in ["search", "answer", "perft"] {
        assert!(
            stderr.contains(&format!("injected panic in '{step}'")),
            "the panic in '{step}' is on stderr with the log off: {stderr}"
        );
    }
}
