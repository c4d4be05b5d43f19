//! `quintessence tbprobe <folders>`: for each FEN on stdin, the tablebase value and distance to
//! zeroing, one line each (`<wdl> <dtz> <best moves>`, or `none`), for checking the prober
//! against another implementation.

use clap::Args;
use quintessence::board::Board;
use quintessence::tablebase::Tablebases;
use std::io::{BufRead, Write};

/// Probe Syzygy tables for each FEN on stdin
///
/// One line per FEN: the value (-2..2), the distance to zeroing and the moves that keep the
/// value, or `none` when the tables do not cover it.
#[derive(Debug, Args)]
pub struct TbprobeArgs {
    /// Table folders, separated by ':' (';' on Windows)
    pub folders: String,
}

pub fn run(args: &TbprobeArgs) -> Result<(), String> {
    let tables = Tablebases::open(&args.folders).map_err(|e| format!("tbprobe: {e}"))?;
    eprintln!("{}", tables.describe());
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let answer = match Board::from_fen(fen) {
            Err(e) => format!("error {e}"),
            Ok(board) => match tables.probe_root(&board) {
                None => "none".to_string(),
                Some(probe) => {
                    let best: Vec<String> = probe
                        .best_moves(true)
                        .iter()
                        .map(|m| m.to_uci(false))
                        .collect();
                    let wdl = tables
                        .probe_wdl(&board)
                        .map_or("?".to_string(), |w| w.signed().to_string());
                    format!("{wdl} {} {}", probe.dtz, best.join(" "))
                }
            },
        };
        if writeln!(out, "{}", answer.trim_end()).is_err() {
            break;
        }
    }
    Ok(())
}
