//! `quintessence train --data PATH [--data PATH ...] [options]`: fits the neural network to
//! self-play positions (chunks or packed files) and writes `epoch-N.nnue` files the engine loads.

use clap::Args;
use quintessence::eval::nnue::{InputLayout, KingBuckets};
use quintessence::train::nnue::{TrainConfig, train};
use std::path::PathBuf;

/// Train the neural network on self-play data; writes DIR/epoch-N.nnue and DIR/loss.csv
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Training data: a folder of chunks (data/selfplay), a chunk, or a packed file
    /// (`datagen --convert`); may be given more than once. All of it is read into memory and
    /// shuffled as one set each epoch
    #[arg(long, value_name = "PATH", required = true)]
    pub data: Vec<PathBuf>,
    /// Hidden layer size
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().hidden)]
    pub hidden: usize,
    /// Output layers, chosen by the number of pieces on the board (1 to 16; 8 splits the
    /// piece counts 2-32 into ranges of about four)
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().buckets as u16,
          value_parser = clap::value_parser!(u16).range(1..=16))]
    pub buckets: u16,
    /// Mirror each side's features left to right when its king is on files e-h (the network
    /// file is then `QNNUE04`, which engines before it do not read); `--mirror false` for none
    #[arg(long, value_name = "BOOL", default_value_t = TrainConfig::default().layout.mirroring,
          num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub mirror: bool,
    /// King buckets: each side's features in one set of 768 per region of its king's square
    /// (1: none; 4: back-rank corners, back-rank centre, second rank, the rest). A network of
    /// one king bucket given to `--init` starts every bucket
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().layout.king_buckets.count(),
          value_parser = king_buckets)]
    pub king_buckets: usize,
    /// With king buckets, train factor rows shared by every bucket beside each bucket's own
    /// (folded into the buckets in the network file); `--factoriser false` for none
    #[arg(long, value_name = "BOOL", default_value_t = TrainConfig::default().factoriser,
          num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub factoriser: bool,
    /// Multiply the output by the engine's material scale before the loss, as the search
    /// does (`false`: fit the raw output, the form of every network before g17)
    #[arg(long, value_name = "BOOL", default_value_t = TrainConfig::default().material_scaling,
          num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub material_scaling: bool,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().epochs)]
    pub epochs: usize,
    /// Positions per gradient step
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().batch)]
    pub batch: usize,
    /// Learning rate at the start
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().lr)]
    pub lr: f32,
    /// The learning rate falls along a cosine to lr times this
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().final_lr)]
    pub final_lr: f32,
    /// AdamW weight decay
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().weight_decay)]
    pub wd: f32,
    /// Weight of the game result in the target (the rest: the search score)
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().lambda)]
    pub lambda: f32,
    /// Move the result's weight linearly from --lambda at the first step to this at the last
    #[arg(long, value_name = "X")]
    pub lambda_end: Option<f32>,
    /// Centipawns per unit of the network's output (the score's sigmoid scale)
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().score_scale)]
    pub score_scale: f32,
    /// Power of the error in the loss, |sigmoid(output) - target|^power (above 2 weighs the large errors more)
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().power)]
    pub power: f32,
    /// Training threads
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().threads)]
    pub threads: usize,
    /// Seed of the initial weights and the shuffling
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().seed)]
    pub seed: u64,
    /// Folder of the checkpoints and loss.csv
    #[arg(long, value_name = "DIR", default_value_os_t = TrainConfig::default().out)]
    pub out: PathBuf,
    /// One game in this many is held out to measure the loss on unseen positions
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().holdout_every)]
    pub holdout_every: usize,
    /// Skip positions before this ply
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().filter.min_ply)]
    pub min_ply: u8,
    /// Start from this float checkpoint instead of random weights
    #[arg(long, value_name = "PATH", conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Go on after the epoch of this checkpoint (DIR/checkpoint-N.bin, with its
    /// optimiser-N.bin), with the same data and options, as if the run had not stopped
    #[arg(long, value_name = "PATH")]
    pub resume: Option<PathBuf>,
}

impl TrainArgs {
    fn config(&self) -> TrainConfig {
        let mut config = TrainConfig {
            data: self.data.clone(),
            hidden: self.hidden,
            buckets: usize::from(self.buckets),
            layout: InputLayout {
                mirroring: self.mirror,
                king_buckets: KingBuckets::with_count(self.king_buckets)
                    .expect("checked by the parser"),
            },
            factoriser: self.factoriser,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            final_lr: self.final_lr,
            weight_decay: self.wd,
            lambda: self.lambda,
            lambda_end: self.lambda_end,
            score_scale: self.score_scale,
            power: self.power,
            material_scaling: self.material_scaling,
            threads: self.threads,
            seed: self.seed,
            out: self.out.clone(),
            holdout_every: self.holdout_every,
            init: self.init.clone(),
            resume: self.resume.clone(),
            ..TrainConfig::default()
        };
        config.filter.min_ply = self.min_ply;
        config
    }
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    train(&args.config(), |line| eprintln!("{line}"))?;
    Ok(())
}

/// A king-bucket count some map has.
fn king_buckets(arg: &str) -> Result<usize, String> {
    let count: usize = arg.parse().map_err(|e| format!("{e}"))?;
    KingBuckets::with_count(count)
        .map(KingBuckets::count)
        .ok_or_else(|| format!("{count} king buckets: 1 or 4"))
}
