//! The `quintessence` binary: the UCI engine, and the `bench`, `perft`, `datagen`, `tune`,
//! `eval`, `go`, `tbprobe` and `magics` tools.

mod cli;

use cli::Mode;
use quintessence::attacks::magic_finder;
use quintessence::config::EngineConfig;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cli = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(e) => {
            eprintln!("quintessence: {e}");
            return ExitCode::from(2);
        }
    };

    // The config file is read before logging starts, since it sets the log level.
    let (config, config_error) = match EngineConfig::locate(cli.config.as_deref()) {
        None => (EngineConfig::default(), None),
        Some(path) => match EngineConfig::load(&path) {
            Ok(config) => (config, None),
            Err(e) => (EngineConfig::default(), Some(e)),
        },
    };
    let level = config
        .log_level
        .clone()
        .unwrap_or_else(|| "warn".to_string());
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .format_timestamp_millis()
        .init();
    // On stderr whatever the log level: a panic is always worth a report.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("quintessence: internal error: {info}")
    }));
    if let Some(e) = config_error {
        log::error!("{e}; using the built-in defaults");
    }
    let (options, messages) = config.options();
    for message in messages {
        log::warn!("{message}");
    }

    let result = match cli.mode {
        Mode::Uci => {
            let stdin = std::io::stdin().lock();
            quintessence::uci::run(options, stdin, Box::new(std::io::stdout()));
            Ok(())
        }
        Mode::Bench(depth) => {
            cli::bench::run(depth, &options.search_config());
            Ok(())
        }
        Mode::Perft {
            depth,
            fen,
            backend,
            chess960,
        } => cli::perft::run(depth, fen.as_deref(), backend, chess960),
        Mode::Datagen(args) => cli::datagen::run(&args),
        Mode::Tune(args) => cli::tune::run(&args),
        Mode::Train(args) => cli::train::run(&args),
        Mode::Go { fen, depth } => cli::go::run(fen.as_deref(), depth),
        Mode::Eval(fen) => cli::eval::run(fen.as_deref()),
        Mode::TbProbe(paths) => cli::tbprobe::run(&paths),
        Mode::Magics => print_out(&magic_finder::source()),
        Mode::Help => print_out(cli::USAGE),
        Mode::Version => print_out(&format!("quintessence {}\n", env!("CARGO_PKG_VERSION"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quintessence {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes to stdout; a closed pipe is not worth a panic.
fn print_out(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}
