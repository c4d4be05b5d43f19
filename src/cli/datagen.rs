//! `quintessence datagen [--games N] [--threads N] [--nodes N] [--hard-nodes N] [--seed N]
//! [--eval nnue|hce] [--net PATH] [--syzygy PATH] [--out PATH]`: self-play training data in
//! the packed format; `--convert TEXT --out PACKED` turns text data into it, `--dump PACKED`
//! prints it as text.

use super::flags::{pairs, value};
use quintessence::eval::Evaluator;
use quintessence::eval::nnue::{Network, default_network};
use quintessence::tune::datagen::{self, DatagenConfig};
use quintessence::tune::packed;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::Arc;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut config = DatagenConfig::default();
    let (mut convert, mut dump) = (None, None);
    let (mut eval, mut net) = (None, None);
    let mut hard_nodes = None;
    for (flag, text) in pairs("datagen", args)? {
        match flag {
            "--games" => config.games = value("datagen", flag, text)?,
            "--threads" => config.threads = value("datagen", flag, text)?,
            "--nodes" => config.soft_nodes = value("datagen", flag, text)?,
            "--hard-nodes" => hard_nodes = Some(value("datagen", flag, text)?),
            "--random-plies" => config.random_plies = value("datagen", flag, text)?,
            "--seed" => config.seed = value("datagen", flag, text)?,
            "--out" => config.output = text.into(),
            "--eval" => eval = Some(text.to_string()),
            "--net" => net = Some(text.to_string()),
            "--syzygy" => config.syzygy_path = Some(text.to_string()),
            "--convert" => convert = Some(text.to_string()),
            "--dump" => dump = Some(text.to_string()),
            other => return Err(format!("datagen: unknown option {other}")),
        }
    }
    if let Some(path) = dump {
        return dump_packed(&path);
    }
    if let Some(path) = convert {
        return convert_text(&path, &config.output);
    }
    config.hard_nodes = hard_nodes.unwrap_or(4 * config.soft_nodes);
    let network = match &net {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("datagen: {path}: {e}"))?;
            Arc::new(Network::from_bytes(&bytes).map_err(|e| format!("datagen: {path}: {e}"))?)
        }
        None => default_network(),
    };
    config.evaluator = match eval.as_deref() {
        Some("hce") => Evaluator::Hce,
        Some("nnue") => Evaluator::Nnue(network),
        None if net.is_some() => Evaluator::Nnue(network),
        None => Evaluator::default(),
        Some(other) => return Err(format!("datagen: --eval {other}: expected nnue or hce")),
    };
    datagen::run(&config, 50, |line| eprintln!("{line}")).map_err(|e| format!("datagen: {e}"))?;
    Ok(())
}

fn dump_packed(path: &str) -> Result<(), String> {
    let positions = packed::read_all(path.as_ref()).map_err(|e| format!("datagen: {path}: {e}"))?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for pos in &positions {
        if writeln!(out, "{}", packed::describe(pos)).is_err() {
            break;
        }
    }
    Ok(())
}

/// Text lines (`FEN | score | result`, White's view) to packed records. Such text was filtered
/// when it was written, so the records say their flags are unknown.
fn convert_text(input: &str, output: &std::path::Path) -> Result<(), String> {
    let err = |e: std::io::Error| format!("datagen: {e}");
    let reader = BufReader::new(std::fs::File::open(input).map_err(err)?);
    let mut out = BufWriter::new(std::fs::File::create(output).map_err(err)?);
    let (mut written, mut skipped) = (0u64, 0u64);
    for line in reader.lines() {
        let line = line.map_err(err)?;
        match quintessence::tune::Sample::parse(&line).and_then(|s| {
            let board = quintessence::Board::from_fen(&s.fen).map_err(|e| e.to_string())?;
            let score = s.score * board.side_to_move().sign();
            Ok(packed::pack(
                &board,
                score,
                s.result as f32,
                packed::FLAGS_UNKNOWN,
            ))
        }) {
            Ok(pos) => {
                packed::write_all(&mut out, &[pos]).map_err(err)?;
                written += 1;
            }
            Err(_) => skipped += 1,
        }
    }
    out.flush().map_err(err)?;
    eprintln!("converted {written} positions ({skipped} lines skipped)");
    Ok(())
}
