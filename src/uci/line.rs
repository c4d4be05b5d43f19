//! One line from the GUI, classified. The first word decides who parses the rest:
//! vampirc-uci for the simple commands it handles well (`uci`, `debug`, `isready`, `setoption`
//! with spaced names, `register`, `ucinewgame`, `stop`, `ponderhit`, `quit`), our own modules
//! for `position` and `go`, and plain matching for our extensions (`d`, `eval`, `compiler`, `bench`).
//! vampirc-uci never sees a line that could make it panic, and is guarded all the same.

use crate::protocol::format::shorten;
use std::panic::{AssertUnwindSafe, catch_unwind};
use vampirc_uci::UciMessage;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    Register,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    /// The words after `position`.
    Position(Vec<String>),
    /// The words after `go`.
    Go(Vec<String>),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the board, FEN and key.
    Display,
    /// `eval`: the static evaluation.
    Eval,
    /// `compiler`: version, commit, compiler, CPU level, network and kernel.
    Compiler,
    /// `bench [depth]`.
    Bench(Option<String>),
    /// A blank line.
    Empty,
    /// Something we cannot act on, with the reason.
    Invalid(String),
}

const SIMPLE: [&str; 9] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "stop",
    "ponderhit",
    "quit",
];

pub fn parse_line(line: &str) -> UciCommand {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return UciCommand::Empty;
    };
    let keyword = first.to_ascii_lowercase();
    let rest = || words.clone().map(str::to_string).collect::<Vec<_>>();
    match keyword.as_str() {
        "position" => UciCommand::Position(rest()),
        "go" => UciCommand::Go(rest()),
        "d" => UciCommand::Display,
        "eval" => UciCommand::Eval,
        "compiler" => UciCommand::Compiler,
        "bench" => UciCommand::Bench(words.clone().next().map(str::to_string)),
        k if SIMPLE.contains(&k) => parse_simple(line.trim(), k),
        _ => UciCommand::Invalid(format!("unknown command '{}'", shorten(first))),
    }
}

/// A simple command, through vampirc-uci.
fn parse_simple(line: &str, keyword: &str) -> UciCommand {
    let message = match catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(line))) {
        Ok(message) => message,
        Err(_) => {
            log::error!("vampirc-uci panicked on {line:?}");
            return UciCommand::Invalid(format!("could not parse '{}'", shorten(line)));
        }
    };
    match message {
        UciMessage::Uci => UciCommand::Uci,
        UciMessage::Debug(on) => UciCommand::Debug(on),
        UciMessage::IsReady => UciCommand::IsReady,
        UciMessage::Register { .. } => UciCommand::Register,
        UciMessage::SetOption { name, value } => UciCommand::SetOption { name, value },
        UciMessage::UciNewGame => UciCommand::UciNewGame,
        UciMessage::Stop => UciCommand::Stop,
        UciMessage::PonderHit => UciCommand::PonderHit,
        UciMessage::Quit => UciCommand::Quit,
        _ => UciCommand::Invalid(match keyword {
            "debug" => "debug: expected 'debug on' or 'debug off'".to_string(),
            "setoption" => {
                "setoption: expected 'setoption name <name> [value <value>]'".to_string()
            }
            "register" => {
                "register: expected 'register later' or 'register name <name> code <code>'"
                    .to_string()
            }
            _ => format!("could not parse '{}'", shorten(line)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn simple_commands_go_through_vampirc() {
        assert_eq!(parse_line("uci"), UciCommand::Uci);
        assert_eq!(parse_line("  isready\t"), UciCommand::IsReady);
        assert_eq!(parse_line("debug on"), UciCommand::Debug(true));
        assert_eq!(parse_line("ucinewgame"), UciCommand::UciNewGame);
        assert_eq!(parse_line("register later"), UciCommand::Register);
        assert_eq!(
            parse_line("setoption name Move Overhead value 30"),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse_line("setoption name Clear Hash"),
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn position_and_go_are_ours() {
        assert_eq!(
            parse_line("go ponder wtime 100 depth 300"),
            UciCommand::Go(words(&["ponder", "wtime", "100", "depth", "300"]))
        );
        assert_eq!(
            parse_line("position fen 8/8/8/8/8/8/8/K1k5 w - - moves 0000"),
            UciCommand::Position(words(&[
                "fen",
                "8/8/8/8/8/8/8/K1k5",
                "w",
                "-",
                "-",
                "moves",
                "0000"
            ]))
        );
        assert_eq!(parse_line("bench 3"), UciCommand::Bench(Some("3".into())));
    }

    #[test]
    fn malformed_and_unknown_lines_are_invalid() {
        for line in [
            "debug",
            "debug maybe",
            "setoption",
            "setoption name",
            "register",
            "foo bar",
        ] {
            assert!(matches!(parse_line(line), UciCommand::Invalid(_)), "{line}");
        }
        assert_eq!(parse_line("   "), UciCommand::Empty);
    }
}
