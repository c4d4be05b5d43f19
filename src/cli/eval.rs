//! `quintessence eval [FEN]`: the static evaluation broken down by term.

use clap::Args;
use quintessence::attacks::Magic;
use quintessence::board::{Board, START_FEN};
use quintessence::eval::describe;
use std::io::Write;

/// The static evaluation of a position, term by term
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Position [default: the start position]
    pub fen: Option<String>,
}

pub fn run(args: &EvalArgs) -> Result<(), String> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let board = Board::from_fen(fen).map_err(|e| format!("eval: bad FEN: {e}"))?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{}",
        describe::<Magic>(&board, &quintessence::eval::nnue::default_network())
    )
    .and_then(|()| out.flush());
    Ok(())
}
