//! What a bug report needs to know about this binary: version and commit, compiler, the CPU
//! level it was built for, its network and the vector kernel chosen on this CPU (the
//! `compiler` command prints them all).

use crate::eval::nnue::{Network, default_network, default_network_bytes, header_len};

/// `0.5.0` for a release commit (Cargo.toml's version has no `-dev`), `0.5.0-dev+9c926fb` for any
/// other build (from `build.rs`).
pub const VERSION: &str = env!("QUINTESSENCE_VERSION");
/// The commit built, `-dirty` with uncommitted changes to the sources.
pub const COMMIT: &str = env!("QUINTESSENCE_COMMIT");
pub const RUSTC: &str = env!("QUINTESSENCE_RUSTC");

/// The x86-64 micro-architecture level the binary was compiled for (what it needs to run).
pub fn cpu_level() -> &'static str {
    if cfg!(not(target_arch = "x86_64")) {
        std::env::consts::ARCH
    } else if cfg!(all(target_feature = "avx512f", target_feature = "avx512bw")) {
        "x86-64-v4"
    } else if cfg!(all(target_feature = "avx2", target_feature = "bmi2")) {
        "x86-64-v3"
    } else if cfg!(all(target_feature = "sse4.2", target_feature = "popcnt")) {
        "x86-64-v2"
    } else {
        "x86-64"
    }
}

/// The embedded network's checksum (the FNV-1a word of its header), which names the file.
pub fn embedded_network_checksum() -> u32 {
    let bytes = default_network_bytes();
    let net = default_network();
    let at = header_len(net.buckets(), net.layout) - 4;
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("checked by build.rs"))
}

/// The `compiler` lines; `network` is the one in use and `source` says where it came from.
pub fn lines(network: &Network, source: &str) -> Vec<String> {
    vec![
        format!("Quintessence {VERSION}"),
        format!("commit      : {COMMIT}"),
        format!("compiler    : {RUSTC}"),
        format!(
            "target      : {} {} ({})",
            std::env::consts::ARCH,
            std::env::consts::OS,
            cpu_level()
        ),
        format!(
            "network     : {source}, hidden {}, output buckets {}, embedded checksum {:08x}",
            crate::eval::nnue::HIDDEN,
            network.buckets(),
            embedded_network_checksum()
        ),
        format!("nnue kernel : {}", network.kernel().name()),
    ]
}
