//! The command line, parsed by clap: no subcommand runs the UCI loop; the subcommands are tools.
//! Each subcommand's arguments are a struct in that subcommand's file. OpenBench's `genfens`
//! request is no subcommand: `genfens.rs` takes it off the command line before clap.

pub mod bench;
pub mod compiler;
#[cfg(feature = "train")]
pub mod datagen;
pub mod eval;
#[cfg(feature = "train")]
pub mod genfens;
pub mod go;
pub mod magics;
pub mod perft;
pub mod spsa_input;
pub mod tbprobe;
#[cfg(feature = "train")]
pub mod train;
#[cfg(feature = "train")]
pub mod tune;

use clap::{Parser, Subcommand};
use quintessence::uci::Options;
use std::io::Write;
use std::path::PathBuf;

/// Writes to stdout: a closed pipe (`| head -n 1`) ends the output quietly instead of the panic
/// `println!` would raise.
pub fn print_out(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

#[derive(Debug, Parser)]
#[command(
    name = "quintessence",
    version = quintessence::build_info::VERSION,
    about = "Quintessence, a UCI chess engine.",
    long_about = "Quintessence, a UCI chess engine.\n\nWithout a subcommand it speaks UCI on \
                  stdin/stdout (what a GUI such as Cute Chess or Arena runs).",
    after_help = "Diagnostics go to stderr; set RUST_LOG (e.g. RUST_LOG=debug) for more."
)]
pub struct Cli {
    /// Start-up option values [default: engine-config/engine.toml in the working directory or
    /// beside the binary, when present]
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub tool: Option<Tool>,
}

#[derive(Debug, Subcommand)]
pub enum Tool {
    Bench(bench::BenchArgs),
    Perft(perft::PerftArgs),
    #[cfg(feature = "train")]
    Datagen(datagen::DatagenArgs),
    #[cfg(feature = "train")]
    Tune(tune::TuneArgs),
    #[cfg(feature = "train")]
    Train(train::TrainArgs),
    Eval(eval::EvalArgs),
    Go(go::GoArgs),
    Tbprobe(tbprobe::TbprobeArgs),
    Magics(magics::MagicsArgs),
    Compiler(compiler::CompilerArgs),
    SpsaInput(spsa_input::SpsaInputArgs),
}

impl Tool {
    /// Runs the tool; the error is printed after `quintessence `.
    pub fn run(&self, options: &Options) -> Result<(), String> {
        match self {
            Tool::Bench(args) => bench::run(args, &options.search_config()),
            Tool::Perft(args) => perft::run(args),
            #[cfg(feature = "train")]
            Tool::Datagen(args) => datagen::run(args),
            #[cfg(feature = "train")]
            Tool::Tune(args) => tune::run(args),
            #[cfg(feature = "train")]
            Tool::Train(args) => train::run(args),
            Tool::Eval(args) => eval::run(args),
            Tool::Go(args) => go::run(args),
            Tool::Tbprobe(args) => tbprobe::run(args),
            Tool::Magics(args) => magics::run(args),
            Tool::Compiler(args) => compiler::run(args),
            Tool::SpsaInput(args) => spsa_input::run(args),
        }
    }
}

/// What a failed parse prints, and where: help and version on stdout (exit 0), errors on
/// stderr after `quintessence: ` (exit 2).
pub fn explain(error: &clap::Error) -> (String, bool, u8) {
    let text = error.render().to_string();
    if error.use_stderr() {
        let text = text.strip_prefix("error: ").unwrap_or(&text);
        (format!("quintessence: {text}"), true, 2)
    } else {
        (text, false, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use quintessence::attacks::Backend;

    fn cli(line: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("quintessence").chain(line.split_whitespace()))
    }

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn modes() {
        assert!(cli("").unwrap().tool.is_none());
        let Some(Tool::Bench(bench)) = cli("bench").unwrap().tool else {
            panic!("bench")
        };
        assert_eq!(bench.depth, 11);
        let Some(Tool::Bench(bench)) = cli("bench 5").unwrap().tool else {
            panic!("bench 5")
        };
        assert_eq!(bench.depth, 5);
        let c = cli("--config x.toml bench").unwrap();
        assert_eq!(c.config, Some(PathBuf::from("x.toml")));
        let Some(Tool::Perft(perft)) = cli("perft 3 --attacks magic --chess960").unwrap().tool
        else {
            panic!("perft")
        };
        assert_eq!(
            (perft.depth, perft.fen, perft.attacks, perft.chess960),
            (3, None, Some(Backend::Magic), true)
        );
    }

    #[test]
    fn errors() {
        for line in [
            "bench x",
            "bench 0",
            "perft",
            "perft x",
            "perft 3 --fen",
            "perft 3 --attacks nope",
            "frobnicate",
            "--config",
            "datagen --games",
            "datagen --bogus 1",
        ] {
            let error = cli(line).unwrap_err();
            let (text, to_stderr, code) = explain(&error);
            assert!(to_stderr && code == 2, "{line}: {text}");
            assert!(text.starts_with("quintessence: "), "{line}: {text}");
        }
    }

    #[test]
    fn every_subcommand_has_help() {
        for name in [
            "bench",
            "perft",
            "datagen",
            "tune",
            "train",
            "eval",
            "go",
            "tbprobe",
            "magics",
            "compiler",
            "spsa-input",
        ] {
            let error = cli(&format!("{name} --help")).unwrap_err();
            let (text, to_stderr, code) = explain(&error);
            assert!(!to_stderr && code == 0, "{name}: {text}");
            assert!(text.contains(&format!("quintessence {name}")), "{text}");
        }
    }
}
