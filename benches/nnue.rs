//! The network's cost per node with each kernel this CPU runs (plain Rust, AVX2, AVX-512), in
//! one run, so the ratios mean something on a noisy machine: along random games, each move is
//! pushed on the accumulator stack and the new position evaluated, as the search does. Also the
//! cost of a full refresh (an accumulator built from the board).
//!
//! `cargo bench --bench nnue`. Each figure is the best of `NNUE_BENCH_RUNS` runs (default 5),
//! the kernels taking turns within each run.

use quintessence::attacks::Magic;
use quintessence::board::Board;
use quintessence::eval::nnue::{Accumulator, AccumulatorStack, HIDDEN, Kernel, default_network};
use quintessence::movegen::legal_moves;
use quintessence::types::Move;
use std::hint::black_box;
use std::time::Instant;

const GAMES: usize = 200;
const PLIES: usize = 120;

/// Random games from the start position: each a list of the positions it passed through, with
/// the move that led to each (the null move for the first).
fn random_games() -> Vec<Vec<(Board, Move)>> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..GAMES)
        .map(|_| {
            let mut line = vec![(Board::startpos(), Move::NULL)];
            while line.len() <= PLIES {
                let (board, _) = *line.last().unwrap();
                let moves = legal_moves::<Magic>(&board);
                if moves.is_empty() {
                    break;
                }
                let mv = moves
                    .iter()
                    .copied()
                    .nth(next() as usize % moves.len())
                    .unwrap();
                let mut child = board;
                child.play(mv);
                line.push((child, mv));
            }
            line
        })
        .collect()
}

/// Nanoseconds per pushed and evaluated move over all `games`, with `kernel`.
fn incremental(kernel: Kernel, games: &[Vec<(Board, Move)>]) -> f64 {
    let net = default_network().as_ref().clone().with_kernel(kernel);
    let mut stack = AccumulatorStack::new(&net, PLIES + 2);
    let mut moves = 0;
    let start = Instant::now();
    for line in games {
        stack.set_root(&net, &line[0].0);
        for (ply, pair) in line.windows(2).enumerate() {
            let [(parent, _), (child, mv)] = pair else {
                unreachable!("windows of two")
            };
            stack.push(&net, ply, parent, *mv, child);
            black_box(stack.evaluate(&net, child, ply + 1));
            moves += 1;
        }
    }
    start.elapsed().as_nanos() as f64 / moves as f64
}

/// Nanoseconds per accumulator built from the board and evaluated, with `kernel`.
fn refresh(kernel: Kernel, games: &[Vec<(Board, Move)>]) -> f64 {
    let net = default_network().as_ref().clone().with_kernel(kernel);
    let mut count = 0;
    let start = Instant::now();
    for (board, _) in games.iter().flatten() {
        let acc = Accumulator::from_board(&net, black_box(board));
        black_box(acc.evaluate(&net, board));
        count += 1;
    }
    start.elapsed().as_nanos() as f64 / count as f64
}

fn main() {
    let runs: usize = std::env::var("NNUE_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let games = random_games();
    let kernels = Kernel::available();
    let mut best = vec![(f64::MAX, f64::MAX); kernels.len()];
    for _ in 0..runs {
        for (k, &kernel) in kernels.iter().enumerate() {
            best[k].0 = best[k].0.min(incremental(kernel, &games));
            best[k].1 = best[k].1.min(refresh(kernel, &games));
        }
    }
    let positions: usize = games.iter().map(Vec::len).sum();
    println!(
        "network (768->{HIDDEN})x2->1, {positions} positions of {GAMES} random games, best of {runs}"
    );
    println!(
        "{:<8} {:>22} {:>22}",
        "kernel", "push + evaluate (ns)", "refresh + evaluate (ns)"
    );
    for (kernel, (inc, full)) in kernels.iter().zip(&best) {
        println!("{:<8} {inc:>22.1} {full:>22.1}", kernel.name());
    }
}
