//! Chooses the network embedded in the binary: `nets/default.nnue`, or the file named by the
//! `EVALFILE` environment variable (what OpenBench's `make EVALFILE=<path>` passes).

use std::path::PathBuf;

fn main() {
    commit();
    println!("cargo:rerun-if-env-changed=EVALFILE");
    println!("cargo:rerun-if-changed=nets/default.nnue");
    let source = match std::env::var("EVALFILE") {
        Ok(path) if !path.is_empty() => PathBuf::from(path),
        _ => PathBuf::from("nets/default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let bytes =
        std::fs::read(&source).unwrap_or_else(|e| panic!("network file {}: {e}", source.display()));
    if let Err(e) = check(&bytes) {
        panic!("network file {}: {e}", source.display());
    }
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The engine's hidden width is the embedded network's, so another width needs no edit.
    let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("checked header"));
    let width = format!(
        "/// Width of the hidden layer: the embedded network's.\npub const HIDDEN: usize = {hidden};\n"
    );
    std::fs::write(out_dir.join("hidden.rs"), width).expect("write to OUT_DIR");
    std::fs::write(out_dir.join("net.nnue"), bytes).expect("write to OUT_DIR");
}

/// The header checks of `eval::nnue::Network::from_bytes` (magic, size, checksum), so that a
/// wrong file stops the build instead of the engine.
fn check(bytes: &[u8]) -> Result<(), String> {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    // (buckets, king buckets, header length): QNNUE02 has one bucket and no bucket field,
    // QNNUE04 a flags field whose bits 1-2 number the king-bucket map (1 or 4 king buckets).
    let (buckets, king_buckets, header) = match bytes.get(..8) {
        Some(b"QNNUE02\0") if bytes.len() >= 20 => (1, 1, 20),
        Some(b"QNNUE03\0") if bytes.len() >= 24 => (word(12), 1, 24),
        Some(b"QNNUE04\0") if bytes.len() >= 28 => match word(16) >> 1 & 3 {
            0 => (word(12), 1, 28),
            1 => (word(12), 4, 28),
            map => return Err(format!("unknown king-bucket map {map}")),
        },
        _ => return Err("not a Quintessence network file".into()),
    };
    let hidden = word(8);
    // The output sum has no width limit (`Kernel::screlu_sum`); 1024 keeps the accumulator
    // stack (2·H i16 a ply, a thread) and each move's update within reason.
    if !(1..=1024).contains(&hidden) {
        return Err(format!("hidden width {hidden}: the engine takes 1 to 1024"));
    }
    if !(1..=16).contains(&buckets) {
        return Err(format!(
            "{buckets} output buckets: the engine takes 1 to 16"
        ));
    }
    let expected = header + 2 * (king_buckets * 768 * hidden + hidden + buckets * (2 * hidden + 1));
    if bytes.len() != expected {
        return Err(format!("{} bytes, expected {expected}", bytes.len()));
    }
    let sum = bytes[header..].iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    if sum as usize != word(header - 4) {
        return Err("checksum mismatch (damaged file)".into());
    }
    Ok(())
}

/// `QUINTESSENCE_COMMIT`: the commit built (`-dirty` with uncommitted changes to the sources),
/// or `unknown` outside a git checkout; `QUINTESSENCE_VERSION`: the version, with the commit
/// unless Cargo.toml names a release and the tree is clean; `QUINTESSENCE_RUSTC`: the compiler.
fn commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=7", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--",
                "src",
                "build.rs",
                "Cargo.toml",
                "nets",
            ])
            .is_some_and(|s| !s.is_empty());
            format!("{hash}{}", if dirty { "-dirty" } else { "" })
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=QUINTESSENCE_COMMIT={commit}");
    // The version is Cargo.toml's, not a git tag's (a clone may have no tags): a release commit
    // says `0.5.0`, every other commit the coming release's number with `-dev` (`0.5.0-dev`).
    // A development build, or one from a changed tree, adds the commit that names it.
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let release = !version.contains('-') && !commit.ends_with("-dirty");
    let full = if release {
        version
    } else {
        format!("{version}+{commit}")
    };
    println!("cargo:rustc-env=QUINTESSENCE_VERSION={full}");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=QUINTESSENCE_RUSTC={rustc_version}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
    }
    for path in ["src", "build.rs", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
