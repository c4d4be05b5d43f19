//! `readyok` means ready, `stop` means stop: a large table is allocated and cleared before
//! `readyok` (not on the clock of the next search), and `stop` is answered promptly with many
//! threads.
//!
//! A test target of its own (see `Cargo.toml`), its tests one at a time: they load the
//! machine (gigabytes of fresh pages, 256 busy threads), which would make the timed tests of
//! the `uci` target flaky if they ran beside them.

// This target uses only part of the harness.
#[allow(dead_code, unused_imports)]
#[path = "harness.rs"]
mod harness;

use harness::Engine;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Held by each test: one at a time.
fn alone() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A GUI-sized table: allocating and clearing it takes seconds on the development machine.
const BIG_HASH_MB: usize = 2048;
/// How long the table may take before `readyok`.
const READY: Duration = Duration::from_secs(120);
/// `go movetime 100` must answer within this, whatever the table size (it used to take a
/// second and more per GB, the table being allocated inside the search).
const MOVETIME_100: Duration = Duration::from_millis(800);

fn sync_within(engine: &mut Engine, timeout: Duration) {
    engine.send("isready");
    engine.until(timeout, |l| l == "readyok");
}

/// `go movetime 100` from the start position: how long until `bestmove`.
fn movetime_100(engine: &mut Engine) -> Duration {
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go movetime 100");
    engine.bestmove(Duration::from_secs(60));
    start.elapsed()
}

#[test]
fn a_large_hash_is_allocated_before_readyok() {
    let _alone = alone();
    let mut engine = Engine::start();
    engine.send(&format!("setoption name Hash value {BIG_HASH_MB}"));
    sync_within(&mut engine, READY);
    let took = movetime_100(&mut engine);
    assert!(
        took < MOVETIME_100,
        "go movetime 100 after a {BIG_HASH_MB} MB Hash took {took:?}"
    );
}

#[test]
fn ucinewgame_and_clear_hash_take_effect_before_readyok() {
    let _alone = alone();
    let mut engine = Engine::start();
    for (size, clear) in [
        (BIG_HASH_MB, "ucinewgame"),
        (BIG_HASH_MB - 8, "setoption name Clear Hash"),
    ] {
        engine.send(&format!("setoption name Hash value {size}"));
        engine.send(clear);
        sync_within(&mut engine, READY);
        let took = movetime_100(&mut engine);
        assert!(
            took < MOVETIME_100,
            "go movetime 100 after Hash {size} and {clear} took {took:?}"
        );
    }
}

#[test]
fn stop_is_answered_promptly_with_256_threads() {
    let _alone = alone();
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 256");
    sync_within(&mut engine, Duration::from_secs(30));
    engine.send("position startpos moves e2e4");
    for _ in 0..3 {
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        engine.send("stop");
        engine.bestmove(Duration::from_secs(30));
        let took = start.elapsed();
        // It took several seconds when every search spawned and joined its threads.
        assert!(took < Duration::from_millis(2000), "stop took {took:?}");
        sync_within(&mut engine, Duration::from_secs(30));
    }
}
