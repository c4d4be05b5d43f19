//! Training data and fitting for the evaluation: self-play data generation and a Texel-style
//! tuner that fits the evaluation's weights to game results.
//!
//! Data format (one position per line, plain text):
//! `<FEN> | <score> | <result>` where `score` is the search score in centipawns from White's
//! point of view and `result` the game's outcome for White: `1.0`, `0.5` or `0.0`.

pub mod chunks;
pub mod nnue;
pub mod openings;
pub mod packed;
pub mod pgn;
pub mod records;
pub mod selfplay;
pub mod tuner;

/// One line of training data.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    pub score: i32,
    pub result: f64,
}

impl Sample {
    pub fn parse(line: &str) -> Result<Sample, String> {
        let mut parts = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("expected 'FEN | score | result', got '{line}'"));
        };
        let score = score.parse().map_err(|_| format!("bad score '{score}'"))?;
        let result: f64 = result
            .parse()
            .map_err(|_| format!("bad result '{result}'"))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(format!("bad result '{result}' (expected 1.0, 0.5 or 0.0)"));
        }
        Ok(Sample {
            fen: fen.to_string(),
            score,
            result,
        })
    }
}
