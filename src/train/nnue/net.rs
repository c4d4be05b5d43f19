//! The float network the trainer fits: (768·K → H)×2 → 1 with SCReLU, `K` king buckets and `B`
//! output layers chosen by piece count, the same shape the engine evaluates (`eval::nnue`), its inputs and buckets
//! from the engine's own `feature_index` and `output_bucket`, and its quantisation to the
//! engine's file.

use crate::eval::nnue::{
    INPUTS, InputLayout, MATERIAL_DIVISOR, QA, QB, View, feature_index, file_image,
    material_scale_of, output_bucket, value_count,
};
use crate::train::packed::{ChessBoard, pieces};
use crate::types::{Color, Piece, PieceType, Square};

/// The checkpoint's word of buckets and layout flags has this bit set for a factorised net.
const FACTORISED_BIT: u32 = 24;

/// Weights stay within ±CLIP so that the quantised output weights fit the engine's i16 products.
pub const CLIP: f32 = 1.98;

/// Hidden units summed at once in [`FloatNet::accumulate`]: 64 floats are eight AVX2 or four
/// AVX-512 registers, independent chains of additions.
const ACC_BLOCK: usize = 64;

/// The active inputs of one position for the side to move and for the other side.
pub struct Features {
    pub us: [u16; 32],
    pub them: [u16; 32],
    pub len: usize,
    /// The engine's material scale of the position (`eval::nnue::scale`), 1.0 = unscaled.
    pub material: f32,
}

impl Features {
    /// The inputs of `pos`, each side's in the view of its own king (`layout`).
    pub fn of(pos: &ChessBoard, layout: InputLayout) -> Features {
        let mut f = Features {
            us: [0; 32],
            them: [0; 32],
            len: 0,
            material: 1.0,
        };
        // The packed position is seen from the side to move: its pieces are "White" there.
        let decoded = || {
            pieces(pos).map(|(piece, sq)| {
                let color = Color::ALL[usize::from(piece >> 3)];
                let piece = Piece::new(color, PieceType::from_index(usize::from(piece & 7)));
                (piece, Square::from_index(usize::from(sq)))
            })
        };
        let mut views = [View::default(); 2];
        let mut counts = [0u32; 6];
        for (piece, sq) in decoded() {
            counts[piece.kind().index()] += 1;
            if piece.kind() == PieceType::King {
                views[piece.color().index()] = layout.view(piece.color(), sq);
            }
        }
        f.material =
            material_scale_of(|kind| counts[kind.index()]) as f32 / MATERIAL_DIVISOR as f32;
        for (piece, sq) in decoded() {
            f.us[f.len] = feature_index(Color::White, piece, sq, views[0]) as u16;
            f.them[f.len] = feature_index(Color::Black, piece, sq, views[1]) as u16;
            f.len += 1;
        }
        f
    }
}

/// All parameters in one flat vector (input weights input-major, hidden bias, each bucket's
/// output weights, the buckets' output biases: the file order), so the optimiser and gradient
/// sums treat them alike.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub hidden: usize,
    pub buckets: usize,
    /// How each side's features depend on its king: mirroring and king buckets.
    pub layout: InputLayout,
    /// The file's values, then with a factoriser its 768 factor rows
    /// ([`FloatNet::with_factoriser`]).
    pub params: Vec<f32>,
    pub factorised: bool,
}

pub fn param_count(hidden: usize, buckets: usize, layout: InputLayout) -> usize {
    value_count(hidden, buckets, layout)
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Σ screlu(acc)·w, summed in eight lanes (one vector register) so that the additions are not
/// one serial chain.
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [0.0f32; LANES];
    let (acc_blocks, w_blocks) = (acc.chunks_exact(LANES), w.chunks_exact(LANES));
    let tail: f32 = (acc_blocks.remainder().iter().zip(w_blocks.remainder()))
        .map(|(&a, &w)| screlu(a) * w)
        .sum();
    for (a, w) in acc_blocks.zip(w_blocks) {
        for i in 0..LANES {
            lanes[i] += screlu(a[i]) * w[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// `|err|^power` and its derivative in `err`. A power above 2 weighs large errors more, the
/// positions the network gets badly wrong (bullet's and Viridithas's 2.5).
pub fn error_loss(err: f32, power: f32) -> (f32, f32) {
    if power == 2.0 {
        // The exact arithmetic of the runs before the option, so their nets rebuild bit for bit.
        (err * err, 2.0 * err)
    } else {
        let a = err.abs();
        (a.powf(power), power * a.powf(power - 1.0) * err.signum())
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adds columns `start..start + sum.len()` of the active features' rows to `sum`. Inlined, so
/// that a fixed-size block stays in registers while every row is added to it.
#[inline(always)]
fn add_rows(sum: &mut [f32], w1: &[f32], h: usize, start: usize, features: &[u16]) {
    for &f in features {
        let row = &w1[f as usize * h + start..][..sum.len()];
        sum.iter_mut().zip(row).for_each(|(s, w)| *s += w);
    }
}

impl FloatNet {
    /// Input weights uniform in ±1/√(active inputs); output weights uniform in ±1/√(2H);
    /// biases zero; the plain layout (one king bucket, no mirroring: [`FloatNet::with_layout`]).
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = crate::types::Rng::new(seed);
        let mut params = vec![0.0; param_count(hidden, buckets, InputLayout::PLAIN)];
        let input_end = INPUTS * hidden;
        let out_start = input_end + hidden;
        let out_end = out_start + buckets * 2 * hidden;
        for (i, p) in params.iter_mut().enumerate() {
            let range = if i < input_end {
                1.0 / (32f32).sqrt()
            } else if i < out_start || i >= out_end {
                0.0
            } else {
                1.0 / ((2 * hidden) as f32).sqrt()
            };
            *p = (rng.unit() * 2.0 - 1.0) * range;
        }
        FloatNet {
            hidden,
            buckets,
            layout: InputLayout::PLAIN,
            params,
            factorised: false,
        }
    }

    /// This network with factor rows (zero at first): 768 rows shared by every king bucket,
    /// so that what a piece on a square is worth whatever the king's bucket is learnt from
    /// every position, and a bucket seen less still learns it. The network's own input rows
    /// are kept as the sums (bucket row + factor row), which the forward pass and the file
    /// use; [`FloatNet::factor_gradient`] and [`FloatNet::follow_factor`] train the factor.
    pub fn with_factoriser(mut self) -> Result<FloatNet, String> {
        if self.layout.king_buckets.count() == 1 {
            return Err("a factoriser needs king buckets".into());
        }
        if !self.factorised {
            self.params
                .resize(self.file_values() + INPUTS * self.hidden, 0.0);
            self.factorised = true;
        }
        Ok(self)
    }

    /// The number of the file's values at the start of `params`.
    fn file_values(&self) -> usize {
        value_count(self.hidden, self.buckets, self.layout)
    }

    /// With a factoriser: its rows' gradient (at the end of `grad`), the sum of every king
    /// bucket's gradient, since each bucket's rows are its own plus the factor's.
    pub fn factor_gradient(&self, grad: &mut [f32]) {
        if !self.factorised {
            return;
        }
        let rows = INPUTS * self.hidden;
        let (inputs, rest) = grad.split_at_mut(self.file_values());
        let factor = &mut rest[..rows];
        factor.iter_mut().for_each(|g| *g = 0.0);
        for bucket in inputs[..self.layout.inputs() * self.hidden].chunks_exact(rows) {
            factor.iter_mut().zip(bucket).for_each(|(f, g)| *f += g);
        }
    }

    /// The factor rows as they are, to be handed to [`FloatNet::follow_factor`] after the
    /// optimiser's step; empty without a factoriser.
    pub fn factor(&self) -> Vec<f32> {
        match self.factorised {
            true => self.params[self.file_values()..].to_vec(),
            false => Vec::new(),
        }
    }

    /// After an optimiser step over every parameter, which treated each bucket's summed rows
    /// as if they were its own (decaying them by `decay`, the factor's part too): each bucket's
    /// rows take the factor's change instead, `new − decay · before`.
    pub fn follow_factor(&mut self, before: &[f32], decay: f32) {
        if !self.factorised {
            return;
        }
        let rows = INPUTS * self.hidden;
        let start = self.file_values();
        let (inputs, factor) = self.params.split_at_mut(start);
        for bucket in inputs[..self.layout.inputs() * self.hidden].chunks_exact_mut(rows) {
            for ((w, &new), &old) in bucket.iter_mut().zip(&*factor).zip(before) {
                *w += new - decay * old;
            }
        }
    }

    /// This network with input `layout`: mirroring on or off with the weights as they are (an
    /// unmirrored network's a–d half is where a mirrored one starts), and a network of one
    /// king bucket copied into each of `layout`'s (a start where every bucket is the whole
    /// network); any other king-bucket count must already be `layout`'s.
    pub fn with_layout(self, layout: InputLayout) -> Result<FloatNet, String> {
        let (from, to) = (self.layout.king_buckets, layout.king_buckets);
        if from == to {
            return Ok(FloatNet { layout, ..self });
        }
        if from.count() != 1 {
            return Err(format!(
                "a network of {} king buckets cannot start one of {}",
                from.count(),
                to.count()
            ));
        }
        if self.factorised {
            return Err("a factorised network keeps its king buckets".into());
        }
        let (inputs, rest) = self.params.split_at(INPUTS * self.hidden);
        let mut params = inputs.repeat(to.count());
        params.extend_from_slice(rest);
        Ok(FloatNet {
            layout,
            params,
            ..self
        })
    }

    /// This network with `buckets` output buckets: a one-bucket network's output layer copied
    /// into each (a start for training buckets); any other count must already be `buckets`.
    pub fn with_buckets(self, buckets: usize) -> Result<FloatNet, String> {
        if self.buckets == buckets {
            return Ok(self);
        }
        if self.buckets != 1 {
            return Err(format!(
                "a network of {} output buckets cannot start one of {buckets}",
                self.buckets
            ));
        }
        if self.factorised {
            return Err("a factorised network keeps its output buckets".into());
        }
        let h = self.hidden;
        let out_start = self.layout.inputs() * h + h;
        let (body, output) = self.params.split_at(out_start);
        let (weights, bias) = output.split_at(2 * h);
        let mut params = body.to_vec();
        (0..buckets).for_each(|_| params.extend_from_slice(weights));
        params.extend(std::iter::repeat_n(bias[0], buckets));
        Ok(FloatNet {
            hidden: h,
            buckets,
            layout: self.layout,
            params,
            factorised: false,
        })
    }

    /// Input weights, hidden bias, and the output weights and bias of `bucket`.
    fn split(&self, bucket: usize) -> (&[f32], &[f32], &[f32], f32) {
        let h = self.hidden;
        let (w1, rest) = self.params.split_at(self.layout.inputs() * h);
        let (b1, rest) = rest.split_at(h);
        let (w2, b2) = rest.split_at(self.buckets * 2 * h);
        (w1, b1, &w2[bucket * 2 * h..][..2 * h], b2[bucket])
    }

    /// The output bucket of a position with these features (one per piece).
    fn bucket(&self, f: &Features) -> usize {
        output_bucket(f.len, self.buckets)
    }

    /// The hidden layer's input: bias plus the rows of the active features. The layer is
    /// summed a block at a time, the block held in registers while every row adds to it, so
    /// the sums are not stored and reloaded once per row.
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let (w1, b1, _, _) = self.split(0);
        let h = self.hidden;
        let blocked = h - h % ACC_BLOCK;
        for start in (0..blocked).step_by(ACC_BLOCK) {
            let mut sum: [f32; ACC_BLOCK] = b1[start..start + ACC_BLOCK].try_into().unwrap();
            add_rows(&mut sum, w1, h, start, features);
            acc[start..start + ACC_BLOCK].copy_from_slice(&sum);
        }
        let tail = &mut acc[blocked..h];
        tail.copy_from_slice(&b1[blocked..]);
        add_rows(tail, w1, h, blocked, features);
    }

    /// The raw output (1.0 = `SCALE` centipawns) for the side to move.
    pub fn output(&self, f: &Features, scratch: &mut Activations) -> f32 {
        let h = self.hidden;
        self.accumulate(&f.us[..f.len], &mut scratch.us);
        self.accumulate(&f.them[..f.len], &mut scratch.them);
        let (_, _, w2, b2) = self.split(self.bucket(f));
        b2 + screlu_dot(&scratch.us, &w2[..h]) + screlu_dot(&scratch.them, &w2[h..])
    }

    /// Adds the gradient of `|sigmoid(output · out_scale) − target|^power` to `grad`; returns
    /// the loss. `out_scale` is the factor the engine applies to the output (its material
    /// scale), so the fit is to what the search sees.
    pub fn backprop(
        &self,
        f: &Features,
        target: f32,
        power: f32,
        out_scale: f32,
        scratch: &mut Activations,
        grad: &mut [f32],
    ) -> f32 {
        let h = self.hidden;
        let out = self.output(f, scratch) * out_scale;
        let p = sigmoid(out);
        let (loss, slope) = error_loss(p - target, power);
        let g = slope * p * (1.0 - p) * out_scale;
        let bucket = self.bucket(f);
        let (_, _, w2, _) = self.split(bucket);
        let (gw1, rest) = grad.split_at_mut(self.layout.inputs() * h);
        let (gb1, rest) = rest.split_at_mut(h);
        let (gw2, gb2) = rest.split_at_mut(self.buckets * 2 * h);
        let gw2 = &mut gw2[bucket * 2 * h..][..2 * h];
        gb2[bucket] += g;
        let (gw2_us, gw2_them) = gw2.split_at_mut(h);
        for (acc, weights, gw, delta, features) in [
            (
                &scratch.us,
                &w2[..h],
                gw2_us,
                &mut scratch.d_us,
                &f.us[..f.len],
            ),
            (
                &scratch.them,
                &w2[h..],
                gw2_them,
                &mut scratch.d_them,
                &f.them[..f.len],
            ),
        ] {
            for (((&a, &w), gw), d) in acc
                .iter()
                .zip(weights)
                .zip(gw.iter_mut())
                .zip(delta.iter_mut())
            {
                *gw += g * screlu(a);
                *d = if a > 0.0 && a < 1.0 {
                    g * w * 2.0 * a
                } else {
                    0.0
                };
            }
            gb1.iter_mut().zip(delta.iter()).for_each(|(b, d)| *b += d);
            for &feat in features {
                let row = &mut gw1[feat as usize * h..(feat as usize + 1) * h];
                row.iter_mut().zip(delta.iter()).for_each(|(r, d)| *r += d);
            }
        }
        loss
    }

    pub fn clip(&mut self) {
        self.params
            .iter_mut()
            .for_each(|p| *p = p.clamp(-CLIP, CLIP));
    }

    /// The engine's network file: input layer ×QA, output weights ×QB, output bias ×QA·QB,
    /// and the score scale it was trained on (centipawns for an output of 1.0).
    pub fn quantise(&self, score_scale: f32) -> Vec<u8> {
        let h = self.hidden;
        let out_start = self.layout.inputs() * h + h;
        let out_end = out_start + self.buckets * 2 * h;
        let values: Vec<i16> = self.params[..self.file_values()]
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let scale = if i < out_start {
                    QA as f32
                } else if i < out_end {
                    QB as f32
                } else {
                    (QA * QB) as f32
                };
                (p * scale).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
            })
            .collect();
        file_image(
            h,
            self.buckets,
            self.layout,
            score_scale.round() as u32,
            &values,
        )
    }

    /// A checkpoint: the width, then (for more than one bucket, or a layout that is not plain)
    /// the bucket count with the layout's flags (`InputLayout::flags`, bit 0 mirroring) from
    /// bit 16, then the parameters as f32. One bucket in the plain layout is written as before
    /// buckets; the size tells them apart.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = (self.hidden as u32).to_le_bytes().to_vec();
        if self.buckets > 1 || !self.layout.is_plain() {
            let factorised = (self.factorised as u32) << FACTORISED_BIT;
            out.extend(
                (self.buckets as u32 | self.layout.flags() << 16 | factorised).to_le_bytes(),
            );
        }
        self.params.iter().for_each(|p| out.extend(p.to_le_bytes()));
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<FloatNet, String> {
        let word = |at: usize| -> Result<u32, String> {
            let b = bytes.get(at..at + 4).ok_or("checkpoint too short")?;
            Ok(u32::from_le_bytes(b.try_into().unwrap()))
        };
        let hidden = word(0)? as usize;
        let plain = InputLayout::PLAIN;
        let (buckets, layout, factorised, floats) =
            if bytes.len() == 4 + 4 * param_count(hidden, 1, plain) {
                (1, plain, false, &bytes[4..])
            } else {
                let word = word(4)?;
                let factorised = word >> FACTORISED_BIT & 1 != 0;
                let layout = InputLayout::from_flags(word >> 16 & !(1 << (FACTORISED_BIT - 16)))
                    .map_err(|flags| format!("checkpoint with unknown layout flags {flags:#x}"))?;
                ((word & 0xFFFF) as usize, layout, factorised, &bytes[8..])
            };
        let factor_rows = if factorised { INPUTS * hidden } else { 0 };
        if buckets == 0 || floats.len() != 4 * (param_count(hidden, buckets, layout) + factor_rows)
        {
            return Err(format!(
                "checkpoint of {} bytes does not hold a width-{hidden} net of {buckets} bucket(s)",
                bytes.len()
            ));
        }
        let params = floats
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(FloatNet {
            hidden,
            buckets,
            layout,
            params,
            factorised,
        })
    }
}

/// Per-thread work space for one position.
pub struct Activations {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Activations {
    pub fn new(hidden: usize) -> Activations {
        Activations {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::train::packed::pack;

    /// The output computed the plain way: every hidden unit summed on its own.
    fn naive_output(net: &FloatNet, f: &Features) -> f32 {
        let (w1, b1, w2, b2) = net.split(output_bucket(f.len, net.buckets));
        let h = net.hidden;
        let hidden = |features: &[u16], j: usize| -> f32 {
            b1[j]
                + features
                    .iter()
                    .map(|&i| w1[i as usize * h + j])
                    .sum::<f32>()
        };
        let side = |features: &[u16], weights: &[f32]| -> f32 {
            (0..h)
                .map(|j| screlu(hidden(features, j)) * weights[j])
                .sum()
        };
        b2 + side(&f.us[..f.len], &w2[..h]) + side(&f.them[..f.len], &w2[h..])
    }

    #[test]
    fn blocked_sums_equal_plain_ones_for_any_width() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        for (hidden, buckets) in [(8, 1), (64, 1), (72, 8), (130, 3)] {
            let net = FloatNet::random(hidden, buckets, 7);
            let mut scratch = Activations::new(hidden);
            for fen in fens {
                let pos = pack(&Board::from_fen(fen).unwrap(), 0, 0.5, 0);
                let f = Features::of(&pos, net.layout);
                let (fast, plain) = (net.output(&f, &mut scratch), naive_output(&net, &f));
                assert!(
                    (fast - plain).abs() < 1e-4,
                    "width {hidden}, {fen}: {fast} vs {plain}"
                );
            }
        }
    }

    /// The stored sums (bucket row + factor row) move as if the bucket rows and the factor
    /// rows were trained as separate parameters by the same optimiser, and a bucket no
    /// position used still moves with the factor.
    #[test]
    fn a_factorised_step_trains_bucket_rows_and_factor_rows_apart() {
        use crate::eval::nnue::KingBuckets;
        use crate::train::nnue::optimiser::AdamW;
        let four = InputLayout::mirrored(KingBuckets::Four);
        let h = 16;
        let mut net = FloatNet::random(h, 2, 5)
            .with_layout(four)
            .and_then(FloatNet::with_factoriser)
            .unwrap();
        // A factor of its own, so the decay of it shows.
        let start = net.file_values();
        for (i, p) in net.params[start..].iter_mut().enumerate() {
            *p = ((i % 7) as f32 - 3.0) * 0.01;
        }
        let rows = INPUTS * h;
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = pack(&Board::from_fen(fen).unwrap(), 0, 0.5, 0);
        let f = Features::of(&pos, four);
        let used = [
            usize::from(f.us[0]) / INPUTS,
            usize::from(f.them[0]) / INPUTS,
        ];
        let unused = (0..4).find(|b| !used.contains(b)).unwrap();
        let mut grad = vec![0.0; net.params.len()];
        let mut scratch = Activations::new(h);
        net.backprop(&f, 0.9, 2.0, 1.0, &mut scratch, &mut grad);
        net.factor_gradient(&mut grad);

        // The same step on separate parameters: bucket rows (sums minus factor), the rest.
        let factor = net.factor();
        let mut apart = net.params.clone();
        for bucket in apart[..4 * rows].chunks_exact_mut(rows) {
            bucket.iter_mut().zip(&factor).for_each(|(w, f)| *w -= f);
        }
        let (lr, wd) = (0.01, 0.01);
        AdamW::new(apart.len(), wd).step(&mut apart, &grad, lr, 1);

        let before = net.params.clone();
        AdamW::new(net.params.len(), wd).step(&mut net.params, &grad, lr, 1);
        net.follow_factor(&factor, 1.0 - lr * wd);
        let new_factor = &net.params[start..];
        for i in 0..net.params.len() {
            let expected = match i {
                i if i < 4 * rows => apart[i] + new_factor[i % rows],
                i => apart[i],
            };
            assert!(
                (net.params[i] - expected).abs() < 1e-6,
                "param {i}: {} vs {expected}",
                net.params[i]
            );
        }
        let moved = |b: usize| (b * rows..(b + 1) * rows).any(|i| net.params[i] != before[i]);
        assert!(
            moved(unused),
            "bucket {unused} did not move with the factor"
        );
        assert!(net.factor() != factor);
        // The file holds the sums; the checkpoint keeps the factor.
        assert_eq!(FloatNet::from_bytes(&net.to_bytes()).unwrap(), net);
        assert_eq!(
            net.quantise(400.0).len(),
            crate::eval::nnue::file_size(h, 2, four)
        );
    }

    #[test]
    fn backprop_gradient_equals_a_finite_difference_for_any_power() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let pos = pack(&Board::from_fen(fen).unwrap(), 0, 0.5, 0);
        let target = 0.9;
        for (power, out_scale) in [
            (2.0f32, 1.0f32),
            (2.5, 1.0),
            (3.0, 1.0),
            (2.0, 0.8),
            (2.5, 1.12),
        ] {
            let mut net = FloatNet::random(16, 1, 3);
            let f = Features::of(&pos, net.layout);
            let mut scratch = Activations::new(16);
            let mut grad = vec![0.0; net.params.len()];
            let loss = net.backprop(&f, target, power, out_scale, &mut scratch, &mut grad);
            let mut loss_at = |net: &FloatNet| {
                error_loss(
                    sigmoid(net.output(&f, &mut scratch) * out_scale) - target,
                    power,
                )
                .0
            };
            assert_eq!(loss, loss_at(&net));
            // The output bias, and the first-layer weight the loss is steepest in.
            let steepest = (0..INPUTS * 16)
                .max_by(|&a, &b| grad[a].abs().total_cmp(&grad[b].abs()))
                .unwrap();
            for i in [net.params.len() - 1, steepest] {
                let h = 1e-3;
                net.params[i] += h;
                let up = loss_at(&net);
                net.params[i] -= 2.0 * h;
                let down = loss_at(&net);
                net.params[i] += h;
                let numeric = (up - down) / (2.0 * h);
                assert!(
                    grad[i].abs() > 1e-4,
                    "power {power}, param {i}: no gradient"
                );
                assert!(
                    (numeric - grad[i]).abs() < 0.02 * grad[i].abs(),
                    "power {power}, param {i}: {} vs {numeric}",
                    grad[i]
                );
            }
        }
    }
}
