//! `quintessence perft`: node counts per root move and in total, with the speed.

use clap::Args;
use quintessence::attacks::{Backend, SliderAttacks};
use quintessence::board::{Board, START_FEN};
use quintessence::perft::divide;
use quintessence::with_backend;
use std::io::Write;
use std::time::Instant;

/// Count the leaf nodes of the move tree (per root move, then the total)
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to count
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    /// Position [default: the start position]; standard, X-FEN and Shredder-FEN castling
    /// fields are accepted
    #[arg(long)]
    pub fen: Option<String>,
    /// Sliding-attack back-end [default: the fastest on this CPU]
    #[arg(long, value_name = "NAME", value_parser = Backend::parse)]
    pub attacks: Option<Backend>,
    /// Write castling as king-takes-rook (e1h1)
    #[arg(long)]
    pub chess960: bool,
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let board = Board::from_fen(fen).map_err(|e| format!("perft: bad FEN: {e}"))?;
    let backend = args.attacks.unwrap_or_else(Backend::fastest);
    let depth = args.depth;
    let start = Instant::now();
    let counts = with_backend!(backend, A => {
        divide::<A>(&board.with_occupancy::<<A as SliderAttacks>::Occ>(), depth)
    });
    let seconds = start.elapsed().as_secs_f64();
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    let mut out = std::io::stdout().lock();
    let mut text = String::new();
    for (mv, count) in &counts {
        text.push_str(&format!("{}: {count}\n", mv.to_uci(args.chess960)));
    }
    text.push_str(&format!(
        "\nNodes searched: {total}\nTime: {:.3} s ({backend})\nNodes/second: {:.0}\n",
        seconds,
        total as f64 / seconds.max(1e-9)
    ));
    // A closed stdout (`| head`) is not an error worth a message.
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}
