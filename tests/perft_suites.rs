//! Perft on every position of the published suites, with every attack back-end and both
//! generation styles, against the published counts in tests/data/perft/.

mod common;

use common::{deepest_within, load_epd};
use quintessence::attacks::{Backend, SliderAttacks};
use quintessence::board::Board;
use quintessence::perft::{perft, perft_directional};
use quintessence::with_backend;

/// Per case, the deepest published depth with at most this many nodes.
const STANDARD_BUDGET: u64 = 2_000_000;
const CHESS960_BUDGET: u64 = 400_000;

fn run_suite<A: SliderAttacks>(file: &str, budget: u64) {
    let cases = load_epd(file);
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in &cases {
        let board = Board::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen))
            .with_occupancy::<A::Occ>();
        let (depth, expected) = deepest_within(case, budget);
        let piecewise = perft::<A>(&board, depth);
        let directional = perft_directional::<A>(&board, depth);
        if piecewise != expected || directional != expected {
            failures.push(format!(
                "{} depth {depth}: expected {expected}, piece-wise {piecewise}, direction-wise {directional}",
                case.fen
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} ({} of {} positions failed):\n{}",
        A::NAME,
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn run_all_suites(backend: Backend) {
    if !backend.is_available() {
        eprintln!("{backend} is not available on this machine; skipped");
        return;
    }
    with_backend!(backend, A => {
        run_suite::<A>("perft/standard.epd", STANDARD_BUDGET);
        run_suite::<A>("perft/cpw.epd", STANDARD_BUDGET);
        run_suite::<A>("perft/chess960.epd", CHESS960_BUDGET);
    });
}

#[test]
fn classical() {
    run_all_suites(Backend::Classical);
}

#[test]
fn classical_calculated() {
    run_all_suites(Backend::ClassicalCalc);
}

#[test]
fn rotated() {
    run_all_suites(Backend::Rotated);
}

#[test]
fn hyperbola() {
    run_all_suites(Backend::Hyperbola);
}

#[test]
fn dumb7fill() {
    run_all_suites(Backend::Dumb7Fill);
}

#[test]
fn kogge_stone() {
    run_all_suites(Backend::KoggeStone);
}

#[test]
fn magic() {
    run_all_suites(Backend::Magic);
}

#[test]
fn pext() {
    run_all_suites(Backend::Pext);
}
