//! Tens of thousands of random and mutated lines, invalid UTF-8 included: the engine must stay
//! alive, write only protocol lines, and still play a legal move afterwards.
//!
//! Lines that legitimately end the engine or start work that cannot be stopped (`quit`,
//! `perft`, `bench`) or that allocate a lot or write files (`Hash`, `Threads`, the debug log)
//! are left out. Set QUINTESSENCE_FUZZ_SEED to replay another sequence.

use crate::chess::{after, play};
use crate::harness::{Engine, SOON};
use std::time::{Duration, Instant};

const LINES: usize = 30_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
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
            .map(|_| rng.next() as u8)
            .filter(|&b| b != b'\n')
            .collect(),
        // Random words.
        2 | 3 => (0..1 + rng.below(12))
            .map(|_| rng.pick(VOCABULARY))
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes(),
        // A valid line, mutated.
        _ => {
            let seed = rng.pick(SEEDS);
            let mut words: Vec<String> = seed.split(' ').map(String::from).collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(words.len());
                match rng.below(7) {
                    0 if words.len() > 1 => {
                        words.remove(at);
                    }
                    1 => words.insert(at, rng.pick(VOCABULARY).to_string()),
                    2 => {
                        let other = rng.below(words.len());
                        words.swap(at, other);
                    }
                    3 => words[at] = format!("{}", rng.next() as i64 % 100_000),
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
    let mut rng = Rng(seed | 1);
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
