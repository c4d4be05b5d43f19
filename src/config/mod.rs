//! `engine-config/engine.toml`: start-up values of the UCI options and the log level.
//!
//! ```toml
//! [options]
//! Hash = 64
//! "Move Overhead" = 30
//!
//! [log]
//! level = "info"   # used when RUST_LOG is not set
//! ```
//!
//! A file that cannot be read or parsed is reported and ignored as a whole (built-in defaults);
//! a single unusable option value is reported and that option keeps its built-in default.

pub mod toml;

use crate::uci::Options;
use std::path::{Path, PathBuf};

/// Where the file is looked for when `--config` is not given, relative to the working
/// directory and then to the executable's directory.
pub const DEFAULT_PATH: &str = "engine-config/engine.toml";

/// The file's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// `[options]`: UCI option name and value, in file order.
    pub options: Vec<(String, String)>,
    /// `[log] level`: an env_logger filter such as `warn` or `quintessence=debug`.
    pub log_level: Option<String>,
}

impl EngineConfig {
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let mut config = EngineConfig::default();
        for entry in toml::parse(text)? {
            match (entry.section.as_str(), entry.key.as_str()) {
                ("options", _) => config
                    .options
                    .push((entry.key.clone(), entry.value.to_option_text())),
                ("log", "level") => match entry.value {
                    toml::Value::String(level) => config.log_level = Some(level),
                    _ => {
                        return Err(format!(
                            "line {}: [log] level must be a string such as \"warn\"",
                            entry.line
                        ));
                    }
                },
                (section, key) => {
                    return Err(format!(
                        "line {}: unknown setting '{key}' in section [{section}] \
                         (expected [options] <UCI option> = value, or [log] level = \"...\")",
                        entry.line
                    ));
                }
            }
        }
        Ok(config)
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<EngineConfig, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read config file {}: {e}", path.display()))?;
        EngineConfig::parse(&text).map_err(|e| format!("config file {}: {e}", path.display()))
    }

    /// The file to read: `explicit` (from `--config`), else the default path if it exists in
    /// the working directory or beside the executable.
    pub fn locate(explicit: Option<&Path>) -> Option<PathBuf> {
        if let Some(path) = explicit {
            return Some(path.to_path_buf());
        }
        let local = PathBuf::from(DEFAULT_PATH);
        if local.is_file() {
            return Some(local);
        }
        let beside_exe = std::env::current_exe().ok()?.parent()?.join(DEFAULT_PATH);
        beside_exe.is_file().then_some(beside_exe)
    }

    /// The options with this file's values applied over the built-in defaults, and a message
    /// for every value that could not be used (or was adjusted).
    pub fn options(&self) -> (Options, Vec<String>) {
        let mut options = Options::default();
        let mut messages = Vec::new();
        for (name, value) in &self.options {
            match options.set(name, Some(value)) {
                Ok(applied) => messages.extend(applied.note),
                Err(e) => messages.push(format!("config: {e}; keeping the default")),
            }
        }
        (options, messages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_log_level() {
        let config = EngineConfig::parse(
            "[options]\nHash = 32\n\"Move Overhead\" = 50\nUCI_ShowWDL = true\n\
             [log]\nlevel = \"info\"\n",
        )
        .unwrap();
        assert_eq!(config.log_level.as_deref(), Some("info"));
        let (options, messages) = config.options();
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(options.hash_mb, 32);
        assert_eq!(options.move_overhead_ms, 50);
        assert!(options.show_wdl);
    }

    #[test]
    fn bad_values_keep_their_defaults_with_a_message() {
        let config =
            EngineConfig::parse("[options]\nHash = \"big\"\nNoSuchOption = 1\nThreads = 2\n")
                .unwrap();
        let (options, messages) = config.options();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(options.hash_mb, Options::default().hash_mb);
        assert_eq!(options.threads, 2);
    }

    #[test]
    fn unknown_sections_are_errors() {
        assert!(EngineConfig::parse("[engine]\nx = 1\n").is_err());
        assert!(EngineConfig::parse("Hash = 1\n").is_err());
    }

    #[test]
    fn the_shipped_file_is_valid() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_PATH);
        let config = EngineConfig::load(&path).unwrap();
        let (_, messages) = config.options();
        assert!(messages.is_empty(), "{messages:?}");
    }
}
