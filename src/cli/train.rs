//! `quintessence train --data PATH [--data PATH ...] [options]`: fits the neural network to
//! packed self-play positions and writes `epoch-N.nnue` files the engine loads.

use super::flags::{pairs, value};
use quintessence::tune::nnue::{TrainConfig, train};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut config = TrainConfig::default();
    for (flag, text) in pairs("train", args)? {
        let v = |t| value("train", flag, t);
        match flag {
            "--data" => config.data.push(text.into()),
            "--hidden" => config.hidden = v(text)?,
            "--epochs" => config.epochs = v(text)?,
            "--batch" => config.batch = v(text)?,
            "--lr" => config.lr = value("train", flag, text)?,
            "--final-lr" => config.final_lr = value("train", flag, text)?,
            "--wd" => config.weight_decay = value("train", flag, text)?,
            "--lambda" => config.lambda = value("train", flag, text)?,
            "--score-scale" => config.score_scale = value("train", flag, text)?,
            "--threads" => config.threads = v(text)?,
            "--seed" => config.seed = value("train", flag, text)?,
            "--out" => config.out = text.into(),
            "--chunk" => config.chunk = v(text)?,
            "--holdout-every" => config.holdout_every = v(text)?,
            "--min-ply" => config.filter.min_ply = value("train", flag, text)?,
            "--init" => config.init = Some(text.into()),
            other => return Err(format!("train: unknown option {other}")),
        }
    }
    train(&config, |line| eprintln!("{line}"))?;
    Ok(())
}
