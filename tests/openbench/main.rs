//! What OpenBench asks of an engine beyond `make` and `bench`, through the real binary: the
//! `genfens` opening request, the SPSA input lines, and its data-generation PGNs turned into
//! training chunks.

mod from_pgn;
mod genfens;
mod spsa_input;

use std::path::PathBuf;
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_quintessence");

/// A scratch directory for one test, removed at the end.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!(
            "quintessence-openbench-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the binary in `dir` (so no `engine-config/` is read).
pub fn run_in(dir: &TempDir, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(&dir.0)
        .output()
        .expect("the binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
