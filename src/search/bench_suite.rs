//! `bench`: a fixed set of positions searched to a fixed depth. The total node count is the
//! bench signature: it changes exactly when the search's behaviour changes.

use super::{Limits, SearchConfig, SearchControl, Searcher};
use crate::game::Game;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 11;

/// Middlegames, endgames, tactics and a Chess960-style castling case.
pub const POSITIONS: [&str; 24] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 9",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

pub struct BenchResult {
    pub nodes: u64,
    pub elapsed_ms: u64,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.elapsed_ms.max(1)
    }
}

/// Searches every bench position to `depth` with a fresh 16 MB table and one thread.
pub fn run(depth: u32, config: &SearchConfig) -> BenchResult {
    run_with_progress(depth, config, |_, _, _| {})
}

/// [`run`], calling `on_position(index, fen, nodes)` after each position (for progress output).
pub fn run_with_progress(
    depth: u32,
    config: &SearchConfig,
    mut on_position: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let config = SearchConfig {
        threads: 1,
        multipv: 1,
        chess960: true,
        ..config.clone()
    };
    let control = SearchControl::new();
    let start = Instant::now();
    let mut nodes = 0;
    for (index, fen) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(fen).expect("bench positions are valid");
        let mut searcher = Searcher::new(16);
        control.start_next(false);
        let mut last_nodes = 0;
        searcher.search(
            &game,
            &Limits::depth(depth),
            &config,
            &control,
            &mut |info| {
                last_nodes = info.nodes;
            },
        );
        nodes += last_nodes;
        on_position(index, fen, last_nodes);
    }
    BenchResult {
        nodes,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }
}
