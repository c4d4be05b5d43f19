//! The network's two hot loops — accumulator updates and the SCReLU output dot product — in
//! plain Rust and, on x86-64 CPUs that have it, in AVX2, chosen at run time: a portable
//! (x86-64-v2) build still uses AVX2 where the CPU has it, and the plain loops where it has not.
//!
//! Both give identical results for every input: the updates wrap in i16 like the vector adds,
//! and the dot product's i32 sum cannot overflow (see [`Kernel::screlu_dot`]), so summation
//! order does not matter. All `unsafe` of the network lives in this file.

use super::QA;

/// Longest slice [`Kernel::screlu_dot`] takes: the bound of its i32 sum.
pub const MAX_DOT_LEN: usize = 256;

/// A set of implementations of the hot loops. Only [`Kernel::SCALAR`] and what
/// [`Kernel::detected`] / [`Kernel::avx2`] return exist, so holding an AVX2 kernel proves the
/// CPU has AVX2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// Plain Rust loops (vectorised by the compiler for the build's target).
    pub const SCALAR: Kernel = Kernel(Isa::Scalar);

    /// The AVX2 kernel, if this CPU has AVX2.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Kernel(Isa::Avx2));
        }
        None
    }

    /// The fastest kernel this CPU runs. A network picks it once, when it is loaded.
    pub fn detected() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::SCALAR)
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
        }
    }

    /// `acc += row`, wrapping in i16.
    #[inline]
    pub fn add_assign(self, acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        match self.0 {
            Isa::Scalar => scalar::add_assign(acc, row),
            // SAFETY: an `Avx2` kernel exists only when the CPU has AVX2 (`Kernel::avx2`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::add_assign(acc, row) },
        }
    }

    /// `acc -= row`, wrapping in i16.
    #[inline]
    pub fn sub_assign(self, acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        match self.0 {
            Isa::Scalar => scalar::sub_assign(acc, row),
            // SAFETY: an `Avx2` kernel exists only when the CPU has AVX2 (`Kernel::avx2`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::sub_assign(acc, row) },
        }
    }

    /// `out = from + add - sub`, wrapping in i16 (one pass for the common quiet move).
    #[inline]
    pub fn add_sub(self, out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
        assert!(out.len() == from.len() && out.len() == add.len() && out.len() == sub.len());
        match self.0 {
            Isa::Scalar => scalar::add_sub(out, from, add, sub),
            // SAFETY: an `Avx2` kernel exists only when the CPU has AVX2 (`Kernel::avx2`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::add_sub(out, from, add, sub) },
        }
    }

    /// `Σ clamp(v, 0, QA)² · w`, computed as `(c·w)·c` with `c·w` taken in i16 (wrapping;
    /// exact when |w| ≤ 127, which the network loader checks: |c·w| ≤ 255·127 < 2¹⁵).
    /// Each term is then at most 2¹⁵·255 in size, so a sum of at most [`MAX_DOT_LEN`] terms
    /// stays within i32 whatever the inputs.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16]) -> i32 {
        assert!(acc.len() == weights.len() && acc.len() <= MAX_DOT_LEN);
        match self.0 {
            Isa::Scalar => scalar::screlu_dot(acc, weights),
            // SAFETY: an `Avx2` kernel exists only when the CPU has AVX2 (`Kernel::avx2`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::screlu_dot(acc, weights) },
        }
    }
}

/// The reference loops; also the vector kernels' tails. Callers check the lengths.
mod scalar {
    use super::QA;

    #[inline(always)]
    pub fn add_assign(acc: &mut [i16], row: &[i16]) {
        acc.iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a = a.wrapping_add(w));
    }

    #[inline(always)]
    pub fn sub_assign(acc: &mut [i16], row: &[i16]) {
        acc.iter_mut()
            .zip(row)
            .for_each(|(a, &w)| *a = a.wrapping_sub(w));
    }

    #[inline(always)]
    pub fn add_sub(out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
        for (((o, &f), &a), &s) in out.iter_mut().zip(from).zip(add).zip(sub) {
            *o = f.wrapping_add(a).wrapping_sub(s);
        }
    }

    #[inline(always)]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        acc.iter()
            .zip(weights)
            .map(|(&v, &w)| {
                let c = v.clamp(0, QA as i16);
                i32::from(c.wrapping_mul(w)) * i32::from(c)
            })
            .sum()
    }
}

/// AVX2: sixteen i16 lanes per register, the last `len % 16` elements by the scalar loops.
/// Each function needs AVX2 (the reason it is unsafe to call) and slices of the lengths
/// [`Kernel`] checks; the loads and stores go through whole 16-element chunks.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{QA, scalar};
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// # Safety
    /// A 16-element chunk: 32 readable bytes (`loadu` takes any alignment), and AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(chunk: &[i16]) -> __m256i {
        debug_assert_eq!(chunk.len(), LANES);
        // SAFETY: the caller passes 16 i16 = 32 bytes.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
    }

    /// # Safety
    /// A 16-element chunk: 32 writable bytes (`storeu` takes any alignment), and AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(chunk: &mut [i16], v: __m256i) {
        debug_assert_eq!(chunk.len(), LANES);
        // SAFETY: the caller passes 16 i16 = 32 bytes.
        unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), v) }
    }

    #[target_feature(enable = "avx2")]
    pub fn add_assign(acc: &mut [i16], row: &[i16]) {
        let split = acc.len() - acc.len() % LANES;
        let (body, tail) = acc.split_at_mut(split);
        for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
            // SAFETY: `chunks_exact` gives 16-element chunks (`row` is as long as `acc`).
            unsafe { store(a, _mm256_add_epi16(load(a), load(w))) };
        }
        scalar::add_assign(tail, &row[split..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_assign(acc: &mut [i16], row: &[i16]) {
        let split = acc.len() - acc.len() % LANES;
        let (body, tail) = acc.split_at_mut(split);
        for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
            // SAFETY: `chunks_exact` gives 16-element chunks (`row` is as long as `acc`).
            unsafe { store(a, _mm256_sub_epi16(load(a), load(w))) };
        }
        scalar::sub_assign(tail, &row[split..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn add_sub(out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
        let split = out.len() - out.len() % LANES;
        let (body, tail) = out.split_at_mut(split);
        let inputs = from
            .chunks_exact(LANES)
            .zip(add.chunks_exact(LANES))
            .zip(sub.chunks_exact(LANES));
        for (o, ((f, a), s)) in body.chunks_exact_mut(LANES).zip(inputs) {
            // SAFETY: `chunks_exact` gives 16-element chunks (all four slices are as long).
            unsafe {
                let v = _mm256_sub_epi16(_mm256_add_epi16(load(f), load(a)), load(s));
                store(o, v);
            }
        }
        scalar::add_sub(tail, &from[split..], &add[split..], &sub[split..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let split = acc.len() - acc.len() % LANES;
        let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut sum = _mm256_setzero_si256();
        for (v, w) in acc[..split]
            .chunks_exact(LANES)
            .zip(weights.chunks_exact(LANES))
        {
            // SAFETY: `chunks_exact` gives 16-element chunks (`weights` is as long as `acc`).
            let (v, w) = unsafe { (load(v), load(w)) };
            let c = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
            // The low 16 bits of c·w (c·w's i16 wrap, as in the scalar loop), then
            // (c·w)·c summed in pairs into i32 lanes.
            let cw = _mm256_mullo_epi16(c, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
        }
        horizontal_sum(sum).wrapping_add(scalar::screlu_dot(&acc[split..], &weights[split..]))
    }

    #[target_feature(enable = "avx2")]
    fn horizontal_sum(v: __m256i) -> i32 {
        let x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
        _mm_cvtsi128_si32(x)
    }
}
