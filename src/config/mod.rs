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
//!
//! This module knows the file, not the options: it hands the `[options]` entries on as
//! [`Setting`]s, which the UCI layer applies as it applies `setoption`.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where the file is looked for when `--config` is not given, relative to the working
/// directory and then to the executable's directory.
pub const DEFAULT_PATH: &str = "engine-config/engine.toml";

/// The file's contents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// `[options]`: UCI option name and value, in file order.
    pub options: Vec<(String, toml::Value)>,
    /// `[log] level`: an env_logger filter such as `warn` or `quintessence=debug`.
    pub log_level: Option<String>,
}

/// One `[options]` entry, as `setoption name <name> value <value>` would give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub name: String,
    pub value: String,
}

/// The file's layout: any other section or key is an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    log: Log,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Log {
    level: Option<String>,
}

impl EngineConfig {
    pub fn parse(text: &str) -> Result<EngineConfig, String> {
        let file: File = toml::from_str(text).map_err(|e| one_line(text, &e))?;
        Ok(EngineConfig {
            options: file.options.into_iter().collect(),
            log_level: file.log.level,
        })
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

    /// The `[options]` entries as settings, in file order, and a message for every value of a
    /// type no option has (that option keeps its default).
    pub fn settings(&self) -> (Vec<Setting>, Vec<String>) {
        let mut settings = Vec::new();
        let mut messages = Vec::new();
        for (name, value) in &self.options {
            match option_text(value) {
                Some(text) => settings.push(Setting {
                    name: name.clone(),
                    value: text,
                }),
                None => messages.push(format!(
                    "config: {name} is a {}; expected a string (in quotes), an integer, \
                     true or false; keeping the default",
                    value.type_str()
                )),
            }
        }
        (settings, messages)
    }
}

/// A value of `[options]` as a UCI `setoption` value.
fn option_text(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The parser's error as one line naming the line of the file and quoting it.
fn one_line(text: &str, error: &toml::de::Error) -> String {
    let what = error.message().trim().replace('\n', "; ");
    let Some(span) = error.span() else {
        return what;
    };
    let start = span.start.min(text.len());
    let line = text[..start].matches('\n').count() + 1;
    let quoted = text.lines().nth(line - 1).unwrap_or("").trim();
    format!("line {line}: {what}: {quoted}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(name: &str, value: &str) -> Setting {
        Setting {
            name: name.to_string(),
            value: value.to_string(),
        }
    }

    #[test]
    fn options_and_log_level() {
        let config = EngineConfig::parse(
            "[options]\nHash = 32\n\"Move Overhead\" = 50\nUCI_ShowWDL = true\n\
             [log]\nlevel = \"info\"\n",
        )
        .unwrap();
        assert_eq!(config.log_level.as_deref(), Some("info"));
        let (settings, messages) = config.settings();
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(
            settings,
            [
                setting("Hash", "32"),
                setting("Move Overhead", "50"),
                setting("UCI_ShowWDL", "true")
            ]
        );
    }

    #[test]
    fn toml_forms_are_read() {
        let config = EngineConfig::parse(
            "# defaults\n[options]\nHash = 64   # MB\n\"Move Overhead\" = 1_000\n\
             'Debug Log File' = 'C:\\logs\\q.log'\nAttacks = \"magic\"\n",
        )
        .unwrap();
        let texts: Vec<(&str, Option<String>)> = config
            .options
            .iter()
            .map(|(k, v)| (k.as_str(), option_text(v)))
            .collect();
        assert_eq!(
            texts,
            [
                ("Hash", Some("64".to_string())),
                ("Move Overhead", Some("1000".to_string())),
                ("Debug Log File", Some(r"C:\logs\q.log".to_string())),
                ("Attacks", Some("magic".to_string())),
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        for (text, needle) in [
            ("[options\nHash = 1", "line 1:"),
            ("[options]\nHash 1", "line 2:"),
            ("[options]\nHash = ", "line 2:"),
            ("[options]\nHash = lots", "line 2:"),
            ("[options]\nAttacks = \"magic", "line 2:"),
            ("[options]\nHash = 1 2", "line 2:"),
            ("[options]\na = 1\na = 2", "line 3:"),
            (
                "[options]\nHash = 1\n[engine]\nx = 1\n",
                "line 3: unknown field `engine`",
            ),
            ("[log]\nlevel = 3\n", "line 2:"),
        ] {
            let err = EngineConfig::parse(text).unwrap_err();
            assert!(err.contains(needle), "{text:?}: {err}");
            assert!(!err.contains('\n'), "{text:?}: {err}");
        }
    }

    #[test]
    fn values_of_other_types_keep_their_defaults_with_a_message() {
        let config =
            EngineConfig::parse("[options]\nHash = 1.5\nThreads = [2]\nPonder = true\n").unwrap();
        let (settings, messages) = config.settings();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].contains("Hash is a float"), "{messages:?}");
        assert!(messages[1].contains("keeping the default"), "{messages:?}");
        assert_eq!(settings, [setting("Ponder", "true")]);
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
        let (_, messages) = config.settings();
        assert!(messages.is_empty(), "{messages:?}");
    }
}
