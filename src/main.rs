//! The `quintessence` binary: the UCI engine, and the `bench`, `perft`, `datagen`, `tune`,
//! `eval`, `go`, `tbprobe`, `magics` and `spsa-input` tools, and OpenBench's `genfens` request.

mod cli;

use clap::Parser;
use quintessence::config::EngineConfig;
use quintessence::uci::Options;
use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(feature = "train")]
    if let Some(code) = cli::genfens::intercept(&std::env::args_os().collect::<Vec<_>>()) {
        return code;
    }
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let (text, to_stderr, code) = cli::explain(&e);
            if to_stderr {
                eprint!("{text}");
            } else {
                cli::print_out(&text);
            }
            return ExitCode::from(code);
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
    let (settings, mut messages) = config.settings();
    let (options, applied) = Options::with_settings(&settings);
    messages.extend(applied);
    for message in messages {
        log::warn!("{message}");
    }

    let result = match &cli.tool {
        None => {
            let stdin = std::io::stdin().lock();
            quintessence::uci::run(options, stdin, Box::new(std::io::stdout()));
            Ok(())
        }
        Some(command) => command.run(&options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quintessence {e}");
            ExitCode::from(2)
        }
    }
}
