//! The UCI options, each declared once in [`TABLE`] (name, type, default, range, and what
//! setting it does): the `uci` listing, `setoption` and `engine.toml` all read that table.
//!
//! Values are checked, out-of-range numbers clamped with a note, and anything unusable refused
//! with a reason (the caller prints it as `info string`).

use super::number::parse_integer;
use crate::attacks::Backend;
use crate::config::Setting;
use crate::eval::Evaluator;
use crate::eval::nnue::{Network, default_network};
use crate::protocol::format::shorten;
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
pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const ELO: &str = "UCI_Elo";
pub const EVAL: &str = "Eval";
pub const EVAL_FILE: &str = "EvalFile";

/// The `Eval` choices: the network, or the hand-crafted evaluation for comparison.
const EVAL_NETWORK: &str = "nnue";
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

/// Every option: [`TABLE`], and in a tuning build (`--features tune`) one spin option per
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

    fn default_value(&self) -> Value {
        match &self.kind {
            Kind::Spin { default, .. } => Value::Spin(*default),
            Kind::Check { default } => Value::Check(*default),
            Kind::Combo { default, .. } => Value::Text(default().to_string()),
            Kind::String { default } => Value::Text(default.to_string()),
            Kind::Button => Value::None,
        }
    }

    /// The `option` line's contents, with `value` announced as the default.
    fn declaration(&self, value: &Value) -> UciOptionConfig {
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
    fn parse(&self, text: &str) -> Result<(Value, Option<String>), String> {
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
enum Value {
    Spin(i64),
    Check(bool),
    /// A combo's choice or a string.
    Text(String),
    /// A button has none.
    None,
}

/// The values of all options, one per row of [`specs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    values: Vec<Value>,
    /// Loaded from `EvalFile` when it is set.
    network: LoadedNetwork,
}

/// The network in use; equal when it is the same loaded network.
#[derive(Clone)]
struct LoadedNetwork(Arc<Network>);

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

impl Default for Options {
    fn default() -> Self {
        Options {
            values: specs().iter().map(Spec::default_value).collect(),
            network: LoadedNetwork(default_network()),
        }
    }
}

/// The outcome of a `setoption`: what the rest of the engine must do (the new value is in the
/// options), and a note for the user when the value was adjusted (clamped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub action: Action,
    pub note: Option<String>,
}

impl Options {
    fn index(name: &str) -> usize {
        specs()
            .iter()
            .position(|spec| spec.name == name)
            .unwrap_or_else(|| panic!("no option named {name}"))
    }

    /// A spin option's value.
    pub fn spin(&self, name: &str) -> i64 {
        match &self.values[Self::index(name)] {
            Value::Spin(n) => *n,
            other => panic!("option {name} is not a spin: {other:?}"),
        }
    }

    /// A checkbox (UCI `check`) option's value.
    pub fn checkbox(&self, name: &str) -> bool {
        match &self.values[Self::index(name)] {
            Value::Check(b) => *b,
            other => panic!("option {name} is not a check: {other:?}"),
        }
    }

    /// A string option's value (empty for `<empty>`), or a combo's choice.
    pub fn text(&self, name: &str) -> &str {
        match &self.values[Self::index(name)] {
            Value::Text(text) => text,
            other => panic!("option {name} is not a string or combo: {other:?}"),
        }
    }

    /// Puts an option back to its built-in default (after its value could not be used).
    pub fn reset(&mut self, name: &str) {
        let index = Self::index(name);
        self.values[index] = specs()[index].default_value();
    }

    pub fn hash_mb(&self) -> usize {
        self.spin(HASH) as usize
    }

    pub fn threads(&self) -> usize {
        self.spin(THREADS) as usize
    }

    /// The network `EvalFile` names (the embedded one when it is empty).
    pub fn network(&self) -> &Arc<Network> {
        &self.network.0
    }

    pub fn ponder(&self) -> bool {
        self.checkbox(PONDER)
    }

    pub fn chess960(&self) -> bool {
        self.checkbox(CHESS960)
    }

    pub fn backend(&self) -> Backend {
        Backend::parse(self.text(ATTACKS)).unwrap_or_else(|_| Backend::fastest())
    }

    pub fn debug_log_file(&self) -> &str {
        self.text(DEBUG_LOG_FILE)
    }

    pub fn syzygy_path(&self) -> &str {
        self.text(SYZYGY_PATH)
    }

    /// What the search needs from the options. (The struct update keeps this compiling, with
    /// defaults, when the search gains settings.)
    #[allow(clippy::needless_update)]
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            multipv: self.spin(MULTI_PV) as usize,
            threads: self.threads(),
            move_overhead_ms: self.spin(MOVE_OVERHEAD) as u64,
            chess960: self.chess960(),
            show_wdl: self.checkbox(SHOW_WDL),
            backend: self.backend(),
            syzygy_probe_limit: self.spin(SYZYGY_PROBE_LIMIT) as u32,
            syzygy_probe_depth: self.spin(SYZYGY_PROBE_DEPTH) as i32,
            syzygy_50_move_rule: self.checkbox(SYZYGY_50_MOVE_RULE),
            strength: self
                .checkbox(LIMIT_STRENGTH)
                .then_some(self.spin(ELO) as u32),
            evaluator: if self.text(EVAL) == EVAL_NETWORK {
                Evaluator::Nnue(self.network.0.clone())
            } else {
                Evaluator::Hce
            },
            ..SearchConfig::default()
        }
    }

    /// The `option` lines of the `uci` answer, with these values as the defaults.
    pub fn declarations(&self) -> Vec<UciOptionConfig> {
        specs()
            .iter()
            .zip(&self.values)
            .map(|(spec, value)| spec.declaration(value))
            .collect()
    }

    /// The built-in defaults with `settings` (the config file's) applied in order, and a
    /// message for every setting that could not be used (that option keeps its default) or
    /// was adjusted.
    pub fn with_settings(settings: &[Setting]) -> (Options, Vec<String>) {
        let mut options = Options::default();
        let mut messages = Vec::new();
        for Setting { name, value } in settings {
            match options.set(name, Some(value)) {
                Ok(applied) => messages.extend(applied.note),
                Err(e) => messages.push(format!("config: {e}; keeping the default")),
            }
        }
        (options, messages)
    }

    /// Applies `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let name = name.trim();
        let Some(index) = specs().iter().position(|s| same_name(s.name, name)) else {
            let names: Vec<&str> = specs().iter().map(|s| s.name).collect();
            return Err(format!(
                "unknown option '{}' (options: {})",
                shorten(name),
                names.join(", ")
            ));
        };
        let spec = &specs()[index];
        let text = value.map(str::trim).unwrap_or("");
        let (mut value, mut note) = spec.parse(text)?;
        if spec.action == Action::ResizeHash
            && let (Value::Spin(mb), Some(limit)) = (&mut value, memory_limit_mb())
            && *mb > limit as i64
        {
            note = Some(format!(
                "option {}: {} MB is more than half of this machine's memory: using {limit} MB",
                spec.name,
                shorten(text)
            ));
            *mb = limit as i64;
        }
        if spec.action == Action::LoadNetwork
            && let Value::Text(path) = &value
        {
            self.network = LoadedNetwork(self.load_network(path)?);
            note = (!path.is_empty()).then(|| format!("{}: loaded '{}'", spec.name, shorten(path)));
        }
        #[cfg(feature = "spsa")]
        if let (Action::SetParameter, Value::Spin(n)) = (spec.action, &value) {
            crate::search::params::set(spec.name, *n as i32);
        }
        self.values[index] = value;
        Ok(Applied {
            action: spec.action,
            note,
        })
    }
}

impl Options {
    /// The network in `path`, or the embedded one when it is empty; a file that cannot be used
    /// is refused, naming the network that stays.
    fn load_network(&self, path: &str) -> Result<Arc<Network>, String> {
        if path.is_empty() {
            return Ok(default_network());
        }
        let current = self.text(EVAL_FILE);
        let keep = if current.is_empty() {
            "the embedded network".to_string()
        } else {
            format!("'{}'", shorten(current))
        };
        let fail = |e: String| format!("{EVAL_FILE}: '{}': {e}; keeping {keep}", shorten(path));
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        let network = Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
        Ok(Arc::new(network))
    }
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

/// Half of the machine's memory in MB, where the system tells it (Linux); the largest
/// transposition table we agree to allocate.
pub fn memory_limit_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some((kb / 1024 / 2).max(1))
}

/// Option names compare without case and with runs of spaces as one (`Move   Overhead`).
fn same_name(a: &str, b: &str) -> bool {
    let words = |s: &str| {
        s.split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect::<Vec<_>>()
    };
    words(a) == words(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "spsa")]
    #[test]
    fn tuning_build_sets_search_parameters() {
        use crate::search::params::FUTILITY_BASE;
        let mut o = Options::default();
        let applied = o.set("FUTILITY_BASE", Some("120")).unwrap();
        assert_eq!(applied.action, Action::SetParameter);
        assert_eq!(FUTILITY_BASE.get(), 120);
        assert_eq!(o.spin("FUTILITY_BASE"), 120);
        o.set("FUTILITY_BASE", Some(&FUTILITY_BASE.default.to_string()))
            .unwrap();
        assert_eq!(FUTILITY_BASE.get(), FUTILITY_BASE.default);
    }

    #[test]
    fn names_are_case_insensitive_and_values_are_checked() {
        let mut o = Options::default();
        assert_eq!(
            o.set("hash", Some("32")).unwrap().action,
            Action::ResizeHash
        );
        assert_eq!(o.hash_mb(), 32);
        assert!(o.set("Hash", Some("abc")).is_err());
        assert_eq!(o.hash_mb(), 32, "a refused value changes nothing");
        assert!(o.set("UCI_Chess960", Some("maybe")).is_err());
        assert!(o.set("uci_chess960", Some("TRUE")).is_ok());
        assert!(o.chess960());
        o.set("move   OVERHEAD", Some("70")).unwrap();
        assert_eq!(o.spin(MOVE_OVERHEAD), 70);
        assert!(o.set("MoveOverhead", Some("70")).is_err());
    }

    #[test]
    fn out_of_range_numbers_are_clamped_with_a_note() {
        let mut o = Options::default();
        let applied = o.set("Threads", Some("0")).unwrap();
        assert_eq!(o.spin(THREADS), 1);
        assert!(applied.note.unwrap().contains("using 1"));
        let applied = o.set("Hash", Some(&"9".repeat(40))).unwrap();
        assert!(applied.note.is_some());
        assert!(o.hash_mb() <= 65_536);
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
            o.set("Attacks", Some(&b.name().to_uppercase())).unwrap();
            assert_eq!(o.backend(), b);
        }
    }

    #[test]
    fn empty_debug_log_file_means_off() {
        let mut o = Options::default();
        let applied = o.set("Debug Log File", Some("<empty>")).unwrap();
        assert_eq!(applied.action, Action::OpenDebugLog);
        assert_eq!(o.debug_log_file(), "");
    }

    /// A row of the table is all an option needs: it is listed with its default, and
    /// `setoption` with that default is accepted and changes nothing.
    #[test]
    fn every_row_is_listed_and_accepts_its_own_default() {
        let defaults = Options::default();
        let declarations = defaults.declarations();
        assert_eq!(declarations.len(), specs().len());
        for (spec, declared) in specs().iter().zip(&declarations) {
            let (name, default) = match declared {
                UciOptionConfig::Spin { name, default, .. } => {
                    (name, default.map(|n| n.to_string()))
                }
                UciOptionConfig::Check { name, default } => (name, default.map(|b| b.to_string())),
                UciOptionConfig::Combo { name, default, .. } => (name, default.clone()),
                UciOptionConfig::String { name, default } => (name, default.clone()),
                UciOptionConfig::Button { name } => (name, None),
            };
            assert_eq!(name, spec.name);
            let mut o = defaults.clone();
            o.set(spec.name, default.as_deref()).unwrap();
            assert_eq!(o, defaults, "{}", spec.name);
        }
        // Every typed getter finds its row.
        let config = defaults.search_config();
        assert_eq!((config.threads, config.strength), (1, None));
        assert!(!defaults.ponder());
        assert_eq!(
            (defaults.debug_log_file(), defaults.syzygy_path()),
            ("", "")
        );
    }

    fn settings(pairs: &[(&str, &str)]) -> Vec<Setting> {
        pairs
            .iter()
            .map(|(name, value)| Setting {
                name: name.to_string(),
                value: value.to_string(),
            })
            .collect()
    }

    #[test]
    fn config_settings_are_applied_over_the_defaults() {
        let (options, messages) = Options::with_settings(&settings(&[
            ("Hash", "32"),
            ("Move Overhead", "50"),
            ("UCI_ShowWDL", "true"),
        ]));
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(options.hash_mb(), 32);
        assert_eq!(options.search_config().move_overhead_ms, 50);
        assert!(options.search_config().show_wdl);
    }

    #[test]
    fn bad_config_settings_keep_their_defaults_with_a_message() {
        let (options, messages) = Options::with_settings(&settings(&[
            ("Hash", "big"),
            ("NoSuchOption", "1"),
            ("Threads", "2"),
        ]));
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages
                .iter()
                .all(|m| m.starts_with("config: ") && m.ends_with("; keeping the default")),
            "{messages:?}"
        );
        assert_eq!(options.hash_mb(), Options::default().hash_mb());
        assert_eq!(options.search_config().threads, 2);
    }

    #[test]
    fn the_shipped_config_file_applies_cleanly() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(crate::config::DEFAULT_PATH);
        let config = crate::config::EngineConfig::load(&path).unwrap();
        let (settings, mut messages) = config.settings();
        messages.extend(Options::with_settings(&settings).1);
        assert!(messages.is_empty(), "{messages:?}");
    }

    #[test]
    fn a_reset_option_has_its_default_again() {
        let mut o = Options::default();
        o.set(SYZYGY_PATH, Some("/tables")).unwrap();
        assert_eq!(o.syzygy_path(), "/tables");
        o.reset(SYZYGY_PATH);
        assert_eq!(o, Options::default());
    }
}
