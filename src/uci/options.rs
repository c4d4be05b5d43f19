//! The UCI options: their names, types and bounds, their current values, and `setoption`.
//!
//! Every option here changes something; values are checked, out-of-range numbers clamped with a
//! note, and anything unusable refused with a reason (the caller prints it as `info string`).

use super::number::parse_integer;
use crate::attacks::Backend;
use crate::eval::Evaluator;
use crate::eval::nnue::{Network, default_network};
use crate::search::SearchConfig;
use crate::search::strength::{ELO_MAX, ELO_MIN};
use std::sync::Arc;
use vampirc_uci::UciOptionConfig;

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MULTI_PV: &str = "MultiPV";
pub const PONDER: &str = "Ponder";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const CLEAR_HASH: &str = "Clear Hash";
pub const CHESS960: &str = "UCI_Chess960";
pub const SHOW_WDL: &str = "UCI_ShowWDL";
pub const ATTACKS: &str = "Attacks";
pub const DEBUG_LOG_FILE: &str = "Debug Log File";
pub const SYZYGY_PATH: &str = "SyzygyPath";
pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const ELO: &str = "UCI_Elo";
pub const EVAL_FILE: &str = "EvalFile";
pub const EVAL: &str = "Eval";

pub const HASH_MIN_MB: i128 = 1;
pub const HASH_MAX_MB: i128 = 65_536;
pub const THREADS_MAX: i128 = 256;
pub const MULTI_PV_MAX: i128 = 256;
pub const MOVE_OVERHEAD_MAX_MS: i128 = 5_000;
/// Syzygy tables exist for up to 7 pieces.
pub const SYZYGY_MAX_PIECES: i128 = 7;

/// How UCI writes an empty string default.
const EMPTY: &str = "<empty>";

/// The values of all options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    pub show_wdl: bool,
    pub backend: Backend,
    /// Empty: no log.
    pub debug_log_file: String,
    /// Folders of Syzygy tables; empty: none.
    pub syzygy_path: String,
    pub syzygy_probe_limit: u32,
    pub limit_strength: bool,
    pub elo: u32,
    /// `EvalFile`: empty for the embedded network.
    pub eval_file: String,
    pub network: LoadedNetwork,
    /// `Eval`: the network, or the hand-crafted evaluation for comparison.
    pub use_network: bool,
}

/// The network in use; equal when it is the same loaded network.
#[derive(Clone)]
pub struct LoadedNetwork(pub Arc<Network>);

impl PartialEq for LoadedNetwork {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for LoadedNetwork {}

impl std::fmt::Debug for LoadedNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "LoadedNetwork")
    }
}

/// The `Eval` choices.
const EVAL_NETWORK: &str = "nnue";
const EVAL_HAND_CRAFTED: &str = "hce";

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            chess960: false,
            show_wdl: false,
            backend: Backend::fastest(),
            debug_log_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_limit: SYZYGY_MAX_PIECES as u32,
            limit_strength: false,
            elo: crate::search::strength::ELO_MAX,
            eval_file: String::new(),
            network: LoadedNetwork(default_network()),
            use_network: matches!(Evaluator::default(), Evaluator::Nnue(_)),
        }
    }
}

/// What a successful `setoption` changed, for the parts of the engine outside this table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The transposition table must be resized to this many MB.
    Hash(usize),
    /// The `Clear Hash` button.
    ClearHash,
    /// The debug log must be (re)opened at this path, or closed when empty.
    DebugLogFile(String),
    /// The Syzygy tables must be (re)opened from these folders, or closed when empty.
    SyzygyPath(String),
    /// A value the next search reads from [`Options::search_config`].
    SearchSetting,
}

/// The outcome of a `setoption`: what changed, and a note for the user when the value was
/// adjusted (clamped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub change: Change,
    pub note: Option<String>,
}

impl Options {
    /// What the search needs from the options. (The struct update keeps this compiling, with
    /// defaults, when the search gains settings.)
    #[allow(clippy::needless_update)]
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            multipv: self.multipv,
            threads: self.threads,
            move_overhead_ms: self.move_overhead_ms,
            chess960: self.chess960,
            show_wdl: self.show_wdl,
            backend: self.backend,
            syzygy_probe_limit: self.syzygy_probe_limit,
            strength: self.limit_strength.then_some(self.elo),
            evaluator: if self.use_network {
                Evaluator::Nnue(self.network.0.clone())
            } else {
                Evaluator::Hce
            },
            ..SearchConfig::default()
        }
    }

    /// The `option` lines of the `uci` answer, with these values as the defaults.
    pub fn declarations(&self) -> Vec<UciOptionConfig> {
        let spin = |name: &str, default: i128, min: i128, max: i128| UciOptionConfig::Spin {
            name: name.to_string(),
            default: Some(default as i64),
            min: Some(min as i64),
            max: Some(max as i64),
        };
        let check = |name: &str, default: bool| UciOptionConfig::Check {
            name: name.to_string(),
            default: Some(default),
        };
        let string = |name: &str, value: &str| UciOptionConfig::String {
            name: name.to_string(),
            default: Some(if value.is_empty() {
                EMPTY.to_string()
            } else {
                value.to_string()
            }),
        };
        vec![
            spin(HASH, self.hash_mb as i128, HASH_MIN_MB, HASH_MAX_MB),
            spin(THREADS, self.threads as i128, 1, THREADS_MAX),
            spin(MULTI_PV, self.multipv as i128, 1, MULTI_PV_MAX),
            check(PONDER, self.ponder),
            spin(
                MOVE_OVERHEAD,
                self.move_overhead_ms as i128,
                0,
                MOVE_OVERHEAD_MAX_MS,
            ),
            UciOptionConfig::Button {
                name: CLEAR_HASH.to_string(),
            },
            check(CHESS960, self.chess960),
            check(SHOW_WDL, self.show_wdl),
            UciOptionConfig::Combo {
                name: ATTACKS.to_string(),
                default: Some(self.backend.name().to_string()),
                var: Backend::available().map(|b| b.name().to_string()).collect(),
            },
            string(DEBUG_LOG_FILE, &self.debug_log_file),
            string(SYZYGY_PATH, &self.syzygy_path),
            spin(
                SYZYGY_PROBE_LIMIT,
                self.syzygy_probe_limit as i128,
                0,
                SYZYGY_MAX_PIECES,
            ),
            check(LIMIT_STRENGTH, self.limit_strength),
            spin(ELO, self.elo as i128, ELO_MIN as i128, ELO_MAX as i128),
            UciOptionConfig::Combo {
                name: EVAL.to_string(),
                default: Some(
                    if self.use_network {
                        EVAL_NETWORK
                    } else {
                        EVAL_HAND_CRAFTED
                    }
                    .to_string(),
                ),
                var: vec![EVAL_NETWORK.to_string(), EVAL_HAND_CRAFTED.to_string()],
            },
            string(EVAL_FILE, &self.eval_file),
        ]
    }

    /// Applies `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let name = name.trim();
        let value = value.map(str::trim).unwrap_or("");
        let known = [
            HASH,
            THREADS,
            MULTI_PV,
            PONDER,
            MOVE_OVERHEAD,
            CLEAR_HASH,
            CHESS960,
            SHOW_WDL,
            ATTACKS,
            DEBUG_LOG_FILE,
            SYZYGY_PATH,
            SYZYGY_PROBE_LIMIT,
            LIMIT_STRENGTH,
            ELO,
            EVAL,
            EVAL_FILE,
        ];
        let Some(&canonical) = known.iter().find(|k| k.eq_ignore_ascii_case(name)) else {
            return Err(format!(
                "unknown option '{}' (options: {})",
                shorten(name),
                known.join(", ")
            ));
        };
        let setting = |note| {
            Ok(Applied {
                change: Change::SearchSetting,
                note,
            })
        };
        match canonical {
            HASH => {
                let (mb, mut note) = spin(HASH, value, HASH_MIN_MB, HASH_MAX_MB)?;
                let mut mb = mb as usize;
                if let Some(limit) = memory_limit_mb()
                    && mb > limit
                {
                    note = Some(format!(
                        "option Hash: {} MB is more than half of this machine's memory: \
                         using {limit} MB",
                        shorten(value)
                    ));
                    mb = limit;
                }
                self.hash_mb = mb;
                Ok(Applied {
                    change: Change::Hash(mb),
                    note,
                })
            }
            THREADS => {
                let (n, note) = spin(THREADS, value, 1, THREADS_MAX)?;
                self.threads = n as usize;
                setting(note)
            }
            MULTI_PV => {
                let (n, note) = spin(MULTI_PV, value, 1, MULTI_PV_MAX)?;
                self.multipv = n as usize;
                setting(note)
            }
            MOVE_OVERHEAD => {
                let (n, note) = spin(MOVE_OVERHEAD, value, 0, MOVE_OVERHEAD_MAX_MS)?;
                self.move_overhead_ms = n as u64;
                setting(note)
            }
            PONDER => {
                self.ponder = check(PONDER, value)?;
                setting(None)
            }
            CHESS960 => {
                self.chess960 = check(CHESS960, value)?;
                setting(None)
            }
            SHOW_WDL => {
                self.show_wdl = check(SHOW_WDL, value)?;
                setting(None)
            }
            ATTACKS => {
                self.backend = Backend::parse(value).map_err(|e| format!("{ATTACKS}: {e}"))?;
                setting(None)
            }
            CLEAR_HASH => Ok(Applied {
                change: Change::ClearHash,
                note: None,
            }),
            DEBUG_LOG_FILE => {
                let path = if value == EMPTY { "" } else { value };
                self.debug_log_file = path.to_string();
                Ok(Applied {
                    change: Change::DebugLogFile(path.to_string()),
                    note: None,
                })
            }
            SYZYGY_PATH => {
                let path = if value == EMPTY { "" } else { value };
                self.syzygy_path = path.to_string();
                Ok(Applied {
                    change: Change::SyzygyPath(path.to_string()),
                    note: None,
                })
            }
            SYZYGY_PROBE_LIMIT => {
                let (n, note) = spin(SYZYGY_PROBE_LIMIT, value, 0, SYZYGY_MAX_PIECES)?;
                self.syzygy_probe_limit = n as u32;
                setting(note)
            }
            LIMIT_STRENGTH => {
                self.limit_strength = check(LIMIT_STRENGTH, value)?;
                setting(None)
            }
            ELO => {
                let (n, note) = spin(ELO, value, ELO_MIN as i128, ELO_MAX as i128)?;
                self.elo = n as u32;
                setting(note)
            }
            EVAL => {
                self.use_network = match value.to_ascii_lowercase().as_str() {
                    EVAL_NETWORK => true,
                    EVAL_HAND_CRAFTED => false,
                    _ => {
                        return Err(format!(
                            "option {EVAL}: '{}' is not {EVAL_NETWORK} or {EVAL_HAND_CRAFTED}",
                            shorten(value)
                        ));
                    }
                };
                // The table holds evaluations of the other evaluator.
                Ok(Applied {
                    change: Change::ClearHash,
                    note: None,
                })
            }
            EVAL_FILE => {
                let path = if value == EMPTY { "" } else { value };
                let network = if path.is_empty() {
                    default_network()
                } else {
                    let keep = if self.eval_file.is_empty() {
                        "the embedded network".to_string()
                    } else {
                        format!("'{}'", shorten(&self.eval_file))
                    };
                    let bytes = std::fs::read(path).map_err(|e| {
                        format!("{EVAL_FILE}: '{}': {e}; keeping {keep}", shorten(path))
                    })?;
                    let net = Network::from_bytes(&bytes).map_err(|e| {
                        format!("{EVAL_FILE}: '{}': {e}; keeping {keep}", shorten(path))
                    })?;
                    Arc::new(net)
                };
                self.eval_file = path.to_string();
                self.network = LoadedNetwork(network);
                let note =
                    (!path.is_empty()).then(|| format!("{EVAL_FILE}: loaded '{}'", shorten(path)));
                Ok(Applied {
                    change: Change::ClearHash,
                    note,
                })
            }
            _ => unreachable!("every known option is handled"),
        }
    }
}

/// A spin value: a number, clamped into `min..=max` with a note when outside.
fn spin(name: &str, value: &str, min: i128, max: i128) -> Result<(i128, Option<String>), String> {
    if value.is_empty() {
        return Err(format!("option {name} needs a value ({min} to {max})"));
    }
    let n = parse_integer(value).ok_or_else(|| {
        format!(
            "option {name}: '{}' is not a number (expected {min} to {max})",
            shorten(value)
        )
    })?;
    if n < min || n > max {
        let used = n.clamp(min, max);
        let shown = if n.abs() > 1_000_000_000_000 {
            shorten(value)
        } else {
            n.to_string()
        };
        return Ok((
            used,
            Some(format!(
                "option {name}: {shown} is outside {min} to {max}: using {used}"
            )),
        ));
    }
    Ok((n, None))
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    if value.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(format!(
            "option {name}: '{}' is not true or false",
            shorten(value)
        ))
    }
}

/// Input echoed back in a message, cut short so a huge line does not come back whole.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}...")
    }
}

/// Half of the machine's memory in MB, where the system tells it (Linux); the largest
/// transposition table we agree to allocate.
pub fn memory_limit_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kb / 1024 / 2).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_are_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("32")).unwrap().change, Change::Hash(32));
        assert_eq!(o.hash_mb, 32);
        assert!(o.set("Hash", Some("abc")).is_err());
        assert_eq!(o.hash_mb, 32, "a refused value changes nothing");
        assert!(o.set("UCI_Chess960", Some("maybe")).is_err());
        assert!(o.set("uci_chess960", Some("TRUE")).is_ok());
        assert!(o.chess960);
    }

    #[test]
    fn out_of_range_numbers_are_clamped_with_a_note() {
        let mut o = Options::default();
        let applied = o.set("Threads", Some("0")).unwrap();
        assert_eq!(o.threads, 1);
        assert!(applied.note.unwrap().contains("using 1"));
        let applied = o.set("Hash", Some(&"9".repeat(40))).unwrap();
        assert!(applied.note.is_some());
        assert!(o.hash_mb as i128 <= HASH_MAX_MB);
    }

    #[test]
    fn unknown_options_and_backends_are_refused() {
        let mut o = Options::default();
        assert!(o.set("Contempt", Some("10")).is_err());
        assert!(o.set("Attacks", Some("nonsense")).is_err());
        assert_eq!(o, Options::default());
    }

    #[test]
    fn every_available_backend_is_offered_and_accepted() {
        let mut o = Options::default();
        for b in Backend::available() {
            o.set("Attacks", Some(b.name())).unwrap();
            assert_eq!(o.backend, b);
        }
    }

    #[test]
    fn empty_debug_log_file_means_off() {
        let mut o = Options::default();
        let applied = o.set("Debug Log File", Some("<empty>")).unwrap();
        assert_eq!(applied.change, Change::DebugLogFile(String::new()));
    }
}
