//! `quintessence datagen [--games N] [--threads N] [--nodes N] [--seed N] [--out PATH]`:
//! self-play training data; `--convert TEXT --out PACKED` turns text data into the packed
//! format, `--dump PACKED` prints packed data as text.

use super::flags::{pairs, value};
use quintessence::tune::datagen::{self, DatagenConfig};
use quintessence::tune::packed;
use std::io::{BufRead, BufReader, BufWriter, Write};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut config = DatagenConfig::default();
    let (mut convert, mut dump) = (None, None);
    for (flag, text) in pairs("datagen", args)? {
        match flag {
            "--games" => config.games = value("datagen", flag, text)?,
            "--threads" => config.threads = value("datagen", flag, text)?,
            "--nodes" => config.nodes = value("datagen", flag, text)?,
            "--seed" => config.seed = value("datagen", flag, text)?,
            "--out" => config.output = text.into(),
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
    let written = datagen::run(&config).map_err(|e| format!("datagen: {e}"))?;
    eprintln!("wrote {written} positions");
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
