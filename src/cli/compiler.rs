//! `quintessence compiler`: what a bug report needs (the UCI command of the same name prints the
//! same, for the network in use).

use clap::Args;
use quintessence::build_info;
use quintessence::eval::nnue::default_network;

/// Print the version, commit, compiler, CPU level, network and vector kernel
#[derive(Debug, Args)]
pub struct CompilerArgs {}

pub fn run(_: &CompilerArgs) -> Result<(), String> {
    let mut text = String::new();
    for line in build_info::lines(&default_network(), "embedded") {
        text.push_str(&line);
        text.push('\n');
    }
    super::print_out(&text);
    Ok(())
}
