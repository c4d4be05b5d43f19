//! The command line: no argument runs the UCI loop; `bench`, `perft` and `magics` are tools.

pub mod bench;
pub mod datagen;
pub mod eval;
mod flags;
pub mod go;
pub mod perft;
pub mod tbprobe;
pub mod train;
pub mod tune;

use quintessence::attacks::Backend;
use std::path::PathBuf;

pub const USAGE: &str = "\
Quintessence, a UCI chess engine.

Usage:
  quintessence [--config <path>]
      Speak UCI on stdin/stdout (what a GUI such as Cute Chess or Arena runs).
  quintessence [--config <path>] bench [depth]
      Search the fixed bench positions to <depth> (default 11); the last line of stdout is
      `<nodes> nodes <nps> nps`, the node count being the bench signature.
  quintessence perft <depth> [--fen \"<FEN>\"] [--attacks <name>] [--chess960]
      Count the leaf nodes of the move tree (per root move, then the total).
  quintessence datagen [--games N] [--threads N] [--nodes N] [--seed N] [--out PATH]
      Play self-play games and write training positions (default data/selfplay.txt).
  quintessence tune [--data PATH] [--epochs N] [--lr X] [--lambda X] [--reg X] [--out PATH]
      Fit the evaluation weights to training data (default: write src/eval/params.rs).
  quintessence datagen --convert <text> --out <packed> | --dump <packed>
      Convert text data to the packed format the trainer reads, or print packed data.
  quintessence train --data <packed> [--hidden N] [--epochs N] [--lr X] [--lambda X]
                     [--threads N] [--seed N] [--out DIR]
      Train the neural network; writes DIR/epoch-N.nnue and DIR/loss.csv.
  quintessence eval [FEN]
      The static evaluation of a position, term by term.
  quintessence go [FEN] [depth]
      One search to <depth> (default 10), printed plainly.
  quintessence tbprobe <folders>
      For each FEN read from stdin, print the Syzygy value (-2..2), the distance to zeroing and
      the moves that keep the value, or `none` when the tables do not cover it.
  quintessence magics
      Search magic numbers and print them as Rust source.
  quintessence --help | --version

Options:
  --config <path>   Start-up option values (default: engine-config/engine.toml in the working
                    directory or beside the binary, when present).
  --fen <FEN>       Position for perft (default: the start position). Standard, X-FEN and
                    Shredder-FEN castling fields are accepted.
  --attacks <name>  Sliding-attack back-end for perft (default: the fastest on this CPU).
  --chess960        Write castling as king-takes-rook (e1h1) in perft output.

Diagnostics go to stderr; set RUST_LOG (e.g. RUST_LOG=debug) for more.
";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Uci,
    Bench(Option<u32>),
    Perft {
        depth: u32,
        fen: Option<String>,
        backend: Option<Backend>,
        chess960: bool,
    },
    Datagen(Vec<String>),
    Tune(Vec<String>),
    Train(Vec<String>),
    Go {
        fen: Option<String>,
        depth: u32,
    },
    Eval(Option<String>),
    TbProbe(String),
    Magics,
    Help,
    Version,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    pub config: Option<PathBuf>,
    pub mode: Mode,
}

pub fn parse(args: &[String]) -> Result<Cli, String> {
    let mut config = None;
    let mut rest: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--config" => {
                let path = args.get(i + 1).ok_or("--config needs a path")?;
                config = Some(PathBuf::from(path));
                i += 2;
            }
            other => {
                rest.push(other);
                i += 1;
            }
        }
    }
    let mode = match rest.split_first() {
        None => Mode::Uci,
        Some((&"--help" | &"-h" | &"help", _)) => Mode::Help,
        Some((&"--version" | &"-V", _)) => Mode::Version,
        Some((&"magics", [])) => Mode::Magics,
        Some((&"bench", [])) => Mode::Bench(None),
        Some((&"bench", [depth])) => Mode::Bench(Some(parse_depth(depth, 1, 64)?)),
        Some((&"perft", args)) => parse_perft(args)?,
        Some((&"datagen", args)) => Mode::Datagen(args.iter().map(|s| s.to_string()).collect()),
        Some((&"tune", args)) => Mode::Tune(args.iter().map(|s| s.to_string()).collect()),
        Some((&"train", args)) => Mode::Train(args.iter().map(|s| s.to_string()).collect()),
        Some((&"tbprobe", [paths])) => Mode::TbProbe(paths.to_string()),
        Some((&"eval", args)) if args.len() <= 1 => Mode::Eval(args.first().map(|s| s.to_string())),
        Some((&"go", args)) if args.len() <= 2 => Mode::Go {
            fen: args.first().map(|s| s.to_string()),
            depth: match args.get(1) {
                Some(depth) => parse_depth(depth, 1, 64)?,
                None => 10,
            },
        },
        Some(_) => {
            return Err(format!(
                "unexpected argument(s) '{}' (see --help)",
                rest.join(" ")
            ));
        }
    };
    Ok(Cli { config, mode })
}

fn parse_depth(text: &str, min: u32, max: u32) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|d| (min..=max).contains(d))
        .ok_or_else(|| format!("depth '{text}' is not a number from {min} to {max}"))
}

fn parse_perft(args: &[&str]) -> Result<Mode, String> {
    let (depth, mut options) = args.split_first().ok_or("perft needs a depth")?;
    let depth = parse_depth(depth, 0, 20)?;
    let (mut fen, mut backend, mut chess960) = (None, None, false);
    while let Some((flag, tail)) = options.split_first() {
        options = tail;
        match *flag {
            "--chess960" => chess960 = true,
            "--fen" | "--attacks" => {
                let (value, tail) = options
                    .split_first()
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                options = tail;
                if *flag == "--fen" {
                    fen = Some(value.to_string());
                } else {
                    backend = Some(Backend::parse(value)?);
                }
            }
            other => return Err(format!("perft: unexpected argument '{other}' (see --help)")),
        }
    }
    Ok(Mode::Perft {
        depth,
        fen,
        backend,
        chess960,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(line: &str) -> Result<Cli, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args)
    }

    #[test]
    fn modes() {
        assert_eq!(cli("").unwrap().mode, Mode::Uci);
        assert_eq!(cli("bench").unwrap().mode, Mode::Bench(None));
        assert_eq!(cli("bench 5").unwrap().mode, Mode::Bench(Some(5)));
        let c = cli("--config x.toml bench").unwrap();
        assert_eq!(c.config, Some(PathBuf::from("x.toml")));
        assert_eq!(
            cli("perft 3 --attacks magic --chess960").unwrap().mode,
            Mode::Perft {
                depth: 3,
                fen: None,
                backend: Some(Backend::Magic),
                chess960: true
            }
        );
    }

    #[test]
    fn errors() {
        for line in [
            "bench x",
            "perft",
            "perft x",
            "perft 3 --fen",
            "perft 3 --attacks nope",
            "frobnicate",
            "--config",
        ] {
            assert!(cli(line).is_err(), "{line}");
        }
    }
}
