//! `quintessence eval [FEN]`: the static evaluation broken down by term.

use quintessence::attacks::Magic;
use quintessence::board::{Board, START_FEN};
use quintessence::eval::describe;
use std::io::Write;

pub fn run(fen: Option<&str>) -> Result<(), String> {
    let board =
        Board::from_fen(fen.unwrap_or(START_FEN)).map_err(|e| format!("eval: bad FEN: {e}"))?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{}",
        describe::<Magic>(&board, &quintessence::eval::nnue::default_network())
    )
    .and_then(|()| out.flush());
    Ok(())
}
