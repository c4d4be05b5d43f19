//! The neural evaluation: a (768·K → HIDDEN)×2 → 1 perspective network with SCReLU (K king
//! buckets), quantised to i16. Each side keeps an accumulator of its piece-square inputs, updated move by move
//! (see [`AccumulatorStack`]); the output layer reads the side to move's accumulator first.

mod accumulator;
mod features;
mod network;
mod scale;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{
    INPUTS, InputLayout, KingBuckets, MAX_BUCKETS, MAX_KING_BUCKETS, View, feature_index,
    output_bucket,
};
pub use network::{
    Network, NetworkError, default_network, default_network_bytes, file_image, file_size,
    header_len, value_count,
};
pub use scale::{
    DIVISOR as MATERIAL_DIVISOR, material_scale, material_scale_of, scale_by_material,
};
pub use simd::{Kernel, MAX_DOT_LEN};

// Width of the hidden layer (one accumulator per side), taken from the embedded network by
// `build.rs`: `make EVALFILE=<net>` builds an engine of that network's width.
include!(concat!(env!("OUT_DIR"), "/hidden.rs"));
/// Quantisation of the first layer: an activation of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
