//! Perft speed of every attack back-end beside cozy-chess and shakmaty, in one run, so the
//! ratio means something on a noisy machine. Bulk counting at the last ply everywhere.
//!
//! `cargo bench --bench perft` (or scripts/perft-bench). Each figure is the best of
//! `PERFT_BENCH_RUNS` runs (default 5).

use quintessence::attacks::{Backend, SliderAttacks};
use quintessence::board::Board;
use quintessence::perft::{perft, perft_directional};
use quintessence::with_backend;
use std::time::Instant;

const POSITIONS: [(&str, &str, u32); 2] = [
    (
        "startpos d6",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete d5",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
];

/// Best nodes/second over `runs` runs of `f`, which returns the node count.
fn measure(runs: usize, mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let start = Instant::now();
        nodes = f();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (nodes, nodes as f64 / best / 1e6)
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn ours<A: SliderAttacks>(fen: &str, depth: u32, directional: bool) -> impl FnMut() -> u64 {
    let board = Board::from_fen(fen).unwrap().with_occupancy::<A::Occ>();
    move || {
        if directional {
            perft_directional::<A>(&board, depth)
        } else {
            perft::<A>(&board, depth)
        }
    }
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let runs: usize = std::env::var("PERFT_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    println!(
        "CPU: {} | best of {runs} runs | Mnps (million nodes per second)",
        cpu_name()
    );
    println!();
    print!("{:<28}", "");
    for (name, _, _) in POSITIONS {
        print!("{name:>14}");
    }
    println!();

    let mut results: Vec<(String, Vec<f64>)> = Vec::new();
    let mut row = |label: String, f: &mut dyn FnMut(&str, u32) -> (u64, f64)| {
        print!("{label:<28}");
        let mut speeds = Vec::new();
        for (_, fen, depth) in POSITIONS {
            let (_, mnps) = f(fen, depth);
            print!("{mnps:>14.1}");
            speeds.push(mnps);
        }
        println!();
        results.push((label, speeds));
    };

    for backend in Backend::available() {
        for directional in [false, true] {
            let style = if directional {
                "direction-wise"
            } else {
                "piece-wise"
            };
            row(
                format!("{backend} {style}"),
                &mut |fen, depth| with_backend!(backend, A => measure(runs, ours::<A>(fen, depth, directional))),
            );
        }
    }
    row("cozy-chess 0.3".into(), &mut |fen, depth| {
        let board = cozy_chess::Board::from_fen(fen, false).unwrap();
        measure(runs, || cozy_perft(&board, depth))
    });
    row("shakmaty 0.30".into(), &mut |fen, depth| {
        use shakmaty::{CastlingMode, Chess, fen::Fen};
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        measure(runs, || shakmaty::perft(&pos, depth))
    });

    let default = format!("{} piece-wise", Backend::fastest());
    let speeds = |label: &str| &results.iter().find(|(l, _)| l == label).unwrap().1;
    let ours = speeds(&default);
    let cozy = speeds("cozy-chess 0.3");
    let shakmaty = speeds("shakmaty 0.30");
    println!();
    for (i, (name, _, _)) in POSITIONS.iter().enumerate() {
        let peer = cozy[i].max(shakmaty[i]);
        println!(
            "{name}: default ({default}) {:.1} Mnps = {:.2}x the faster peer ({peer:.1} Mnps)",
            ours[i],
            ours[i] / peer
        );
    }
}
