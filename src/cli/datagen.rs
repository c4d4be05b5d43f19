//! `quintessence datagen`: self-play games into compressed, checksummed chunks under
//! `data/selfplay/` (`--verify` checks them against the manifest); `--convert TEXT --out
//! PACKED` turns text data into the packed format, `--dump FILE` prints a packed file or a
//! chunk as text; `--from-pgn PATH` turns OpenBench data-generation PGNs into chunks.

use clap::Args;
use quintessence::eval::Evaluator;
use quintessence::eval::nnue::{Network, default_network, default_network_bytes};
use quintessence::train::chunks::{self, ChunkWriter, Provenance};
use quintessence::train::packed;
use quintessence::train::pgn::import::PgnImport;
use quintessence::train::records;
use quintessence::train::selfplay::{self, DatagenConfig};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Play self-play games into training-data chunks (or verify, convert or print data)
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// Games to play in total, an equal share per thread (0: until stopped by Ctrl-C or
    /// SIGTERM, which close the chunks in progress with their whole games)
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().games)]
    pub games: usize,
    /// Games played at once; each thread writes its own chunks
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().threads)]
    pub threads: usize,
    /// Each move's search ends after the iteration that passes this many nodes
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().soft_nodes)]
    pub nodes: u64,
    /// ...and at this many in any case [default: 4 x --nodes]
    #[arg(long, value_name = "N")]
    pub hard_nodes: Option<u64>,
    /// Random moves from the start position (this many, or one more in half the games; 0: none)
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().random_plies)]
    pub random_plies: usize,
    /// Per cent of the games that start from a random double Fischer random position
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().dfrc_percent,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub dfrc_percent: u32,
    /// Each thread's transposition table, MB
    #[arg(long, value_name = "MB", default_value_t = DatagenConfig::default().hash_mb as u64,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Seed of the openings; chunks are named by seed, thread and number [default: from the
    /// clock, so two runs never write the same chunk]
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Folder of the chunks and their manifest.toml
    #[arg(long, value_name = "DIR", default_value_os_t = DatagenConfig::default().dir)]
    pub dir: PathBuf,
    /// A thread starts a new chunk after this many positions
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().chunk_positions)]
    pub chunk_positions: u64,
    /// Evaluation of the searches: nnue or hce [default: nnue with --net, else the engine's]
    #[arg(long, value_name = "EVAL", value_parser = ["nnue", "hce"])]
    pub eval: Option<String>,
    /// Network file for --eval nnue [default: the embedded network]
    #[arg(long, value_name = "PATH")]
    pub net: Option<PathBuf>,
    /// Syzygy folders: games reaching the tables end with the tables' result
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
    /// Per cent of the games reaching the tables that play on past the hit (up to 40 plies,
    /// every position labelled with the tables' result), so 3-4-piece endings are in the data
    #[arg(long, value_name = "N", default_value_t = DatagenConfig::default().tb_playout_percent,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub tb_playout_percent: u32,
    /// Instead of playing: check every chunk in DIR against its manifest
    #[arg(long, value_name = "DIR", conflicts_with_all = ["convert", "dump"])]
    pub verify: Option<PathBuf>,
    /// Instead of playing: copy the chunks of another run's folder (its manifest.toml beside
    /// them) into --dir, each verified first, and list them in --dir's manifest
    #[arg(long, value_name = "DIR", conflicts_with_all = ["verify", "convert", "dump"])]
    pub import: Option<PathBuf>,
    /// Instead of playing: convert this text data (`FEN | score | result`) to the packed format,
    /// written to --out
    #[arg(long, value_name = "TEXT", conflicts_with = "dump", requires = "out")]
    pub convert: Option<PathBuf>,
    /// The packed file --convert writes
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Instead of playing: rebuild the games of a packed file that datagen wrote (its format
    /// before chunks) into chunks in --dir; the other options say how the games were played
    #[arg(long, value_name = "PACKED", conflicts_with_all = ["convert", "dump"])]
    pub import_packed: Option<PathBuf>,
    /// Instead of playing: print this packed file or chunk as text
    #[arg(long, value_name = "FILE")]
    pub dump: Option<PathBuf>,
    /// Instead of playing: the games of OpenBench data-generation PGNs (a .pgn, a .pgn.bz2, the
    /// server's .tar of them, or a folder) into chunks in --dir; a game with an illegal move, a
    /// bad tag or a move without a score is refused whole, by number
    #[arg(long, value_name = "PATH",
          conflicts_with_all = ["verify", "import", "convert", "dump", "import_packed"])]
    pub from_pgn: Option<PathBuf>,
    /// The workload --from-pgn names in the manifest [default: the input's file name up to its
    /// first '.', e.g. 42 for 42.pgn.tar]
    #[arg(long, value_name = "NAME", requires = "from_pgn")]
    pub workload: Option<String>,
}

impl DatagenArgs {
    /// --seed, or the clock's milliseconds.
    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(1, |d| d.as_secs() * 1000 + u64::from(d.subsec_millis()))
        })
    }

    fn config(&self) -> Result<DatagenConfig, String> {
        let (network, bytes, source) = match &self.net {
            Some(path) => {
                let fail = |e: String| format!("datagen: {}: {e}", path.display());
                let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
                let net = Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
                (Arc::new(net), bytes, path.display().to_string())
            }
            None => (
                default_network(),
                default_network_bytes().to_vec(),
                "embedded".to_string(),
            ),
        };
        let evaluator = match self.eval.as_deref() {
            Some("hce") => Evaluator::Hce,
            Some(_) => Evaluator::Nnue(network),
            None if self.net.is_some() => Evaluator::Nnue(network),
            None => Evaluator::default(),
        };
        let network = match evaluator {
            Evaluator::Hce => "hce".to_string(),
            Evaluator::Nnue(_) => format!("{} ({source})", &chunks::sha256_hex(&bytes)[..16]),
        };
        let seed = self.seed();
        Ok(DatagenConfig {
            games: self.games,
            threads: self.threads,
            soft_nodes: self.nodes,
            hard_nodes: self.hard_nodes.unwrap_or(4 * self.nodes),
            random_plies: self.random_plies,
            dfrc_percent: self.dfrc_percent,
            hash_mb: self.hash as usize,
            seed,
            dir: self.dir.clone(),
            chunk_positions: self.chunk_positions.max(1),
            evaluator,
            network,
            syzygy_path: self.syzygy.clone(),
            tb_playout_percent: self.tb_playout_percent,
            ..DatagenConfig::default()
        })
    }
}

pub fn run(args: &DatagenArgs) -> Result<(), String> {
    if let Some(dir) = &args.verify {
        return verify(dir);
    }
    if let Some(from) = &args.import {
        let mut skipped = 0;
        let totals = chunks::import(from, &args.dir, |problem| {
            skipped += 1;
            eprintln!("datagen: skipped {problem}");
        })
        .map_err(|e| format!("datagen: {e}"))?;
        super::print_out(&format!("imported {totals} ({skipped} skipped)\n"));
        return Ok(());
    }
    if let Some(path) = &args.dump {
        return dump(path);
    }
    if let (Some(input), Some(output)) = (&args.convert, &args.out) {
        return convert_text(input, output);
    }
    if let Some(path) = &args.import_packed {
        return import_packed(path, &args.config()?);
    }
    if let Some(path) = &args.from_pgn {
        return from_pgn(path, args);
    }
    let config = args.config()?;
    static STOP: AtomicBool = AtomicBool::new(false);
    ctrlc::set_handler(|| {
        eprintln!("datagen: stopping: closing the chunks in progress");
        STOP.store(true, Ordering::Relaxed);
    })
    .map_err(|e| format!("datagen: {e}"))?;
    eprintln!(
        "datagen: seed {}, {} thread(s), network {}, into {}",
        config.seed,
        config.threads,
        config.network,
        config.dir.display()
    );
    selfplay::run(&config, 50, &STOP, |line| eprintln!("{line}"))
        .map_err(|e| format!("datagen: {e}"))?;
    Ok(())
}

fn verify(dir: &Path) -> Result<(), String> {
    let mut problems = 0;
    let totals = chunks::verify(dir, |problem| {
        problems += 1;
        super::print_out(&format!("{problem}\n"));
    })
    .map_err(|e| format!("datagen: {e}"))?;
    super::print_out(&format!("{totals}\n"));
    if problems > 0 {
        return Err(format!("datagen: {problems} chunk(s) failed to verify"));
    }
    Ok(())
}

fn from_pgn(input: &Path, args: &DatagenArgs) -> Result<(), String> {
    let workload = args.workload.clone().unwrap_or_else(|| {
        let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_else(|| input.display().to_string());
        name.split('.').next().unwrap_or(&name).to_string()
    });
    let import = PgnImport {
        input: input.to_path_buf(),
        dir: args.dir.clone(),
        workload,
        seed: args.seed(),
        chunk_positions: args.chunk_positions.max(1),
    };
    let tally = import
        .run(&mut |line| eprintln!("datagen: {line}"))
        .map_err(|e| format!("datagen: {e}"))?;
    super::print_out(&format!("{tally}\n"));
    if tally.games == 0 {
        return Err(format!(
            "datagen: no game of {} could be imported",
            input.display()
        ));
    }
    Ok(())
}

fn import_packed(path: &Path, config: &DatagenConfig) -> Result<(), String> {
    let positions =
        packed::read_all(path).map_err(|e| format!("datagen: {}: {e}", path.display()))?;
    let (games, dropped) = records::from_packed(&positions);
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let template = Provenance {
        engine: format!("unknown (rebuilt from the packed file {name})"),
        network: config.network.clone(),
        soft_nodes: config.soft_nodes,
        hard_nodes: config.hard_nodes,
        random_plies: config.random_plies,
        dfrc_percent: 0,
        syzygy: config.syzygy_path.is_some(),
        seed: config.seed,
        ..Provenance::default()
    };
    let fail = |e: String| format!("datagen: {e}");
    let mut index = 0;
    let mut games = games.iter().peekable();
    while games.peek().is_some() {
        let provenance = Provenance {
            index,
            started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            ..template.clone()
        };
        let mut writer = ChunkWriter::create(&config.dir, provenance).map_err(fail)?;
        while writer.positions() < config.chunk_positions {
            let Some(game) = games.next() else { break };
            writer.add(game).map_err(fail)?;
        }
        if let Some(entry) = writer.finish().map_err(fail)? {
            eprintln!(
                "datagen: chunk {}: {} games, {} positions, {} bytes",
                entry.file, entry.games, entry.positions, entry.bytes
            );
        }
        index += 1;
    }
    eprintln!(
        "datagen: {} positions read, {dropped} dropped (each game's last, and any no game \
         leads to)",
        positions.len()
    );
    Ok(())
}

fn dump(path: &Path) -> Result<(), String> {
    let positions = if chunks::is_chunk(path) {
        let games = chunks::read_games(path).map_err(|e| format!("datagen: {e}"))?;
        games
            .iter()
            .flat_map(|g| g.packed().collect::<Vec<_>>())
            .collect()
    } else {
        packed::read_all(path).map_err(|e| format!("datagen: {}: {e}", path.display()))?
    };
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
        match quintessence::train::Sample::parse(&line).and_then(|s| {
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
