//! `go ...`, parsed here rather than by vampirc-uci, which drops `ponder` when a clock follows
//! (`go ponder wtime ...`, as cutechess, python-chess and lichess-bot send it), panics on
//! `depth`/`movestogo`/`mate` above 255, and knows no `perft`.
//!
//! A bad parameter never costs the GUI its `bestmove`: it is skipped or clamped, and all the
//! problems of one line are reported together in one `info string`.

use super::number::parse_integer;
use crate::board::Board;
use crate::game::parse_uci_move;
use crate::protocol::format::shorten;
use crate::search::Limits;

/// Clock values beyond this (about 31 years, in ms) are absurd and clamped.
pub const MAX_TIME_MS: u64 = 1_000_000_000_000;
/// Depths (and mate distances) beyond this are clamped.
pub const MAX_COUNT: u32 = 10_000;
/// `go perft` depths beyond this would not finish.
pub const MAX_PERFT_DEPTH: u32 = 15;

const KEYWORDS: [&str; 14] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "go",
];

/// What a `go` line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoRequest {
    Search(Limits),
    Perft(u32),
}

/// A parsed `go` line: the request (none when it cannot be honoured at all) and the problems
/// found, for one `info string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedGo {
    pub request: Option<GoRequest>,
    pub problems: Vec<String>,
}

/// Parses the tokens after `go`; `board` is the position searched (for `searchmoves`).
pub fn parse_go(tokens: &[&str], board: &Board, chess960: bool) -> ParsedGo {
    let mut limits = Limits::default();
    let mut perft: Option<Option<u32>> = None;
    let mut problems = Vec::new();
    let mut searchmoves_given = false;
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        let value = tokens.get(i).copied().filter(|t| !KEYWORDS.contains(t));
        let mut number = |problems: &mut Vec<String>| -> Option<i128> {
            match value {
                None => {
                    problems.push(format!("'{key}' needs a number"));
                    None
                }
                Some(text) => {
                    i += 1;
                    let n = parse_integer(text);
                    if n.is_none() {
                        problems.push(format!("'{key} {}' is not a number", shorten(text)));
                    }
                    n
                }
            }
        };
        match key {
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                if let Some(n) = number(&mut problems) {
                    let ms = time_value(key, n, &mut problems);
                    match key {
                        "wtime" => limits.wtime = Some(ms),
                        "btime" => limits.btime = Some(ms),
                        "winc" => limits.winc = Some(ms),
                        "binc" => limits.binc = Some(ms),
                        _ => limits.movetime = Some(ms),
                    }
                }
            }
            "movestogo" => {
                if let Some(n) = number(&mut problems) {
                    limits.movestogo = count_value(key, n, 1, MAX_COUNT, &mut problems);
                }
            }
            "depth" => {
                if let Some(n) = number(&mut problems) {
                    limits.depth = count_value(key, n, 0, MAX_COUNT, &mut problems);
                }
            }
            "mate" => {
                if let Some(n) = number(&mut problems) {
                    limits.mate = count_value(key, n, 1, MAX_COUNT, &mut problems);
                }
            }
            "nodes" => {
                if let Some(n) = number(&mut problems) {
                    if n < 1 {
                        problems.push(format!("'nodes {n}' ignored (must be at least 1)"));
                    } else {
                        if n > i128::from(u64::MAX) {
                            problems.push(format!("'nodes' too large: using {}", u64::MAX));
                        }
                        limits.nodes = Some(n.min(i128::from(u64::MAX)) as u64);
                    }
                }
            }
            "perft" => {
                perft = Some(
                    number(&mut problems)
                        .and_then(|n| count_value(key, n, 1, MAX_PERFT_DEPTH, &mut problems)),
                );
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                searchmoves_given = true;
                while let Some(&text) = tokens.get(i).filter(|t| !KEYWORDS.contains(t)) {
                    i += 1;
                    match parse_uci_move(board, text, chess960) {
                        Ok(mv) if !limits.searchmoves.contains(&mv) => limits.searchmoves.push(mv),
                        Ok(_) => {}
                        Err(e) => problems.push(format!("searchmoves: {e}")),
                    }
                }
            }
            other => problems.push(format!("unknown go parameter '{}'", shorten(other))),
        }
    }
    if searchmoves_given && limits.searchmoves.is_empty() {
        problems.push("no legal move among searchmoves: searching all moves".to_string());
    }
    if limits.infinite {
        // Infinite means no clock: the GUI will say `stop`.
        limits.wtime = None;
        limits.btime = None;
        limits.movetime = None;
    }
    let request = match perft {
        Some(Some(depth)) => Some(GoRequest::Perft(depth)),
        Some(None) => {
            problems.push(format!(
                "go perft needs a depth from 1 to {MAX_PERFT_DEPTH}: nothing done"
            ));
            None
        }
        None => Some(GoRequest::Search(limits)),
    };
    ParsedGo { request, problems }
}

fn time_value(key: &str, n: i128, problems: &mut Vec<String>) -> u64 {
    if n < 0 {
        problems.push(format!("'{key} {n}' is negative: using 0"));
        0
    } else if n > i128::from(MAX_TIME_MS) {
        problems.push(format!("'{key}' is absurdly large: using {MAX_TIME_MS}"));
        MAX_TIME_MS
    } else {
        n as u64
    }
}

/// A count (depth, moves): below `min` it is ignored, above `max` clamped.
fn count_value(key: &str, n: i128, min: u32, max: u32, problems: &mut Vec<String>) -> Option<u32> {
    if n < i128::from(min) {
        problems.push(format!("'{key} {n}' ignored (must be at least {min})"));
        None
    } else if n > i128::from(max) {
        problems.push(format!("'{key}' too large: using {max}"));
        Some(max)
    } else {
        Some(n as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> ParsedGo {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        parse_go(&tokens, &Board::startpos(), false)
    }

    fn limits(line: &str) -> Limits {
        match go(line).request {
            Some(GoRequest::Search(limits)) => limits,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn ponder_survives_a_following_clock() {
        let l = limits("ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 40");
        assert!(l.ponder);
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        assert_eq!(l.movestogo, Some(40));
    }

    #[test]
    fn large_depths_do_not_panic() {
        assert_eq!(limits("depth 300").depth, Some(300));
        assert_eq!(limits("movestogo 300").movestogo, Some(300));
        let parsed = go(&format!("depth {}", "9".repeat(50)));
        assert_eq!(parsed.problems.len(), 1);
    }

    #[test]
    fn bad_values_are_reported_once_per_line_and_skipped() {
        let parsed = go("depth -3 wtime abc nodes 5 movetime -10 bogus");
        assert_eq!(parsed.problems.len(), 4, "{:?}", parsed.problems);
        let Some(GoRequest::Search(l)) = parsed.request else {
            panic!()
        };
        assert_eq!(
            (l.depth, l.wtime, l.nodes, l.movetime),
            (None, None, Some(5), Some(0))
        );
    }

    #[test]
    fn missing_numbers_are_reported() {
        let parsed = go("depth movetime 100");
        assert_eq!(parsed.problems, vec!["'depth' needs a number".to_string()]);
        assert!(matches!(parsed.request, Some(GoRequest::Search(l)) if l.movetime == Some(100)));
    }

    #[test]
    fn searchmoves_keeps_legal_moves() {
        let parsed = go("searchmoves e2e4 e2e5 d2d4 depth 3");
        assert_eq!(parsed.problems.len(), 1);
        let Some(GoRequest::Search(l)) = parsed.request else {
            panic!()
        };
        let texts: Vec<String> = l.searchmoves.iter().map(|m| m.to_uci(false)).collect();
        assert_eq!(texts, ["e2e4", "d2d4"]);
        assert_eq!(l.depth, Some(3));
    }

    #[test]
    fn perft_and_infinite() {
        assert_eq!(go("perft 4").request, Some(GoRequest::Perft(4)));
        assert_eq!(
            go("perft 99").request,
            Some(GoRequest::Perft(MAX_PERFT_DEPTH))
        );
        assert_eq!(go("perft x").request, None);
        let l = limits("infinite wtime 100");
        assert!(l.infinite && l.wtime.is_none());
        assert_eq!(limits(""), Limits::default());
    }
}
