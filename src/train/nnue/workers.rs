//! The gradient of each optimiser step, split over threads that live for a whole epoch: the
//! calling thread takes the first share of every batch and the helpers the others. Threads
//! started afresh for every step (about 80 a second) were placed badly beside a nice-19
//! datagen and ran the trainer at about one core of two.

use super::Objective;
use super::net::{Activations, Features, FloatNet};
use crate::train::packed::ChessBoard;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::{Mutex, RwLock};
use std::thread::Scope;

/// A helper's work: its share of one batch.
type Job<'d> = (&'d [ChessBoard], Objective);

/// The gradient threads of one epoch. The network is read by every thread while a step's
/// gradient is computed and written (by the optimiser) only between steps.
pub(super) struct Workers<'a, 'd> {
    net: &'a RwLock<FloatNet>,
    /// One gradient per thread, the caller's first; after [`Workers::step`] the first holds
    /// the batch's sum.
    grads: &'a [Mutex<Vec<f32>>],
    jobs: Vec<Sender<Job<'d>>>,
    done: Receiver<(usize, f64)>,
    scratch: Activations,
}

impl<'a, 'd> Workers<'a, 'd> {
    /// Starts `grads.len() - 1` helpers in `scope`; they end with the scope once the
    /// returned value is dropped.
    pub(super) fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        net: &'a RwLock<FloatNet>,
        grads: &'a [Mutex<Vec<f32>>],
    ) -> Workers<'a, 'd>
    where
        'a: 'scope,
        'd: 'scope,
    {
        let hidden = net.read().expect("network lock").hidden;
        let (done_tx, done) = unbounded();
        let jobs = (1..grads.len())
            .map(|index| {
                let (tx, rx) = unbounded::<Job<'d>>();
                let done_tx = done_tx.clone();
                let grad = &grads[index];
                scope.spawn(move || {
                    let mut scratch = Activations::new(hidden);
                    for (part, blend) in rx {
                        let loss = {
                            let net = net.read().expect("network lock");
                            let mut grad = grad.lock().expect("gradient lock");
                            part_gradient(&net, part, blend, &mut grad, &mut scratch)
                        };
                        if done_tx.send((index, loss)).is_err() {
                            return;
                        }
                    }
                });
                tx
            })
            .collect();
        Workers {
            net,
            grads,
            jobs,
            done,
            scratch: Activations::new(hidden),
        }
    }

    /// The gradient of `batch` summed into the first gradient; returns the summed loss. The
    /// shares and the order of the sums do not depend on the threads' timing, so a run is
    /// the same from one machine to the next.
    pub(super) fn step(&mut self, batch: &'d [ChessBoard], blend: Objective) -> f64 {
        let per_thread = batch.len().div_ceil(self.grads.len()).max(1);
        let parts: Vec<&'d [ChessBoard]> = batch.chunks(per_thread).collect();
        for (job, &part) in self.jobs.iter().zip(parts.iter().skip(1)) {
            job.send((part, blend)).expect("a gradient thread ended");
        }
        let mut losses = vec![0.0f64; parts.len()];
        if let Some(&first) = parts.first() {
            let net = self.net.read().expect("network lock");
            let mut grad = self.grads[0].lock().expect("gradient lock");
            losses[0] = part_gradient(&net, first, blend, &mut grad, &mut self.scratch);
        }
        for _ in 1..parts.len() {
            let (index, loss) = self.done.recv().expect("a gradient thread ended");
            losses[index] = loss;
        }
        let (first, rest) = self.grads.split_first().expect("at least one thread");
        let mut first = first.lock().expect("gradient lock");
        for other in &rest[..parts.len().saturating_sub(1)] {
            let other = other.lock().expect("gradient lock");
            first
                .iter_mut()
                .zip(other.iter())
                .for_each(|(a, b)| *a += b);
        }
        losses.iter().sum()
    }
}

/// The gradient of `part` into `grad` (cleared first); returns the summed loss.
fn part_gradient(
    net: &FloatNet,
    part: &[ChessBoard],
    blend: Objective,
    grad: &mut [f32],
    scratch: &mut Activations,
) -> f64 {
    grad.iter_mut().for_each(|g| *g = 0.0);
    part.iter()
        .map(|pos| {
            let f = Features::of(pos, net.layout);
            let target = super::target(pos, blend);
            let out_scale = blend.out_scale(&f);
            f64::from(net.backprop(&f, target, blend.power, out_scale, scratch, grad))
        })
        .sum::<f64>()
}
