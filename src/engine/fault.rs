//! Deliberate panics for tests: with `QUINTESSENCE_TEST_PANIC=search,perft,answer` (any of
//! them) those steps of the search thread panic, so a test can show that a panic anywhere still
//! ends every `go` with one legal `bestmove`. Unset, nothing happens.

use std::sync::OnceLock;

/// Panics if `step` is listed in `QUINTESSENCE_TEST_PANIC`.
pub fn inject(step: &str) {
    static STEPS: OnceLock<String> = OnceLock::new();
    let steps = STEPS.get_or_init(|| std::env::var("QUINTESSENCE_TEST_PANIC").unwrap_or_default());
    if steps.split(',').any(|s| s.trim() == step) {
        panic!("injected panic in '{step}' (QUINTESSENCE_TEST_PANIC)");
    }
}
