//! `quintessence train`: fits the (768 → H)×2 → 1 network to packed self-play positions on the
//! CPU. Sparse: a position activates about 30 of the 768 inputs, and the forward and backward
//! passes touch only those rows. Mini-batches are split over threads, each with its own
//! gradient, summed in a fixed order, so a run is reproducible for a given seed and thread count.

mod data;
pub mod net;
mod optimiser;
mod plot;
mod workers;

use crate::eval::nnue::{InputLayout, KingBuckets};
use crate::train::packed::{ChessBoard, Filter};
use crate::types::Rng;
use data::Dataset;
use net::{Activations, Features, FloatNet, error_loss, sigmoid};
use optimiser::{AdamW, Resume};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, RwLock};
use std::time::Instant;
use workers::Workers;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub data: Vec<PathBuf>,
    pub hidden: usize,
    /// Output layers, chosen by the number of pieces on the board (`eval::nnue::output_bucket`).
    pub buckets: usize,
    /// How each side's features depend on its king: mirroring by its file and king buckets
    /// (`eval::nnue::InputLayout`).
    pub layout: InputLayout,
    /// With king buckets: factor rows shared by every bucket (`FloatNet::with_factoriser`).
    pub factoriser: bool,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate falls along a cosine to `lr · final_lr`.
    pub final_lr: f32,
    pub weight_decay: f32,
    /// Weight of the game result in the target (the rest: the search score).
    pub lambda: f32,
    /// When set, the result's weight moves linearly from `lambda` at the first step to this at
    /// the last (a λ schedule: early scores teach the shape, late results correct it).
    pub lambda_end: Option<f32>,
    /// The score in centipawns that `sigmoid` maps like a network output of 1.0. Self-play
    /// scores predict results best at about 150 (`scripts/eval-fit.py`), and blending them
    /// with results on another scale would stretch the network's scores.
    pub score_scale: f32,
    /// The loss is `|sigmoid(output) − target|^power`.
    pub power: f32,
    /// Fit the output times the engine's material scale (what the search uses) to the target,
    /// rather than the raw output: the scores come from a search that scaled, so fitting the
    /// raw output to them would put the scale in twice (issue 69 §0.1).
    pub material_scaling: bool,
    pub threads: usize,
    pub seed: u64,
    pub out: PathBuf,
    /// One game in this many is held out to measure the loss on unseen positions.
    pub holdout_every: usize,
    pub filter: Filter,
    /// Start from this float checkpoint instead of random weights.
    pub init: Option<PathBuf>,
    /// Go on from this checkpoint (`checkpoint-N.bin`, with `optimiser-N.bin` beside it) after
    /// its epoch, as if the run had not stopped (same data and settings).
    pub resume: Option<PathBuf>,
}

impl TrainConfig {
    /// The result's weight after `progress` (0 to 1) of the run's steps.
    pub fn lambda_at(&self, progress: f32) -> f32 {
        match self.lambda_end {
            Some(end) => self.lambda + (end - self.lambda) * progress.clamp(0.0, 1.0),
            None => self.lambda,
        }
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            data: Vec::new(),
            // The default network's shape and recipe (nets/README.md).
            hidden: crate::eval::nnue::HIDDEN,
            buckets: 8,
            layout: InputLayout::mirrored(KingBuckets::One),
            factoriser: true,
            epochs: 40,
            batch: 4_096,
            lr: 0.001,
            final_lr: 0.05,
            weight_decay: 0.01,
            lambda: 0.1,
            lambda_end: None,
            score_scale: 400.0,
            power: 2.0,
            material_scaling: true,
            threads: 2,
            seed: 1,
            out: PathBuf::from("data/train"),
            holdout_every: 100,
            filter: Filter::default(),
            init: None,
            resume: None,
        }
    }
}

/// What the network is fitted to: a target blending result and score, and the loss's power.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    pub lambda: f32,
    pub score_scale: f32,
    pub power: f32,
    /// The output is multiplied by the position's material scale before the loss.
    pub material_scaling: bool,
}

impl Objective {
    /// The factor between the network's raw output and the evaluation the loss compares.
    pub fn out_scale(&self, f: &Features) -> f32 {
        match self.material_scaling {
            true => f.material,
            false => 1.0,
        }
    }
}

/// The evaluation the engine's search would use, in units of the score scale: the raw output
/// times the material scale when the objective has it.
pub fn evaluation(
    net: &FloatNet,
    f: &Features,
    blend: Objective,
    scratch: &mut Activations,
) -> f32 {
    net.output(f, scratch) * blend.out_scale(f)
}

/// The training target for the side to move.
pub fn target(pos: &ChessBoard, blend: Objective) -> f32 {
    use bulletformat::BulletFormat;
    blend.lambda * pos.result()
        + (1.0 - blend.lambda) * sigmoid(f32::from(pos.score()) / blend.score_scale)
}

/// What one epoch measured.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub holdout_loss: f64,
    pub lr: f32,
    pub positions_per_second: f64,
}

/// Mean loss over `positions` (no gradient).
pub fn loss(net: &FloatNet, positions: &[ChessBoard], blend: Objective) -> f64 {
    let mut scratch = Activations::new(net.hidden);
    let total: f64 = positions
        .iter()
        .map(|pos| {
            let out = evaluation(net, &Features::of(pos, net.layout), blend, &mut scratch);
            f64::from(error_loss(sigmoid(out) - target(pos, blend), blend.power).0)
        })
        .sum();
    total / positions.len().max(1) as f64
}

/// The held-out loss of each output bucket: (positions, mean loss) by bucket, so a bucket
/// that sees few positions (the 2-5-piece one) is watched on its own.
pub fn bucket_losses(
    net: &FloatNet,
    positions: &[ChessBoard],
    blend: Objective,
) -> Vec<(usize, f64)> {
    let mut scratch = Activations::new(net.hidden);
    let mut sums = vec![(0usize, 0.0f64); net.buckets];
    for pos in positions {
        let f = Features::of(pos, net.layout);
        let out = evaluation(net, &f, blend, &mut scratch);
        let bucket = crate::eval::nnue::output_bucket(f.len, net.buckets);
        sums[bucket].0 += 1;
        sums[bucket].1 += f64::from(error_loss(sigmoid(out) - target(pos, blend), blend.power).0);
    }
    sums.into_iter()
        .map(|(n, total)| (n, total / n.max(1) as f64))
        .collect()
}

/// Trains and writes `epoch-N.nnue`, `checkpoint-N.bin` (float weights), `optimiser-N.bin`
/// (what `resume` needs), `loss.csv` and its curve `loss.png` into `config.out`; returns the
/// per-epoch reports.
pub fn train(config: &TrainConfig, mut log: impl FnMut(&str)) -> Result<Vec<EpochReport>, String> {
    let io = |e: std::io::Error| format!("{e}");
    std::fs::create_dir_all(&config.out).map_err(io)?;
    let mut dataset = Dataset::open(&config.data, config.holdout_every, config.filter)?;
    log(&format!(
        "{} positions of {} games in {} file(s); {} pass the filter for training, {} held out",
        dataset.records(),
        dataset.games(),
        dataset.files(),
        dataset.train_len(),
        dataset.holdout().len(),
    ));
    let read = |path: &PathBuf| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let mut net = match (&config.resume, &config.init) {
        (Some(path), _) => FloatNet::from_bytes(&read(path)?)?,
        // A one-bucket start gives every bucket its output layer.
        (None, Some(path)) => FloatNet::from_bytes(&read(path)?)?
            .with_buckets(config.buckets)?
            .with_layout(config.layout)?,
        (None, None) => FloatNet::random(config.hidden, config.buckets, config.seed)
            .with_layout(config.layout)?,
    };
    if config.factoriser && config.layout.king_buckets.count() > 1 && config.resume.is_none() {
        net = net.with_factoriser()?;
    }
    let mut blend = Objective {
        lambda: config.lambda,
        score_scale: config.score_scale,
        power: config.power,
        material_scaling: config.material_scaling,
    };
    let (mut optimiser, mut rng, mut step, done) = match &config.resume {
        Some(path) => {
            let state_path = optimiser_path(path)?;
            let state =
                Resume::from_bytes(&read(&state_path)?, net.params.len(), config.weight_decay)
                    .map_err(|e| format!("{}: {e}", state_path.display()))?;
            log(&format!(
                "resuming after epoch {} (step {}) from {}",
                state.epoch,
                state.step,
                path.display()
            ));
            // Each epoch shuffles the order the one before left, so the earlier shuffles are
            // replayed (a few seconds each on tens of millions of positions).
            let mut rng = Rng::new(config.seed ^ 0x5EED);
            for _ in 0..state.epoch {
                dataset.epoch(&mut rng);
            }
            if rng.state() != state.rng_state {
                return Err(format!(
                    "{}: the run had another seed or other data",
                    state_path.display()
                ));
            }
            (
                state.optimiser,
                rng,
                state.step as usize,
                state.epoch as usize,
            )
        }
        None => (
            AdamW::new(net.params.len(), config.weight_decay),
            Rng::new(config.seed ^ 0x5EED),
            0,
            0,
        ),
    };
    let grads: Vec<Mutex<Vec<f32>>> = (0..config.threads.max(1))
        .map(|_| Mutex::new(vec![0.0f32; net.params.len()]))
        .collect();
    let steps_per_epoch = dataset.train_len().div_ceil(config.batch).max(1);
    let total_steps = (steps_per_epoch * config.epochs).max(1);
    let csv_path = config.out.join("loss.csv");
    let mut csv = if done > 0 && csv_path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(&csv_path)
            .map_err(io)?
    } else {
        let mut csv = std::fs::File::create(&csv_path).map_err(io)?;
        writeln!(csv, "epoch,train_loss,holdout_loss,lr,positions_per_second").map_err(io)?;
        csv
    };
    let mut reports = Vec::new();
    for epoch in done + 1..=config.epochs {
        let start = Instant::now();
        let (mut loss_sum, mut seen) = (0.0f64, 0usize);
        let mut last_log = Instant::now();
        let mut lr = config.lr;
        let train = dataset.epoch(&mut rng);
        let shared = RwLock::new(net);
        std::thread::scope(|scope| {
            let mut workers = Workers::start(scope, &shared, &grads);
            for batch in train.chunks(config.batch) {
                let progress = step as f32 / total_steps as f32;
                let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
                lr = config.lr * (config.final_lr + (1.0 - config.final_lr) * cosine);
                blend.lambda = config.lambda_at(progress);
                loss_sum += workers.step(batch, blend);
                let mut net = shared.write().expect("network lock");
                let mut grad = grads[0].lock().expect("gradient lock");
                net.factor_gradient(&mut grad);
                let factor = net.factor();
                optimiser.step(&mut net.params, &grad, lr, batch.len());
                net.follow_factor(&factor, 1.0 - lr * config.weight_decay);
                net.clip();
                seen += batch.len();
                step += 1;
                if last_log.elapsed().as_secs() >= 10 {
                    last_log = Instant::now();
                    log(&format!(
                        "epoch {epoch}: {seen} positions, loss {:.6}, {:.0} positions/s",
                        loss_sum / seen as f64,
                        seen as f64 / start.elapsed().as_secs_f64()
                    ));
                }
            }
        });
        net = shared.into_inner().expect("network lock");
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / seen.max(1) as f64,
            holdout_loss: loss(&net, dataset.holdout(), blend),
            lr,
            positions_per_second: seen as f64 / start.elapsed().as_secs_f64(),
        };
        writeln!(
            csv,
            "{},{:.7},{:.7},{:.3e},{:.0}",
            report.epoch,
            report.train_loss,
            report.holdout_loss,
            report.lr,
            report.positions_per_second
        )
        .map_err(io)?;
        csv.flush().map_err(io)?;
        std::fs::write(
            config.out.join(format!("epoch-{epoch}.nnue")),
            net.quantise(config.score_scale),
        )
        .map_err(io)?;
        std::fs::write(
            config.out.join(format!("checkpoint-{epoch}.bin")),
            net.to_bytes(),
        )
        .map_err(io)?;
        let state = Resume {
            epoch: epoch as u32,
            step: step as u64,
            rng_state: rng.state(),
            optimiser,
        };
        std::fs::write(
            config.out.join(format!("optimiser-{epoch}.bin")),
            state.to_bytes(),
        )
        .map_err(io)?;
        optimiser = state.optimiser;
        log(&format!(
            "epoch {epoch}: train loss {:.6}, held-out loss {:.6}, lr {:.2e}, {:.0} positions/s",
            report.train_loss, report.holdout_loss, report.lr, report.positions_per_second
        ));
        let by_bucket: Vec<String> = bucket_losses(&net, dataset.holdout(), blend)
            .iter()
            .enumerate()
            .map(|(b, (n, l))| format!("{b}: {l:.6} ({n})"))
            .collect();
        log(&format!(
            "epoch {epoch}: held-out loss by output bucket: {}",
            by_bucket.join(", ")
        ));
        reports.push(report);
        plot::loss_curve(&reports, &config.out.join("loss.png"))?;
    }
    Ok(reports)
}

/// `optimiser-N.bin` beside `checkpoint-N.bin`.
fn optimiser_path(checkpoint: &std::path::Path) -> Result<PathBuf, String> {
    let name = checkpoint
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let epoch = name
        .strip_prefix("checkpoint-")
        .and_then(|n| n.strip_suffix(".bin"))
        .ok_or_else(|| format!("{}: expected a checkpoint-N.bin", checkpoint.display()))?;
    Ok(checkpoint.with_file_name(format!("optimiser-{epoch}.bin")))
}
