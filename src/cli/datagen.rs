//! `quintessence datagen`: self-play training data in the packed format; `--convert TEXT --out
//! PACKED` turns text data into it, `--dump PACKED` prints it as text.

use clap::Args;
use quintessence::eval::Evaluator;
use quintessence::eval::nnue::{Network, default_network};
use quintessence::tune::datagen::{self, DatagenConfig};
use quintessence::tune::packed;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Play self-play games and append packed training positions to a file (or convert/print data)
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// Games to play in total (0: until stopped)
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().games)]
    pub games: usize,
    /// Games played at once
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().threads)]
    pub threads: usize,
    /// Each move's search ends after the iteration that passes this many nodes
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().soft_nodes)]
    pub nodes: u64,
    /// ...and at this many in any case [default: 4 x --nodes]
    #[arg(long, value_name = "N")]
    pub hard_nodes: Option<u64>,
    /// Random moves from the start position (this many, or one more in half the games)
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().random_plies)]
    pub random_plies: usize,
    /// Seed of the random openings
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().seed)]
    pub seed: u64,
    /// File the positions are appended to (with --convert: the packed file written)
    #[arg(long, value_name = "PATH", default_value_os_t = DatagenConfig::default().output)]
    pub out: PathBuf,
    /// Evaluation of the searches: nnue or hce [default: nnue with --net, else the engine's]
    #[arg(long, value_name = "EVAL", value_parser = ["nnue", "hce"])]
    pub eval: Option<String>,
    /// Network file for --eval nnue [default: the embedded network]
    #[arg(long, value_name = "PATH")]
    pub net: Option<PathBuf>,
    /// Syzygy folders: games reaching the tables end with the tables' result
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
    /// Instead of playing: convert this text data (`FEN | score | result`) to the packed format,
    /// written to --out
    #[arg(long, value_name = "TEXT", conflicts_with = "dump")]
    pub convert: Option<PathBuf>,
    /// Instead of playing: print this packed data as text
    #[arg(long, value_name = "PACKED")]
    pub dump: Option<PathBuf>,
}

impl DatagenArgs {
    fn config(&self) -> Result<DatagenConfig, String> {
        let network = match &self.net {
            Some(path) => {
                let fail = |e: String| format!("datagen: {}: {e}", path.display());
                let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
                Arc::new(Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?)
            }
            None => default_network(),
        };
        let evaluator = match self.eval.as_deref() {
            Some("hce") => Evaluator::Hce,
            Some(_) => Evaluator::Nnue(network),
            None if self.net.is_some() => Evaluator::Nnue(network),
            None => Evaluator::default(),
        };
        Ok(DatagenConfig {
            games: self.games,
            threads: self.threads,
            soft_nodes: self.nodes,
            hard_nodes: self.hard_nodes.unwrap_or(4 * self.nodes),
            random_plies: self.random_plies,
            seed: self.seed,
            output: self.out.clone(),
            evaluator,
            syzygy_path: self.syzygy.clone(),
            ..DatagenConfig::default()
        })
    }
}

pub fn run(args: &DatagenArgs) -> Result<(), String> {
    if let Some(path) = &args.dump {
        return dump_packed(path);
    }
    if let Some(path) = &args.convert {
        return convert_text(path, &args.out);
    }
    datagen::run(&args.config()?, 50, |line| eprintln!("{line}"))
        .map_err(|e| format!("datagen: {e}"))?;
    Ok(())
}

fn dump_packed(path: &Path) -> Result<(), String> {
    let positions =
        packed::read_all(path).map_err(|e| format!("datagen: {}: {e}", path.display()))?;
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
fn convert_text(input: &Path, output: &Path) -> Result<(), String> {
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
