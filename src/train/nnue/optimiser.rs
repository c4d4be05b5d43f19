//! AdamW: Adam with decoupled weight decay, and its state in a file, so a training run can be
//! resumed where a checkpoint left it.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `QADAMW1\0` |
//! | 4 | epochs done (u32) |
//! | 8 | optimiser steps done (u64; the learning-rate schedule's position) |
//! | 8 | the shuffling generator's state (u64) |
//! | 4 | Adam's step count (i32) |
//! | 4·n, 4·n | first and second moments (f32), n = the network's parameters |

pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    weight_decay: f32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl AdamW {
    pub fn new(params: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; params],
            v: vec![0.0; params],
            t: 0,
            weight_decay,
        }
    }

    /// One step with `grad` summed over `batch` positions.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, batch: usize) {
        self.t += 1;
        let scale = 1.0 / batch as f32;
        let c1 = 1.0 - BETA1.powi(self.t);
        let c2 = 1.0 - BETA2.powi(self.t);
        let decay = 1.0 - lr * self.weight_decay;
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p = *p * decay - lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
    }
}

const MAGIC: &[u8; 8] = b"QADAMW1\0";

/// Where a run stands after an epoch: what `optimiser-N.bin` holds beside `checkpoint-N.bin`.
pub struct Resume {
    pub epoch: u32,
    pub step: u64,
    pub rng_state: u64,
    pub optimiser: AdamW,
}

impl Resume {
    pub fn to_bytes(&self) -> Vec<u8> {
        let o = &self.optimiser;
        let mut out = MAGIC.to_vec();
        out.extend(self.epoch.to_le_bytes());
        out.extend(self.step.to_le_bytes());
        out.extend(self.rng_state.to_le_bytes());
        out.extend(o.t.to_le_bytes());
        for x in o.m.iter().chain(&o.v) {
            out.extend(x.to_le_bytes());
        }
        out
    }

    /// The state of a network of `params` parameters trained with `weight_decay`.
    pub fn from_bytes(bytes: &[u8], params: usize, weight_decay: f32) -> Result<Resume, String> {
        const HEAD: usize = 8 + 4 + 8 + 8 + 4;
        if bytes.len() < HEAD || &bytes[..8] != MAGIC {
            return Err("not an optimiser state file".into());
        }
        if bytes.len() != HEAD + 8 * params {
            return Err(format!(
                "{} bytes: not the state of a network of {params} parameters",
                bytes.len()
            ));
        }
        let word = |at: usize, n: usize| -> u64 {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(&bytes[at..at + n]);
            u64::from_le_bytes(b)
        };
        let floats: Vec<f32> = bytes[HEAD..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let (m, v) = floats.split_at(params);
        Ok(Resume {
            epoch: word(8, 4) as u32,
            step: word(12, 8),
            rng_state: word(20, 8),
            optimiser: AdamW {
                m: m.to_vec(),
                v: v.to_vec(),
                t: word(28, 4) as u32 as i32,
                weight_decay,
            },
        })
    }
}
