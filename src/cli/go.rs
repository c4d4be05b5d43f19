//! `quintessence go [FEN] [depth]`: one search printed plainly, for looking at the search
//! without a GUI.

use quintessence::board::START_FEN;
use quintessence::game::Game;
use quintessence::search::{Limits, SearchConfig, SearchControl, Searcher};
use std::io::Write;

pub fn run(fen: Option<&str>, depth: u32) -> Result<(), String> {
    let game = Game::from_fen(fen.unwrap_or(START_FEN)).map_err(|e| format!("go: bad FEN: {e}"))?;
    let mut searcher = Searcher::new(64);
    let control = SearchControl::new();
    let mut out = std::io::stdout().lock();
    let result = searcher.search(
        &game,
        &Limits::depth(depth),
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
