//! OpenBench's opening request for data-generation workloads, which it sends as the whole
//! command line (`./engine "genfens N seed S book <None|path> [extra]" "quit"`), not as a
//! subcommand clap could read: it is taken off the command line before clap sees it.
//!
//! The answer is exactly N lines `info string genfens <FEN>` on stdout, each printed as soon as
//! it is found, the same for the same request. Openings are `datagen`'s (`train/openings.rs`):
//! without a book, random plies from the start position; with a book, a line drawn at random
//! from it and then random plies; either kept only when a depth-8 search scores it within
//! datagen's bound. `extra` is a list of `key=value` words:
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `plies` | random plies (this many or one more; 0: none) | 8; 2 after a book line |
//! | `dfrc` | per cent of openings from a double Fischer random start (no book) | 0 |
//! | `maxscore` | the depth-8 score an opening may not exceed, centipawns | 1000 |
//!
//! The DFRC share is 0 unless asked for: OpenBench plays a workload whose book is `None` as
//! standard chess, where a DFRC start's castling cannot be played.

use quintessence::search::Searcher;
use quintessence::train::openings::{self, Openings};
use quintessence::train::selfplay::DatagenConfig;
use quintessence::types::Rng;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Random plies after a book line when `extra` does not say.
const BOOK_PLIES: usize = 2;
/// Openings tried per opening asked for before giving up (a book whose lines all fail the
/// filter, or a bound no opening meets).
const TRIES_PER_OPENING: usize = 1_000;

/// One parsed request.
#[derive(Debug, PartialEq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    pub book: Option<PathBuf>,
    pub plies: Option<usize>,
    pub dfrc_percent: u32,
    pub max_score: i32,
}

/// Answers the command line when it is a genfens request (its first argument starts with the
/// word `genfens`); None when it is not, for clap to read. A trailing `quit` is dropped.
pub fn intercept(args: &[OsString]) -> Option<ExitCode> {
    let first = args.get(1)?.to_str()?;
    if first.split_whitespace().next() != Some("genfens") {
        return None;
    }
    let mut words: Vec<String> = Vec::new();
    for arg in &args[1..] {
        let Some(text) = arg.to_str() else {
            eprintln!("quintessence: genfens: an argument is not UTF-8");
            return Some(ExitCode::from(2));
        };
        words.extend(text.split_whitespace().map(str::to_string));
    }
    if words.last().is_some_and(|w| w == "quit") {
        words.pop();
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let result = parse(&words).and_then(|request| run(&request));
    Some(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quintessence: genfens: {e}");
            ExitCode::from(2)
        }
    })
}

const USAGE: &str = "expected 'genfens <N> seed <S> book <None|path> [plies=<n>] [dfrc=<percent>] \
                     [maxscore=<cp>]'";

/// Reads `genfens N seed S book B [extra...]`.
pub fn parse(words: &[&str]) -> Result<Request, String> {
    let [genfens, count, seed_word, seed, book_word, book, extra @ ..] = words else {
        return Err(format!("'{}': {USAGE}", words.join(" ")));
    };
    if (*genfens, *seed_word, *book_word) != ("genfens", "seed", "book") {
        return Err(format!("'{}': {USAGE}", words.join(" ")));
    }
    let number = |what: &str, text: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("{what} '{text}' is not a whole number: {USAGE}"))
    };
    let defaults = DatagenConfig::default();
    let mut request = Request {
        count: number("N", count)? as usize,
        seed: number("the seed", seed)?,
        book: (!book.eq_ignore_ascii_case("none")).then(|| PathBuf::from(book)),
        plies: None,
        dfrc_percent: 0,
        max_score: defaults.max_opening_score,
    };
    for word in extra {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("'{word}': extra words are key=value: {USAGE}"))?;
        let value = number(key, value)?;
        match key {
            "plies" if value <= 100 => request.plies = Some(value as usize),
            "dfrc" if value <= 100 => request.dfrc_percent = value as u32,
            "maxscore" if value <= 30_000 => request.max_score = value as i32,
            "plies" | "dfrc" | "maxscore" => return Err(format!("{key}={value} is out of range")),
            _ => return Err(format!("unknown extra '{word}': {USAGE}")),
        }
    }
    Ok(request)
}

/// Prints the request's openings, one line each as it is found.
fn run(request: &Request) -> Result<(), String> {
    let defaults = DatagenConfig::default();
    let book = match &request.book {
        Some(path) => Some(openings::read_book(path)?),
        None => None,
    };
    let default_plies = if book.is_some() {
        BOOK_PLIES
    } else {
        defaults.random_plies
    };
    let openings = Openings {
        random_plies: request.plies.unwrap_or(default_plies),
        dfrc_percent: request.dfrc_percent,
        max_score: request.max_score,
        evaluator: defaults.evaluator.clone(),
    };
    let mut searcher = Searcher::new(defaults.hash_mb);
    let mut rng = Rng::new(request.seed);
    let mut found = 0;
    for _ in 0..request.count.saturating_mul(TRIES_PER_OPENING) {
        if found == request.count {
            break;
        }
        searcher.clear();
        let game = match &book {
            Some(lines) => {
                let (number, line) = &lines[rng.below(lines.len())];
                let start = openings::book_position(line)
                    .map_err(|e| format!("book line {number}: {e}"))?;
                openings.from_position(start, &mut searcher, &mut rng)
            }
            None => openings.random(&mut searcher, &mut rng),
        };
        if let Some(game) = game {
            super::print_out(&format!("info string genfens {}\n", game.board().to_fen()));
            found += 1;
        }
    }
    if found < request.count {
        return Err(format!(
            "only {found} of {} openings passed the filter (|score| <= {}) in {} tries",
            request.count,
            request.max_score,
            request.count * TRIES_PER_OPENING
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    #[test]
    fn requests_parse_with_and_without_a_book_and_extras() {
        let request = parse(&words("genfens 12 seed 345 book None")).unwrap();
        assert_eq!((request.count, request.seed, request.book), (12, 345, None));
        let request = parse(&words(
            "genfens 3 seed 1 book Books/a.epd plies=0 dfrc=25 maxscore=200",
        ))
        .unwrap();
        assert_eq!(request.book, Some(PathBuf::from("Books/a.epd")));
        assert_eq!(
            (request.plies, request.dfrc_percent, request.max_score),
            (Some(0), 25, 200)
        );
    }

    #[test]
    fn malformed_requests_say_what_is_wrong() {
        for (line, says) in [
            ("genfens", "expected"),
            ("genfens 5 seed 1", "expected"),
            ("genfens x seed 1 book None", "N 'x'"),
            ("genfens 5 seed -1 book None", "the seed '-1'"),
            ("genfens 5 sead 1 book None", "expected"),
            ("genfens 5 seed 1 book None plies", "key=value"),
            ("genfens 5 seed 1 book None depth=3", "unknown extra"),
            ("genfens 5 seed 1 book None dfrc=101", "out of range"),
        ] {
            let error = parse(&words(line)).unwrap_err();
            assert!(error.contains(says), "{line}: {error}");
        }
    }

    #[test]
    fn only_a_genfens_command_line_is_taken() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(intercept(&args(&["quintessence"])).is_none());
        assert!(intercept(&args(&["quintessence", "bench"])).is_none());
        assert!(intercept(&args(&["quintessence", "genfensx 1"])).is_none());
    }
}
