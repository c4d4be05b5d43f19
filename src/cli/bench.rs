//! `quintessence bench [depth]`: progress per position on stderr, and the OpenBench line
//! `<nodes> nodes <nps> nps` last on stdout.

use clap::Args;
use quintessence::search::{SearchConfig, bench_suite};
use std::io::Write;

/// Search the fixed bench positions (the bench signature)
///
/// One thread and a fresh 16 MB table; progress on stderr, and last on stdout the OpenBench line
/// `<nodes> nodes <nps> nps`, the node count being the bench signature.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth
    #[arg(default_value_t = bench_suite::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
}

pub fn run(args: &BenchArgs, config: &SearchConfig) -> Result<(), String> {
    let depth = args.depth;
    let count = bench_suite::POSITIONS.len();
    let result = bench_suite::run_with_progress(depth, config, |index, fen, nodes| {
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
    Ok(())
}
