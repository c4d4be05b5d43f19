//! Deliberate panics for tests: with `QUINTESSENCE_TEST_PANIC=search,perft,answer` (any of
//! them) those steps of the engine thread panic, so a test can show that a panic anywhere still
//! ends every `go` with one legal `bestmove`; `search#2` panics only in the second search. Unset,
//! nothing happens.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Panics if `step` is listed in `QUINTESSENCE_TEST_PANIC`, alone or with this call's number.
pub fn inject(step: &'static str) {
    static STEPS: OnceLock<String> = OnceLock::new();
    static CALLS: Mutex<BTreeMap<&str, u64>> = Mutex::new(BTreeMap::new());
    let steps = STEPS.get_or_init(|| std::env::var("QUINTESSENCE_TEST_PANIC").unwrap_or_default());
    if steps.is_empty() {
        return;
    }
    let call = {
        let mut calls = CALLS.lock().unwrap_or_else(PoisonError::into_inner);
        let count = calls.entry(step).or_default();
        *count += 1;
        *count
    };
    let listed = |entry: &str| match entry.trim().split_once('#') {
        None => entry.trim() == step,
        Some((name, nth)) => name == step && nth.parse() == Ok(call),
    };
    if steps.split(',').any(listed) {
        panic!("injected panic in '{step}' (QUINTESSENCE_TEST_PANIC)");
    }
}
