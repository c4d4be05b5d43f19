//! The option table: every UCI option's name, type, default, range and action, and how a
//! value given as text becomes the option's value.

use super::super::number::parse_integer;
use crate::attacks::Backend;
use crate::eval::Evaluator;
use crate::protocol::format::shorten;
use crate::search::strength::{ELO_MAX, ELO_MIN};
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
pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const ELO: &str = "UCI_Elo";
pub const EVAL: &str = "Eval";
pub const EVAL_FILE: &str = "EvalFile";

/// The `Eval` choices: the network, or the hand-crafted evaluation for comparison.
pub(super) const EVAL_NETWORK: &str = "nnue";
const EVAL_HAND_CRAFTED: &str = "hce";

/// Every option, in the order of the `uci` listing.
pub const TABLE: &[Spec] = &[
    Spec::spin(HASH, 16, 1, 65_536, Action::ResizeHash),
    Spec::spin(THREADS, 1, 1, 1024, Action::SetThreads),
    Spec::spin(MULTI_PV, 1, 1, 256, Action::Search),
    Spec::checkbox(PONDER, false),
    Spec::spin(MOVE_OVERHEAD, 10, 0, 5_000, Action::Search),
    Spec::button(CLEAR_HASH, Action::ClearHash),
    Spec::checkbox(CHESS960, false),
    Spec::checkbox(SHOW_WDL, false),
    Spec::combo(
        ATTACKS,
        || Backend::fastest().name(),
        || Backend::available().map(Backend::name).collect(),
        Action::Search,
    ),
    Spec::string(DEBUG_LOG_FILE, "", Action::OpenDebugLog),
    Spec::string(SYZYGY_PATH, "", Action::OpenTablebases),
    // Syzygy tables exist for up to 7 pieces.
    Spec::spin(SYZYGY_PROBE_LIMIT, 7, 0, 7, Action::Search),
    Spec::spin(SYZYGY_PROBE_DEPTH, 1, 1, 100, Action::Search),
    Spec::checkbox(SYZYGY_50_MOVE_RULE, true),
    Spec::checkbox(LIMIT_STRENGTH, false),
    Spec::spin(
        ELO,
        ELO_MAX as i64,
        ELO_MIN as i64,
        ELO_MAX as i64,
        Action::Search,
    ),
    // The table holds evaluations of the other evaluator: switching clears it.
    Spec::combo(
        EVAL,
        || match Evaluator::default() {
            Evaluator::Nnue(_) => EVAL_NETWORK,
            Evaluator::Hce => EVAL_HAND_CRAFTED,
        },
        || vec![EVAL_NETWORK, EVAL_HAND_CRAFTED],
        Action::ClearHash,
    ),
    // Empty: the embedded network.
    Spec::string(EVAL_FILE, "", Action::LoadNetwork),
];

/// How UCI writes an empty string default.
const EMPTY: &str = "<empty>";

/// Every option: [`TABLE`], and in a tuning build (`--features spsa`) one spin option per
/// search parameter after it.
pub fn specs() -> &'static [Spec] {
    #[cfg(not(feature = "spsa"))]
    return TABLE;
    #[cfg(feature = "spsa")]
    {
        use crate::search::params::ALL;
        use std::sync::LazyLock;
        static SPECS: LazyLock<Vec<Spec>> = LazyLock::new(|| {
            let params = ALL.iter().map(|p| {
                let (default, min, max) = (p.default as i64, p.min as i64, p.max as i64);
                Spec::spin(p.name, default, min, max, Action::SetParameter)
            });
            TABLE.iter().cloned().chain(params).collect()
        });
        &SPECS
    }
}

/// One option: its name, its type with default and range, and what setting it does.
#[derive(Clone)]
pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
    pub action: Action,
}

/// An option's UCI type, with its default and range.
#[derive(Clone)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    /// The choices may depend on the machine (the `Attacks` back-ends), so they are computed.
    Combo {
        default: fn() -> &'static str,
        choices: fn() -> Vec<&'static str>,
    },
    /// UCI's `string`; empty is written `<empty>`.
    String {
        default: &'static str,
    },
    Button,
}

/// What setting an option does besides storing its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing at once: the next search reads it (through [`Options::search_config`]).
    Search,
    /// Resize the transposition table (to at most half of the machine's memory).
    ResizeHash,
    /// Start or end search threads (before the next `readyok`).
    SetThreads,
    ClearHash,
    /// Load the network file (a refused one keeps the network in use), then clear the table.
    LoadNetwork,
    /// (Re)open the debug log at the path, or close it when empty.
    OpenDebugLog,
    /// (Re)open the Syzygy tables from the folders, or close them when empty.
    OpenTablebases,
    /// Set the search parameter of that name at once (tuning builds only).
    SetParameter,
}

impl Spec {
    const fn spin(name: &'static str, default: i64, min: i64, max: i64, action: Action) -> Spec {
        let kind = Kind::Spin { default, min, max };
        Spec { name, kind, action }
    }

    const fn checkbox(name: &'static str, default: bool) -> Spec {
        let kind = Kind::Check { default };
        Spec {
            name,
            kind,
            action: Action::Search,
        }
    }

    const fn combo(
        name: &'static str,
        default: fn() -> &'static str,
        choices: fn() -> Vec<&'static str>,
        action: Action,
    ) -> Spec {
        let kind = Kind::Combo { default, choices };
        Spec { name, kind, action }
    }

    const fn string(name: &'static str, default: &'static str, action: Action) -> Spec {
        let kind = Kind::String { default };
        Spec { name, kind, action }
    }

    const fn button(name: &'static str, action: Action) -> Spec {
        Spec {
            name,
            kind: Kind::Button,
            action,
        }
    }

    pub(super) fn default_value(&self) -> Value {
        match &self.kind {
            Kind::Spin { default, .. } => Value::Spin(*default),
            Kind::Check { default } => Value::Check(*default),
            Kind::Combo { default, .. } => Value::Text(default().to_string()),
            Kind::String { default } => Value::Text(default.to_string()),
            Kind::Button => Value::None,
        }
    }

    /// The `option` line's contents, with `value` announced as the default.
    pub(super) fn declaration(&self, value: &Value) -> UciOptionConfig {
        let name = self.name.to_string();
        match (&self.kind, value) {
            (Kind::Spin { min, max, .. }, Value::Spin(n)) => UciOptionConfig::Spin {
                name,
                default: Some(*n),
                min: Some(*min),
                max: Some(*max),
            },
            (Kind::Check { .. }, Value::Check(b)) => UciOptionConfig::Check {
                name,
                default: Some(*b),
            },
            (Kind::Combo { choices, .. }, Value::Text(text)) => UciOptionConfig::Combo {
                name,
                default: Some(text.clone()),
                var: choices().into_iter().map(String::from).collect(),
            },
            (Kind::String { .. }, Value::Text(text)) => UciOptionConfig::String {
                name,
                default: Some(if text.is_empty() { EMPTY } else { text }.to_string()),
            },
            _ => UciOptionConfig::Button { name },
        }
    }

    /// The value `text` gives this option, and a note when it was adjusted.
    pub(super) fn parse(&self, text: &str) -> Result<(Value, Option<String>), String> {
        let name = self.name;
        match &self.kind {
            Kind::Spin { min, max, .. } => {
                let (n, note) = parse_spin(name, text, *min, *max)?;
                Ok((Value::Spin(n), note))
            }
            Kind::Check { .. } => Ok((Value::Check(parse_checkbox(name, text)?), None)),
            Kind::Combo { choices, .. } => {
                let choices = choices();
                let choice = choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        format!(
                            "option {name}: '{}' is not one of {}",
                            shorten(text),
                            choices.join(", ")
                        )
                    })?;
                Ok((Value::Text(choice.to_string()), None))
            }
            Kind::String { .. } => {
                let text = if text == EMPTY { "" } else { text };
                Ok((Value::Text(text.to_string()), None))
            }
            Kind::Button => Ok((Value::None, None)),
        }
    }
}

/// The value of one option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    Spin(i64),
    Check(bool),
    /// A combo's choice or a string.
    Text(String),
    /// A button has none.
    None,
}

/// A spin value: a number, clamped into `min..=max` with a note when outside.
fn parse_spin(
    name: &str,
    value: &str,
    min: i64,
    max: i64,
) -> Result<(i64, Option<String>), String> {
    if value.is_empty() {
        return Err(format!("option {name} needs a value ({min} to {max})"));
    }
    let n = parse_integer(value).ok_or_else(|| {
        format!(
            "option {name}: '{}' is not a number (expected {min} to {max})",
            shorten(value)
        )
    })?;
    let (min, max) = (i128::from(min), i128::from(max));
    if n < min || n > max {
        let used = n.clamp(min, max) as i64;
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
    Ok((n as i64, None))
}

/// A checkbox (UCI `check`) value: `true` or `false`, in any case.
fn parse_checkbox(name: &str, value: &str) -> Result<bool, String> {
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

/// Option names compare without case and with runs of spaces as one (`Move   Overhead`).
pub(super) fn same_name(a: &str, b: &str) -> bool {
    let words = |s: &str| {
        s.split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect::<Vec<_>>()
    };
    words(a) == words(b)
}
