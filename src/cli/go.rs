//! `quintessence go [FEN] [depth]`: one search printed plainly, for looking at the search
//! without a GUI.

use clap::Args;
use quintessence::board::START_FEN;
use quintessence::game::Game;
use quintessence::search::{Limits, SearchConfig, SearchControl, Searcher};
use std::io::Write;

/// One search to a fixed depth, printed plainly
#[derive(Debug, Args)]
pub struct GoArgs {
    /// Position [default: the start position]
    pub fen: Option<String>,
    /// Search depth
    #[arg(default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
}

pub fn run(args: &GoArgs) -> Result<(), String> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let game = Game::from_fen(fen).map_err(|e| format!("go: bad FEN: {e}"))?;
    let mut searcher = Searcher::new(64);
    let control = SearchControl::new();
    let mut out = std::io::stdout().lock();
    let result = searcher.search(
        &game,
        &Limits::depth(args.depth),
        &SearchConfig::default(),
        &control,
        &mut |i| {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            let _ = writeln!(
                out,
                "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                i.depth,
                i.seldepth,
                i.score,
                i.nodes,
                i.nps,
                i.time_ms,
                pv.join(" ")
            );
        },
    );
    let _ = writeln!(out, "bestmove {}", result.best);
    Ok(())
}
