//! The network file: a header (magic, hidden width, output buckets, output scale, checksum)
//! and the quantised weights as little-endian i16, in the order the trainer writes them
//! (`train::nnue::net`).
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `QNNUE04\0` (`QNNUE03\0`: no flags field; `QNNUE02\0`: one output bucket, and no bucket field either) |
//! | 4 | hidden width `H` (u32) — must equal [`HIDDEN`] |
//! | 4 | output buckets `B` (u32, 1 to [`MAX_BUCKETS`]; absent in `QNNUE02`) |
//! | 4 | flags (u32; only in `QNNUE04`): bit 0, horizontal mirroring; bits 1–2, the king-bucket map `K` ([`InputLayout`]) |
//! | 4 | output scale: centipawns for an output of 1.0 (u32, 1 to 4000) |
//! | 4 | FNV-1a checksum of everything after the header (u32) |
//! | 2·K·768·H | input weights, input-major (row `i` = the `H` weights of input `i`, king bucket by king bucket), ×QA |
//! | 2·H | hidden biases, ×QA |
//! | 2·B·2H | output weights, bucket by bucket (side to move's half first), ×QB |
//! | 2·B | output biases, ×QA·QB |
//!
//! The bucket of a position is [`output_bucket`] of its piece count. Only a network with
//! mirroring or king buckets is written as `QNNUE04`, so engines from before it read every
//! other file.

use super::simd::Kernel;
use super::{HIDDEN, InputLayout, MAX_BUCKETS, QA, QB, output_bucket};
use std::fmt;
use std::sync::{Arc, LazyLock};

pub const MAGIC: [u8; 8] = *b"QNNUE03\0";
/// The format with a flags field, written for networks with mirroring or king buckets.
pub const MAGIC_FLAGS: [u8; 8] = *b"QNNUE04\0";
/// The format before output buckets, still read (and written for one bucket).
pub const MAGIC_ONE_BUCKET: [u8; 8] = *b"QNNUE02\0";
const MAX_SCALE: u32 = 4000;
/// The length of a `QNNUE04` header, whatever its flags.
const FLAGS_HEADER_LEN: usize = 28;

/// One hidden layer's worth of i16, aligned for wide loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// `layout.inputs()` rows.
    pub input_weights: Box<[Row]>,
    pub hidden_bias: Row,
    /// Per output bucket: `[0]` reads the side to move's accumulator, `[1]` the other side's.
    pub output_weights: Box<[[Row; 2]]>,
    /// Per output bucket.
    pub output_bias: Box<[i16]>,
    /// Centipawns for an output of 1.0 (the trainer's score scale).
    pub scale: i32,
    /// How each perspective's features depend on its king: mirroring and king buckets.
    pub layout: InputLayout,
    /// The hot loops' implementation, chosen for this CPU when the network is loaded.
    kernel: Kernel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    TooShort(usize),
    BadMagic,
    WrongWidth {
        found: u32,
        expected: usize,
    },
    BadScale(u32),
    BadBuckets(u32),
    BadFlags(u32),
    WrongSize {
        found: usize,
        expected: usize,
    },
    BadChecksum,
    /// An output weight outside ±127 would overflow the i16 product in [`Network::evaluate`].
    OutputWeightRange,
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NetworkError::TooShort(n) => write!(f, "{n} bytes is too short for a network file"),
            NetworkError::BadMagic => write!(f, "not a Quintessence network file (bad magic)"),
            NetworkError::WrongWidth { found, expected } => write!(
                f,
                "hidden width {found}, this build evaluates width {expected}"
            ),
            NetworkError::BadBuckets(buckets) => {
                write!(
                    f,
                    "{buckets} output buckets, the engine takes 1 to {MAX_BUCKETS}"
                )
            }
            NetworkError::BadFlags(flags) => write!(f, "unknown flags {flags:#x}"),
            NetworkError::BadScale(scale) => {
                write!(f, "output scale {scale} is outside 1 to {MAX_SCALE}")
            }
            NetworkError::WrongSize { found, expected } => {
                write!(
                    f,
                    "{found} bytes, expected {expected} (truncated or padded)"
                )
            }
            NetworkError::BadChecksum => write!(f, "checksum mismatch (damaged file)"),
            NetworkError::OutputWeightRange => write!(f, "output weight outside ±127"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// 32-bit FNV-1a.
pub fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The header's length: 28 bytes with mirroring or king buckets (`QNNUE04`), else 20 for one
/// output bucket (`QNNUE02`) and 24 for more (`QNNUE03`).
pub fn header_len(buckets: usize, layout: InputLayout) -> usize {
    if !layout.is_plain() {
        FLAGS_HEADER_LEN
    } else if buckets == 1 {
        20
    } else {
        24
    }
}

/// The number of i16 values after the header.
pub const fn value_count(hidden: usize, buckets: usize, layout: InputLayout) -> usize {
    layout.inputs() * hidden + hidden + buckets * (2 * hidden + 1)
}

/// The size of a network file of hidden width `hidden` with `buckets` output buckets.
pub fn file_size(hidden: usize, buckets: usize, layout: InputLayout) -> usize {
    header_len(buckets, layout) + 2 * value_count(hidden, buckets, layout)
}

/// A network file of hidden width `hidden`, `buckets` output buckets, input `layout` and
/// output scale `scale`, holding `values` in file order. A plain layout is written in the
/// older formats, which engines before the flags read too.
pub fn file_image(
    hidden: usize,
    buckets: usize,
    layout: InputLayout,
    scale: u32,
    values: &[i16],
) -> Vec<u8> {
    assert_eq!(values.len(), value_count(hidden, buckets, layout));
    let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut out = Vec::with_capacity(file_size(hidden, buckets, layout));
    if !layout.is_plain() {
        out.extend(MAGIC_FLAGS);
        out.extend((hidden as u32).to_le_bytes());
        out.extend((buckets as u32).to_le_bytes());
        out.extend(layout.flags().to_le_bytes());
    } else if buckets == 1 {
        out.extend(MAGIC_ONE_BUCKET);
        out.extend((hidden as u32).to_le_bytes());
    } else {
        out.extend(MAGIC);
        out.extend((hidden as u32).to_le_bytes());
        out.extend((buckets as u32).to_le_bytes());
    }
    out.extend(scale.to_le_bytes());
    out.extend(checksum(&payload).to_le_bytes());
    out.extend(payload);
    out
}

impl Network {
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < header_len(1, InputLayout::PLAIN) {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let (buckets, layout) = if bytes[..8] == MAGIC_ONE_BUCKET {
            (1, InputLayout::PLAIN)
        } else if bytes[..8] == MAGIC {
            if bytes.len() < header_len(2, InputLayout::PLAIN) {
                return Err(NetworkError::TooShort(bytes.len()));
            }
            (word(12), InputLayout::PLAIN)
        } else if bytes[..8] == MAGIC_FLAGS {
            if bytes.len() < FLAGS_HEADER_LEN {
                return Err(NetworkError::TooShort(bytes.len()));
            }
            let layout = InputLayout::from_flags(word(16)).map_err(NetworkError::BadFlags)?;
            (word(12), layout)
        } else {
            return Err(NetworkError::BadMagic);
        };
        if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
            return Err(NetworkError::BadBuckets(buckets));
        }
        let buckets = buckets as usize;
        // The header's own length: a `QNNUE04` file is read as written even without the flag.
        let header = match bytes[..8] == MAGIC_FLAGS {
            true => FLAGS_HEADER_LEN,
            false => header_len(buckets, InputLayout::PLAIN),
        };
        let width = word(8);
        if width as usize != HIDDEN {
            return Err(NetworkError::WrongWidth {
                found: width,
                expected: HIDDEN,
            });
        }
        let expected = header + 2 * value_count(HIDDEN, buckets, layout);
        if bytes.len() != expected {
            return Err(NetworkError::WrongSize {
                found: bytes.len(),
                expected,
            });
        }
        let scale = word(header - 8);
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(NetworkError::BadScale(scale));
        }
        let payload = &bytes[header..];
        if checksum(payload) != word(header - 4) {
            return Err(NetworkError::BadChecksum);
        }
        let mut values = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = Row([0; HIDDEN]);
            r.0.iter_mut().for_each(|w| *w = values.next().unwrap());
            r
        };
        let input_weights: Box<[Row]> = (0..layout.inputs()).map(|_| row()).collect();
        let hidden_bias = row();
        let output_weights: Box<[[Row; 2]]> = (0..buckets).map(|_| [row(), row()]).collect();
        let output_bias: Box<[i16]> = values.by_ref().take(buckets).collect();
        let in_range = |r: &Row| r.0.iter().all(|w| w.unsigned_abs() <= 127);
        if !output_weights.iter().flatten().all(in_range) {
            return Err(NetworkError::OutputWeightRange);
        }
        Ok(Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale: scale as i32,
            layout,
            kernel: Kernel::detected(),
        })
    }

    /// The file image of this network (what [`Network::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let values: Vec<i16> = self
            .input_weights
            .iter()
            .chain(std::iter::once(&self.hidden_bias))
            .chain(self.output_weights.iter().flatten())
            .flat_map(|r| r.0)
            .chain(self.output_bias.iter().copied())
            .collect();
        file_image(
            HIDDEN,
            self.buckets(),
            self.layout,
            self.scale as u32,
            &values,
        )
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The output bucket of a position with `pieces` pieces (kings included).
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets())
    }

    /// The kernel this network's accumulators and output use.
    #[inline(always)]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The same network run by `kernel` (to compare kernels).
    pub fn with_kernel(self, kernel: Kernel) -> Network {
        Network { kernel, ..self }
    }

    /// The score in centipawns for the side to move, from the two sides' accumulators, by the
    /// output layer of `bucket`.
    ///
    /// SCReLU: `clamp(v, 0, QA)² · w`, computed as `(c·w)·c` so the first product stays in
    /// i16 (|c·w| ≤ 255·127, the loader refuses larger output weights) and vectorises as
    /// multiply-then-multiply-add; each side's sum is taken in i32 256 units at a time
    /// ([`Kernel::screlu_sum`]).
    #[inline]
    pub fn evaluate(&self, us: &Row, them: &Row, bucket: usize) -> i32 {
        let half = |acc: &Row, weights: &Row| self.kernel.screlu_sum(&acc.0, &weights.0);
        let [w_us, w_them] = &self.output_weights[bucket];
        let sum = half(us, w_us) + half(them, w_them);
        let out = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (out * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }
}

/// `nets/default.nnue`, or the `EVALFILE` given to the build (see `build.rs`).
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/net.nnue"));

/// The embedded network's file.
pub fn default_network_bytes() -> &'static [u8] {
    EMBEDDED
}

/// The network built into the binary.
pub fn default_network() -> Arc<Network> {
    static NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))
    });
    NET.clone()
}
