//! Helpers shared by the integration tests.
#![allow(dead_code)]

mod data;
pub use data::test_data;

/// One line of a perft EPD: `FEN ;D1 n1 ;D2 n2 ...`.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn load_epd(rel: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(test_data(rel)).expect("readable EPD");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let depth = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let nodes = it.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}

/// The deepest published (depth, count) of a case with at most `max_nodes` nodes.
pub fn deepest_within(case: &PerftCase, max_nodes: u64) -> (u32, u64) {
    case.counts
        .iter()
        .copied()
        .filter(|&(_, n)| n <= max_nodes)
        .max_by_key(|&(d, _)| d)
        .unwrap_or(case.counts[0])
}

// Not every test crate that shares this module draws random numbers.
#[allow(unused_imports)]
pub use quintessence::types::Rng;
