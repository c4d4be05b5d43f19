//! `quintessence tune [--data PATH] [--epochs N] [--lr X] [--lambda X] [--reg X] [--out PATH]`:
//! fits the evaluation weights to self-play data and writes them as Rust source.

use super::flags::{pairs, value};
use quintessence::tune::tuner::{
    Dataset, TuneConfig, current_weights, error, find_k, params_source, tune,
};
use std::path::Path;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut config = TuneConfig::default();
    let mut data = String::from("data/selfplay.txt");
    let mut out = String::from("src/eval/params.rs");
    for (flag, text) in pairs("tune", args)? {
        match flag {
            "--data" => data = text.to_string(),
            "--epochs" => config.epochs = value("tune", flag, text)?,
            "--lr" => config.learning_rate = value("tune", flag, text)?,
            "--lambda" => config.result_weight = value("tune", flag, text)?,
            "--reg" => config.regularization = value("tune", flag, text)?,
            "--out" => out = text.to_string(),
            other => return Err(format!("tune: unknown option {other}")),
        }
    }
    let load = |weight, k| {
        Dataset::load(Path::new(&data), weight, k).map_err(|e| format!("tune: {data}: {e}"))
    };
    let probe = load(1.0, 1.0)?;
    let k = find_k(&probe, config.threads);
    drop(probe);
    let mut set = load(config.result_weight, k)?;
    let held = set.split_every(10);
    let start = current_weights();
    eprintln!(
        "{} positions, K = {k:.3}, error {:.6}, held-out {:.6}",
        set.len(),
        error(&set, &start, k, config.threads),
        error(&held, &start, k, config.threads)
    );
    let weights = tune(&set, k, &config);
    eprintln!(
        "final error {:.6}, held-out {:.6}",
        error(&set, &weights, k, config.threads),
        error(&held, &weights, k, config.threads)
    );
    std::fs::write(&out, params_source(&weights)).map_err(|e| format!("tune: {out}: {e}"))
}
