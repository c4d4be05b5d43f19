//! `quintessence tune`: fits the evaluation weights to self-play data and writes them as Rust
//! source.

use clap::Args;
use quintessence::train::tuner::{
    TermSet, TuneConfig, current_weights, error, find_k, tune, weights_source,
};
use std::path::PathBuf;

/// Fit the evaluation weights to training data and write them as Rust source
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Training positions (as `datagen` writes them)
    #[arg(long, value_name = "PATH", default_value = "data/selfplay.txt")]
    pub data: PathBuf,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = TuneConfig::default().epochs)]
    pub epochs: usize,
    /// Adam's learning rate
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().learning_rate)]
    pub lr: f64,
    /// Weight of the game result in the target (the rest is the search score)
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().result_weight)]
    pub lambda: f64,
    /// Pull of every weight towards its current value
    #[arg(long, value_name = "X", default_value_t = TuneConfig::default().regularization)]
    pub reg: f64,
    /// Where the weights are written
    #[arg(long, value_name = "PATH", default_value = "src/eval/hce/weights.rs")]
    pub out: PathBuf,
}

impl TuneArgs {
    fn config(&self) -> TuneConfig {
        TuneConfig {
            epochs: self.epochs,
            learning_rate: self.lr,
            result_weight: self.lambda,
            regularization: self.reg,
            ..TuneConfig::default()
        }
    }
}

pub fn run(args: &TuneArgs) -> Result<(), String> {
    let config = args.config();
    let data = &args.data;
    let load = |weight, k| {
        TermSet::load(data, weight, k).map_err(|e| format!("tune: {}: {e}", data.display()))
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
    std::fs::write(&args.out, weights_source(&weights))
        .map_err(|e| format!("tune: {}: {e}", args.out.display()))
}
