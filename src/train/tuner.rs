//! Texel-style tuning: every evaluation weight is fitted so that `sigmoid(K * eval / 400)`
//! predicts the training targets (a blend of game result and search score) with the least
//! squared error. The evaluation is linear in its weights, so each position is reduced once to
//! its term coefficients and the fit runs on those (full-batch gradient descent with Adam).

use super::Sample;
use crate::attacks::Magic;
use crate::board::Board;
use crate::eval::hce::layout::{COUNT, GROUPS};
use crate::eval::hce::{MAX_PHASE, S, Trace, evaluate_terms, weights::PARAMS};
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub epochs: usize,
    pub learning_rate: f64,
    /// Weight of the game result in the target; the rest is the search score's win probability.
    pub result_weight: f64,
    pub threads: usize,
    /// Pull of every weight towards its starting value (L2), against over-fitting sparse terms.
    pub regularization: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 2_000,
            learning_rate: 1.0,
            result_weight: 0.5,
            threads: 2,
            regularization: 1e-7,
        }
    }
}

/// A position reduced to what the fit needs.
struct Entry {
    /// (term, White-minus-Black count) of the terms that occur.
    terms: Vec<(u16, i16)>,
    /// Middlegame share (phase / 24) and endgame share times the endgame scale.
    mg_share: f32,
    eg_share: f32,
    target: f32,
}

pub struct TermSet {
    entries: Vec<Entry>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl TermSet {
    /// Reads a data file (see [`super`] for the format); bad lines are counted and skipped.
    pub fn load(path: &Path, result_weight: f64, k: f64) -> std::io::Result<TermSet> {
        let file = std::io::BufReader::new(std::fs::File::open(path)?);
        let mut entries = Vec::new();
        let mut skipped = 0;
        for line in file.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let Ok(sample) = Sample::parse(&line) else {
                skipped += 1;
                continue;
            };
            let Ok(board) = Board::from_fen(&sample.fen) else {
                skipped += 1;
                continue;
            };
            let mut trace = Trace::default();
            let t = evaluate_terms::<Magic, _>(&board, &mut trace);
            // The scale depends on who is ahead; the starting weights decide that.
            let eg: i32 = trace
                .coefficients
                .iter()
                .zip(PARAMS.iter())
                .map(|(c, p)| c * p.eg())
                .sum();
            let (phase, scale) = (t.phase, t.scale_for(eg));
            let terms = trace
                .coefficients
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0)
                .map(|(i, &c)| (i as u16, c as i16))
                .collect();
            let score_target = sigmoid(k * sample.score as f64 / 400.0);
            entries.push(Entry {
                terms,
                mg_share: phase as f32 / MAX_PHASE as f32,
                eg_share: (MAX_PHASE - phase) as f32 / MAX_PHASE as f32 * scale as f32 / 128.0,
                target: (result_weight * sample.result + (1.0 - result_weight) * score_target)
                    as f32,
            });
        }
        if skipped > 0 {
            eprintln!("tune: skipped {skipped} unreadable lines");
        }
        Ok(TermSet { entries })
    }

    /// Moves every `n`-th position into a held-out set, to measure over-fitting.
    pub fn split_every(&mut self, n: usize) -> TermSet {
        let mut kept = Vec::with_capacity(self.entries.len());
        let mut held = Vec::new();
        for (i, e) in std::mem::take(&mut self.entries).into_iter().enumerate() {
            if n > 0 && i % n == n - 1 {
                held.push(e);
            } else {
                kept.push(e);
            }
        }
        self.entries = kept;
        TermSet { entries: held }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

fn eval_of(entry: &Entry, weights: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &entry.terms {
        mg += weights[i as usize][0] * c as f64;
        eg += weights[i as usize][1] * c as f64;
    }
    mg * entry.mg_share as f64 + eg * entry.eg_share as f64
}

/// Mean squared error and its gradient over a slice of the data.
fn error_and_gradient(
    entries: &[Entry],
    weights: &[[f64; 2]],
    k: f64,
    gradient: bool,
) -> (f64, Vec<[f64; 2]>) {
    let mut grad = if gradient {
        vec![[0.0; 2]; COUNT]
    } else {
        Vec::new()
    };
    let mut error = 0.0;
    for entry in entries {
        let p = sigmoid(k * eval_of(entry, weights) / 400.0);
        let diff = p - entry.target as f64;
        error += diff * diff;
        if gradient {
            let g = diff * p * (1.0 - p) * k / 400.0;
            let (gm, ge) = (g * entry.mg_share as f64, g * entry.eg_share as f64);
            for &(i, c) in &entry.terms {
                grad[i as usize][0] += gm * c as f64;
                grad[i as usize][1] += ge * c as f64;
            }
        }
    }
    (error, grad)
}

fn parallel_error(
    data: &TermSet,
    weights: &[[f64; 2]],
    k: f64,
    gradient: bool,
    threads: usize,
) -> (f64, Vec<[f64; 2]>) {
    let chunk = data.entries.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(f64, Vec<[f64; 2]>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = data
            .entries
            .chunks(chunk)
            .map(|part| scope.spawn(move || error_and_gradient(part, weights, k, gradient)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("tuner thread"))
            .collect()
    });
    let n = data.entries.len().max(1) as f64;
    let mut error = 0.0;
    let mut grad = if gradient {
        vec![[0.0; 2]; COUNT]
    } else {
        Vec::new()
    };
    for (e, g) in parts {
        error += e;
        for (a, b) in grad.iter_mut().zip(g) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
    for g in &mut grad {
        g[0] /= n;
        g[1] /= n;
    }
    (error / n, grad)
}

pub fn current_weights() -> Vec<[f64; 2]> {
    PARAMS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// The scaling constant K that best maps the current evaluation to the targets.
pub fn find_k(data: &TermSet, threads: usize) -> f64 {
    let weights = current_weights();
    let (mut lo, mut hi) = (0.1, 4.0);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if parallel_error(data, &weights, a, false, threads).0
            < parallel_error(data, &weights, b, false, threads).0
        {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the weights with Adam; reports progress on stderr and returns the new weights.
pub fn tune(data: &TermSet, k: f64, config: &TuneConfig) -> Vec<[f64; 2]> {
    let start = current_weights();
    let mut weights = start.clone();
    let (mut m, mut v) = (vec![[0.0; 2]; COUNT], vec![[0.0; 2]; COUNT]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    for epoch in 1..=config.epochs {
        let (error, grad) = parallel_error(data, &weights, k, true, config.threads);
        for i in 0..COUNT {
            for p in 0..2 {
                let g = grad[i][p] + config.regularization * (weights[i][p] - start[i][p]);
                m[i][p] = beta1 * m[i][p] + (1.0 - beta1) * g;
                v[i][p] = beta2 * v[i][p] + (1.0 - beta2) * g * g;
                let m_hat = m[i][p] / (1.0 - beta1.powi(epoch as i32));
                let v_hat = v[i][p] / (1.0 - beta2.powi(epoch as i32));
                weights[i][p] -= config.learning_rate * m_hat / (v_hat.sqrt() + eps);
            }
        }
        if epoch % 50 == 0 || epoch == 1 {
            eprintln!("tune: epoch {epoch} error {error:.7}");
        }
    }
    weights
}

/// Mean squared error of `weights` on `data`.
pub fn error(data: &TermSet, weights: &[[f64; 2]], k: f64, threads: usize) -> f64 {
    parallel_error(data, weights, k, false, threads).0
}

/// The source of `src/eval/hce/weights.rs` for `weights`.
pub fn weights_source(weights: &[[f64; 2]]) -> String {
    let mut out = String::new();
    out +=
        "//! The hand-crafted evaluation's weights: generated by the tuner (`quintessence tune`,\n";
    out += "//! src/train/tuner.rs); the layout is given by `layout.rs`.\n\n";
    out += "use super::layout::COUNT;\nuse super::mg_eg::{S, s};\n\n";
    out += "pub static PARAMS: [S; COUNT] = [\n";
    for (name, start, len) in GROUPS {
        let _ = writeln!(out, "    // {name}");
        for row in weights[start..start + len].chunks(8) {
            let items: Vec<String> = row
                .iter()
                .map(|w| format!("s({}, {}),", w[0].round() as i32, w[1].round() as i32))
                .collect();
            let _ = writeln!(out, "    {}", items.join(" "));
        }
    }
    out += "];\n";
    out
}

/// The weights rounded to the integers the engine uses.
pub fn rounded(weights: &[[f64; 2]]) -> Vec<S> {
    weights
        .iter()
        .map(|w| S(w[0].round() as i32, w[1].round() as i32))
        .collect()
}
