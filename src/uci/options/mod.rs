//! The UCI options, each declared once in [`TABLE`] (name, type, default, range, and what
//! setting it does): the `uci` listing, `setoption` and `engine.toml` all read that table.
//!
//! Values are checked, out-of-range numbers clamped with a note, and anything unusable refused
//! with a reason (the caller prints it as `info string`).

mod spec;

use crate::attacks::Backend;
use crate::config::Setting;
use crate::eval::Evaluator;
use crate::eval::nnue::{Network, default_network};
use crate::protocol::format::shorten;
use crate::search::SearchConfig;
pub use spec::*;
use spec::{EVAL_NETWORK, Value, same_name};
use std::sync::Arc;
use vampirc_uci::UciOptionConfig;

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
