//! AdamW: Adam with decoupled weight decay.

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
