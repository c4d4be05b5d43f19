//! `quintessence magics`: the magic numbers found by the engine's own finder, as Rust source
//! (`src/attacks/magic_numbers.rs`).

use clap::Args;
use quintessence::attacks::magic_finder;
use std::io::Write;

/// Search magic numbers and print them as Rust source
#[derive(Debug, Args)]
pub struct MagicsArgs {}

pub fn run(_: &MagicsArgs) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(magic_finder::source().as_bytes())
        .and_then(|()| out.flush());
    Ok(())
}
