//! Feeds arbitrary bytes, line by line, through the UCI reader into one long-lived front-end:
//! FENs, `position ... moves`, `go`, `setoption`, anything. Any panic, in the front-end or in
//! the search thread (even one caught there), aborts and is reported by libFuzzer.
//!
//! Lines that would stop the engine, allocate gigabytes, spawn hundreds of threads, write files
//! or run for minutes without a way to stop them are dropped (see `tame`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use quintessence::uci::reader::{Input, LineReader};
use quintessence::uci::{FrontEnd, Options};
use std::cell::RefCell;

thread_local! {
    static FRONT: RefCell<FrontEnd> =
        RefCell::new(FrontEnd::new(Options::default(), Box::new(std::io::sink())));
}

/// The numbers in `line` are all at most `max`.
fn numbers_at_most(line: &str, max: u64) -> bool {
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .all(|w| w.parse::<u64>().is_ok_and(|n| n <= max))
}

/// Whether the line is safe to run here (see the module comment).
fn tame(line: &str) -> bool {
    let lower = line.to_lowercase();
    let has = |word: &str| lower.contains(word);
    if has("quit") || has("bench") || has("log") || has("syzygy") {
        return false;
    }
    (!has("hash") || numbers_at_most(&lower, 64))
        && (!has("thread") || numbers_at_most(&lower, 4))
        && (!has("perft") || numbers_at_most(&lower, 3))
}

fuzz_target!(|data: &[u8]| {
    FRONT.with_borrow_mut(|front| {
        let mut reader = LineReader::with_limit(data, 4096);
        while let Some(input) = reader.next_input() {
            match input {
                Input::Line(line) if tame(&line) => {
                    front.handle(&line);
                }
                Input::Line(_) => {}
                Input::TooLong(bytes) => front.too_long(bytes),
            }
        }
        // Whatever the input started ends here, so searches never pile up.
        front.handle("stop");
    });
});
