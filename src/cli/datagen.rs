//! `quintessence datagen [--games N] [--threads N] [--nodes N] [--seed N] [--out PATH]`:
//! self-play training data for the tuner.

use super::flags::{pairs, value};
use quintessence::tune::datagen::{self, DatagenConfig};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut config = DatagenConfig::default();
    for (flag, text) in pairs("datagen", args)? {
        match flag {
            "--games" => config.games = value("datagen", flag, text)?,
            "--threads" => config.threads = value("datagen", flag, text)?,
            "--nodes" => config.nodes = value("datagen", flag, text)?,
            "--seed" => config.seed = value("datagen", flag, text)?,
            "--out" => config.output = text.into(),
            other => return Err(format!("datagen: unknown option {other}")),
        }
    }
    let written = datagen::run(&config).map_err(|e| format!("datagen: {e}"))?;
    eprintln!("wrote {written} positions");
    Ok(())
}
