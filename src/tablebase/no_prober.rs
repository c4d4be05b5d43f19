//! Where pyrrhic-rs does not build (aarch64 Linux, whose C `char` is unsigned): no prober.
//! `SyzygyPath` then answers that this build cannot probe, and the engine plays on without.

use super::{Pieces, RootProbe, Wdl};
use crate::types::Move;

pub enum Prober {}

impl Prober {
    pub fn open(_path: &str) -> Result<Prober, String> {
        Err(format!(
            "SyzygyPath: this build ({}) cannot probe Syzygy tables",
            std::env::consts::ARCH
        ))
    }

    pub fn wdl(&self, _: &Pieces) -> Option<Wdl> {
        match *self {}
    }

    pub fn root(&self, _: &Pieces, _: u16, _: &[Move]) -> Option<RootProbe> {
        match *self {}
    }
}
