//! `quintessence bench [depth]`: progress per position on stderr, and the OpenBench line
//! `<nodes> nodes <nps> nps` last on stdout.

use quintessence::search::{SearchConfig, bench};
use std::io::Write;

pub fn run(depth: Option<u32>, config: &SearchConfig) {
    let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
    let count = bench::POSITIONS.len();
    let result = bench::run_with_progress(depth, config, |index, fen, nodes| {
        eprintln!("Position {:>2}/{count} ({fen}): {nodes} nodes", index + 1);
    });
    eprintln!(
        "\n===========================\nDepth           : {depth}\nTotal time (ms) : {}\n\
         Nodes searched  : {}\nNodes/second    : {}",
        result.elapsed_ms,
        result.nodes,
        result.nps()
    );
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{} nodes {} nps", result.nodes, result.nps()).and_then(|()| out.flush());
}
