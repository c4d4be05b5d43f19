use super::{
    Classical, ClassicalCalc, Dumb7Fill, Hyperbola, KoggeStone, Magic, Pext, Rotated, SliderAttacks,
};
use std::fmt;

/// The sliding-attack technique chosen at run time (`Attacks` option, `--attacks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Classical,
    ClassicalCalc,
    Rotated,
    Hyperbola,
    Dumb7Fill,
    KoggeStone,
    Magic,
    Pext,
}

impl Backend {
    pub const ALL: [Backend; 8] = [
        Backend::Classical,
        Backend::ClassicalCalc,
        Backend::Rotated,
        Backend::Hyperbola,
        Backend::Dumb7Fill,
        Backend::KoggeStone,
        Backend::Magic,
        Backend::Pext,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Backend::Classical => Classical::NAME,
            Backend::ClassicalCalc => ClassicalCalc::NAME,
            Backend::Rotated => Rotated::NAME,
            Backend::Hyperbola => Hyperbola::NAME,
            Backend::Dumb7Fill => Dumb7Fill::NAME,
            Backend::KoggeStone => KoggeStone::NAME,
            Backend::Magic => Magic::NAME,
            Backend::Pext => Pext::NAME,
        }
    }

    /// Whether this machine and build can run it (PEXT needs BMI2).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Pext => Pext::available(),
            _ => true,
        }
    }

    /// The back-ends this machine can run, in the order of [`Backend::ALL`].
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// The fastest back-end on this machine: PEXT where BMI2 is there and fast, magic otherwise
    /// (measured with scripts/perft-bench; see docs/speed.md). AMD before Zen 3 has BMI2 but runs
    /// PEXT in microcode.
    pub fn fastest() -> Backend {
        if Pext::fast() {
            Backend::Pext
        } else {
            Backend::Magic
        }
    }

    /// Parses a back-end name; an unknown or unavailable name gets an explanation.
    pub fn parse(name: &str) -> Result<Backend, String> {
        let wanted = name.trim().to_ascii_lowercase();
        let backend = Self::ALL
            .into_iter()
            .find(|b| b.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<_> = Self::available().map(Backend::name).collect();
                format!(
                    "unknown attack back-end '{name}' (choose one of: {})",
                    names.join(", ")
                )
            })?;
        if !backend.is_available() {
            return Err(format!(
                "attack back-end '{}' is not available: this CPU or build lacks BMI2 \
                 (build with target-cpu=native on a BMI2 machine, or use the x86-64-v3 build)",
                backend.name()
            ));
        }
        Ok(backend)
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with `$A` bound to the [`SliderAttacks`] type of a [`Backend`] value, so code
/// generic over the back-end is monomorphised once per technique and chosen at run time.
#[macro_export]
macro_rules! with_backend {
    ($backend:expr, $A:ident => $body:expr) => {
        match $backend {
            $crate::attacks::Backend::Classical => {
                type $A = $crate::attacks::Classical;
                $body
            }
            $crate::attacks::Backend::ClassicalCalc => {
                type $A = $crate::attacks::ClassicalCalc;
                $body
            }
            $crate::attacks::Backend::Rotated => {
                type $A = $crate::attacks::Rotated;
                $body
            }
            $crate::attacks::Backend::Hyperbola => {
                type $A = $crate::attacks::Hyperbola;
                $body
            }
            $crate::attacks::Backend::Dumb7Fill => {
                type $A = $crate::attacks::Dumb7Fill;
                $body
            }
            $crate::attacks::Backend::KoggeStone => {
                type $A = $crate::attacks::KoggeStone;
                $body
            }
            $crate::attacks::Backend::Magic => {
                type $A = $crate::attacks::Magic;
                $body
            }
            $crate::attacks::Backend::Pext => {
                type $A = $crate::attacks::Pext;
                $body
            }
        }
    };
}
