//! The network's two hot loops — accumulator updates and the SCReLU output dot product — in
//! plain Rust and, on x86-64 CPUs that have them, in AVX2 and AVX-512, chosen at run time: a
//! portable (x86-64-v2) build still uses the widest vectors the CPU has, and the plain loops
//! where it has neither. On aarch64, NEON (which every such CPU has).
//!
//! All give identical results for every input: the updates wrap in i16 like the vector adds,
//! and the dot product's i32 sum cannot overflow (see [`Kernel::screlu_dot`]), so summation
//! order does not matter. All `unsafe` of the network lives in this file.

use super::QA;

/// Longest slice [`Kernel::screlu_dot`] takes: the bound of its i32 sum.
pub const MAX_DOT_LEN: usize = 256;

/// A set of implementations of the hot loops. Only [`Kernel::SCALAR`] and what
/// [`Kernel::detected`], [`Kernel::avx2`], [`Kernel::avx512`] and [`Kernel::neon`] return
/// exist, so holding a vector kernel proves the CPU has its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "aarch64")]
    Neon,
}

/// Calls `$f` of the kernel's module: the one place that turns a kernel into its code.
macro_rules! dispatch {
    ($kernel:expr, $f:ident($($arg:expr),*)) => {
        match $kernel.0 {
            Isa::Scalar => scalar::$f($($arg),*),
            // SAFETY: an `Avx2` kernel exists only when the CPU has AVX2 (`Kernel::avx2`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::$f($($arg),*) },
            // SAFETY: an `Avx512` kernel exists only when the CPU has AVX-512 F and BW
            // (`Kernel::avx512`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::$f($($arg),*) },
            // SAFETY: a `Neon` kernel exists only when the CPU has NEON (`Kernel::neon`).
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => unsafe { neon::$f($($arg),*) },
        }
    };
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

    /// The AVX-512 kernel (32 i16 lanes; needs the F and BW subsets), if this CPU has it.
    pub fn avx512() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Some(Kernel(Isa::Avx512));
        }
        None
    }

    /// The NEON kernel (8 i16 lanes), on aarch64 CPUs (all of which have NEON).
    pub fn neon() -> Option<Kernel> {
        #[cfg(target_arch = "aarch64")]
        if std::arch::is_aarch64_feature_detected!("neon") {
            return Some(Kernel(Isa::Neon));
        }
        None
    }

    /// Every kernel this CPU runs, the plain one first and the widest last.
    pub fn available() -> Vec<Kernel> {
        std::iter::once(Kernel::SCALAR)
            .chain(Kernel::neon())
            .chain(Kernel::avx2())
            .chain(Kernel::avx512())
            .collect()
    }

    /// The fastest kernel this CPU runs. A network picks it once, when it is loaded.
    pub fn detected() -> Kernel {
        Kernel::avx512()
            .or_else(Kernel::avx2)
            .or_else(Kernel::neon)
            .unwrap_or(Kernel::SCALAR)
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => "avx512",
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => "neon",
        }
    }

    /// `acc += row`, wrapping in i16.
    #[inline]
    pub fn add_assign(self, acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        dispatch!(self, add_assign(acc, row))
    }

    /// `acc -= row`, wrapping in i16.
    #[inline]
    pub fn sub_assign(self, acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        dispatch!(self, sub_assign(acc, row))
    }

    /// `out = from + add - sub`, wrapping in i16 (one pass for the common quiet move).
    #[inline]
    pub fn add_sub(self, out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
        assert!(out.len() == from.len() && out.len() == add.len() && out.len() == sub.len());
        dispatch!(self, add_sub(out, from, add, sub))
    }

    /// `out = from + add - sub1 - sub2`, wrapping in i16 (one pass for a capture).
    #[inline]
    pub fn add_sub_sub(self, out: &mut [i16], from: &[i16], add: &[i16], subs: [&[i16]; 2]) {
        let n = out.len();
        assert!(from.len() == n && add.len() == n && subs[0].len() == n && subs[1].len() == n);
        dispatch!(self, add_sub_sub(out, from, add, subs[0], subs[1]))
    }

    /// `Σ clamp(v, 0, QA)² · w`, computed as `(c·w)·c` with `c·w` taken in i16 (wrapping;
    /// exact when |w| ≤ 127, which the network loader checks: |c·w| ≤ 255·127 < 2¹⁵).
    /// Each term is then at most 2¹⁵·255 in size, so a sum of at most [`MAX_DOT_LEN`] terms
    /// stays within i32 whatever the inputs.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16]) -> i32 {
        assert!(acc.len() == weights.len() && acc.len() <= MAX_DOT_LEN);
        dispatch!(self, screlu_dot(acc, weights))
    }

    /// [`Kernel::screlu_dot`] of any length: i32 sums of [`MAX_DOT_LEN`] terms at a time,
    /// added in i64, so networks wider than 256 cannot overflow (up to 256 it is one call).
    #[inline]
    pub fn screlu_sum(self, acc: &[i16], weights: &[i16]) -> i64 {
        assert_eq!(acc.len(), weights.len());
        // A constant length folds this away; the loop over one chunk cost 2-3 % of `bench` nps.
        if acc.len() <= MAX_DOT_LEN {
            return i64::from(self.screlu_dot(acc, weights));
        }
        acc.chunks(MAX_DOT_LEN)
            .zip(weights.chunks(MAX_DOT_LEN))
            .map(|(acc, weights)| i64::from(self.screlu_dot(acc, weights)))
            .sum()
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
    pub fn add_sub_sub(out: &mut [i16], from: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        let inputs = from.iter().zip(add).zip(sub1).zip(sub2);
        for (o, (((&f, &a), &s1), &s2)) in out.iter_mut().zip(inputs) {
            *o = f.wrapping_add(a).wrapping_sub(s1).wrapping_sub(s2);
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

/// A vector kernel module: `$lanes` i16 lanes per register, the last `len % $lanes` elements
/// by the scalar loops. Each function needs the CPU features `$features` (the reason it is
/// unsafe to call) and slices of the lengths [`Kernel`] checks; loads and stores go through
/// whole chunks of `$lanes` elements.
macro_rules! vector_kernel {
    (
        $name:ident: $features:literal, $lanes:literal lanes of $v:ty,
        load $load:ident, store $store:ident, add $add:ident, sub $sub:ident,
        max $max:ident, min $min:ident, mullo $mullo:ident, madd $madd:ident,
        add32 $add32:ident, splat $splat:ident, zero $zero:ident,
        reduce |$r:ident| $reduce:block
    ) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::{QA, scalar};
            use std::arch::x86_64::*;

            const LANES: usize = $lanes;

            /// # Safety
            /// A chunk of `LANES` elements, readable (`loadu` takes any alignment), and the
            /// kernel's CPU features.
            #[inline]
            #[target_feature(enable = $features)]
            unsafe fn load(chunk: &[i16]) -> $v {
                debug_assert_eq!(chunk.len(), LANES);
                // SAFETY: the caller passes `LANES` i16, one whole vector.
                unsafe { $load(chunk.as_ptr().cast()) }
            }

            /// # Safety
            /// A chunk of `LANES` elements, writable (`storeu` takes any alignment), and the
            /// kernel's CPU features.
            #[inline]
            #[target_feature(enable = $features)]
            unsafe fn store(chunk: &mut [i16], v: $v) {
                debug_assert_eq!(chunk.len(), LANES);
                // SAFETY: the caller passes `LANES` i16, one whole vector.
                unsafe { $store(chunk.as_mut_ptr().cast(), v) }
            }

            #[target_feature(enable = $features)]
            pub fn add_assign(acc: &mut [i16], row: &[i16]) {
                let split = acc.len() - acc.len() % LANES;
                let (body, tail) = acc.split_at_mut(split);
                for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                    // SAFETY: `chunks_exact` gives whole chunks (`row` is as long as `acc`).
                    unsafe { store(a, $add(load(a), load(w))) };
                }
                scalar::add_assign(tail, &row[split..]);
            }

            #[target_feature(enable = $features)]
            pub fn sub_assign(acc: &mut [i16], row: &[i16]) {
                let split = acc.len() - acc.len() % LANES;
                let (body, tail) = acc.split_at_mut(split);
                for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                    // SAFETY: `chunks_exact` gives whole chunks (`row` is as long as `acc`).
                    unsafe { store(a, $sub(load(a), load(w))) };
                }
                scalar::sub_assign(tail, &row[split..]);
            }

            #[target_feature(enable = $features)]
            pub fn add_sub(out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
                let split = out.len() - out.len() % LANES;
                let (body, tail) = out.split_at_mut(split);
                let inputs = from
                    .chunks_exact(LANES)
                    .zip(add.chunks_exact(LANES))
                    .zip(sub.chunks_exact(LANES));
                for (o, ((f, a), s)) in body.chunks_exact_mut(LANES).zip(inputs) {
                    // SAFETY: `chunks_exact` gives whole chunks (all four slices are as long).
                    unsafe { store(o, $sub($add(load(f), load(a)), load(s))) };
                }
                scalar::add_sub(tail, &from[split..], &add[split..], &sub[split..]);
            }

            #[target_feature(enable = $features)]
            pub fn add_sub_sub(
                out: &mut [i16],
                from: &[i16],
                add: &[i16],
                sub1: &[i16],
                sub2: &[i16],
            ) {
                let split = out.len() - out.len() % LANES;
                let (body, tail) = out.split_at_mut(split);
                let inputs = from
                    .chunks_exact(LANES)
                    .zip(add.chunks_exact(LANES))
                    .zip(sub1.chunks_exact(LANES))
                    .zip(sub2.chunks_exact(LANES));
                for (o, (((f, a), s1), s2)) in body.chunks_exact_mut(LANES).zip(inputs) {
                    // SAFETY: `chunks_exact` gives whole chunks (all five slices are as long).
                    unsafe { store(o, $sub($sub($add(load(f), load(a)), load(s1)), load(s2))) };
                }
                let (f, a) = (&from[split..], &add[split..]);
                scalar::add_sub_sub(tail, f, a, &sub1[split..], &sub2[split..]);
            }

            #[target_feature(enable = $features)]
            pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
                let split = acc.len() - acc.len() % LANES;
                let (zero, qa) = ($zero(), $splat(QA as i16));
                let mut sum = $zero();
                for (v, w) in acc[..split]
                    .chunks_exact(LANES)
                    .zip(weights.chunks_exact(LANES))
                {
                    // SAFETY: `chunks_exact` gives whole chunks (`weights` is as long as `acc`).
                    let (v, w) = unsafe { (load(v), load(w)) };
                    let c = $min($max(v, zero), qa);
                    // The low 16 bits of c·w (c·w's i16 wrap, as in the scalar loop), then
                    // (c·w)·c summed in pairs into i32 lanes.
                    sum = $add32(sum, $madd($mullo(c, w), c));
                }
                reduce(sum).wrapping_add(scalar::screlu_dot(&acc[split..], &weights[split..]))
            }

            /// The sum of the i32 lanes (wrapping, like the scalar sum's bound allows).
            #[inline]
            #[target_feature(enable = $features)]
            fn reduce($r: $v) -> i32 $reduce
        }
    };
}

vector_kernel! {
    avx2: "avx2", 16 lanes of __m256i,
    load _mm256_loadu_si256, store _mm256_storeu_si256, add _mm256_add_epi16,
    sub _mm256_sub_epi16, max _mm256_max_epi16, min _mm256_min_epi16,
    mullo _mm256_mullo_epi16, madd _mm256_madd_epi16, add32 _mm256_add_epi32,
    splat _mm256_set1_epi16, zero _mm256_setzero_si256,
    reduce |v| {
        let x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
        _mm_cvtsi128_si32(x)
    }
}

vector_kernel! {
    avx512: "avx512f,avx512bw", 32 lanes of __m512i,
    load _mm512_loadu_si512, store _mm512_storeu_si512, add _mm512_add_epi16,
    sub _mm512_sub_epi16, max _mm512_max_epi16, min _mm512_min_epi16,
    mullo _mm512_mullo_epi16, madd _mm512_madd_epi16, add32 _mm512_add_epi32,
    splat _mm512_set1_epi16, zero _mm512_setzero_si512,
    reduce |v| { _mm512_reduce_add_epi32(v) }
}

/// The kernel for aarch64: 8 i16 lanes of `int16x8_t`, the tails by the scalar loops. Each
/// function needs NEON (the reason it is unsafe to call) and slices of the lengths [`Kernel`]
/// checks; loads and stores go through whole chunks of `LANES` elements.
#[cfg(target_arch = "aarch64")]
mod neon {
    use super::{QA, scalar};
    use std::arch::aarch64::*;

    const LANES: usize = 8;

    /// # Safety
    /// A chunk of `LANES` elements (`vld1q` takes any alignment of i16), and NEON.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn load(chunk: &[i16]) -> int16x8_t {
        debug_assert_eq!(chunk.len(), LANES);
        // SAFETY: the caller passes `LANES` i16, one whole vector.
        unsafe { vld1q_s16(chunk.as_ptr()) }
    }

    /// # Safety
    /// A chunk of `LANES` elements, writable, and NEON.
    #[inline]
    #[target_feature(enable = "neon")]
    unsafe fn store(chunk: &mut [i16], v: int16x8_t) {
        debug_assert_eq!(chunk.len(), LANES);
        // SAFETY: the caller passes `LANES` i16, one whole vector.
        unsafe { vst1q_s16(chunk.as_mut_ptr(), v) }
    }

    #[target_feature(enable = "neon")]
    pub fn add_assign(acc: &mut [i16], row: &[i16]) {
        let split = acc.len() - acc.len() % LANES;
        let (body, tail) = acc.split_at_mut(split);
        for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
            // SAFETY: `chunks_exact` gives whole chunks (`row` is as long as `acc`).
            unsafe { store(a, vaddq_s16(load(a), load(w))) };
        }
        scalar::add_assign(tail, &row[split..]);
    }

    #[target_feature(enable = "neon")]
    pub fn sub_assign(acc: &mut [i16], row: &[i16]) {
        let split = acc.len() - acc.len() % LANES;
        let (body, tail) = acc.split_at_mut(split);
        for (a, w) in body.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
            // SAFETY: `chunks_exact` gives whole chunks (`row` is as long as `acc`).
            unsafe { store(a, vsubq_s16(load(a), load(w))) };
        }
        scalar::sub_assign(tail, &row[split..]);
    }

    #[target_feature(enable = "neon")]
    pub fn add_sub(out: &mut [i16], from: &[i16], add: &[i16], sub: &[i16]) {
        let split = out.len() - out.len() % LANES;
        let (body, tail) = out.split_at_mut(split);
        let inputs = from
            .chunks_exact(LANES)
            .zip(add.chunks_exact(LANES))
            .zip(sub.chunks_exact(LANES));
        for (o, ((f, a), s)) in body.chunks_exact_mut(LANES).zip(inputs) {
            // SAFETY: `chunks_exact` gives whole chunks (all four slices are as long).
            unsafe { store(o, vsubq_s16(vaddq_s16(load(f), load(a)), load(s))) };
        }
        scalar::add_sub(tail, &from[split..], &add[split..], &sub[split..]);
    }

    #[target_feature(enable = "neon")]
    pub fn add_sub_sub(out: &mut [i16], from: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
        let split = out.len() - out.len() % LANES;
        let (body, tail) = out.split_at_mut(split);
        let inputs = from
            .chunks_exact(LANES)
            .zip(add.chunks_exact(LANES))
            .zip(sub1.chunks_exact(LANES))
            .zip(sub2.chunks_exact(LANES));
        for (o, (((f, a), s1), s2)) in body.chunks_exact_mut(LANES).zip(inputs) {
            // SAFETY: `chunks_exact` gives whole chunks (all five slices are as long).
            unsafe {
                let v = vsubq_s16(vaddq_s16(load(f), load(a)), load(s1));
                store(o, vsubq_s16(v, load(s2)));
            }
        }
        let (f, a) = (&from[split..], &add[split..]);
        scalar::add_sub_sub(tail, f, a, &sub1[split..], &sub2[split..]);
    }

    #[target_feature(enable = "neon")]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let split = acc.len() - acc.len() % LANES;
        let (zero, qa) = (vdupq_n_s16(0), vdupq_n_s16(QA as i16));
        let mut sum = vdupq_n_s32(0);
        for (v, w) in acc[..split]
            .chunks_exact(LANES)
            .zip(weights.chunks_exact(LANES))
        {
            // SAFETY: `chunks_exact` gives whole chunks (`weights` is as long as `acc`).
            let (v, w) = unsafe { (load(v), load(w)) };
            let c = vminq_s16(vmaxq_s16(v, zero), qa);
            // c·w wrapped to i16 (as the scalar loop), then (c·w)·c widened and summed into
            // i32 lanes, low half and high half.
            let cw = vmulq_s16(c, w);
            sum = vmlal_s16(sum, vget_low_s16(cw), vget_low_s16(c));
            sum = vmlal_high_s16(sum, cw, c);
        }
        vaddvq_s32(sum).wrapping_add(scalar::screlu_dot(&acc[split..], &weights[split..]))
    }
}
