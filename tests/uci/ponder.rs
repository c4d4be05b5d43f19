//! Pondering: `go ponder` (with a clock after it, as cutechess, python-chess and lichess-bot
//! send it), `ponderhit`, `stop`, and `bestmove X ponder Y`.

use crate::chess::{after, play};
use crate::harness::{Engine, PROMPT, SOON};
use std::time::{Duration, Instant};

const CLOCK: &str = "wtime 2000 btime 2000 winc 0 binc 0";

fn check_reply(moves: &[&str], best: &str, ponder: Option<&str>) {
    let pos = play(&after(moves), best).unwrap();
    if let Some(p) = ponder {
        play(&pos, p).unwrap();
    }
}

#[test]
fn ponder_then_ponderhit_plays_on_the_clock() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send(&format!("go ponder {CLOCK}"));
    // 300 ms is far beyond this clock's budget for one move: only pondering explains the wait.
    let early = engine.quiet_for(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "ponder flag lost: {early:?}"
    );
    let start = Instant::now();
    engine.send("ponderhit");
    let (_, best, ponder) = engine.bestmove(SOON);
    assert!(
        start.elapsed() < Duration::from_millis(2000),
        "{:?}",
        start.elapsed()
    );
    check_reply(&["e2e4", "e7e5"], &best, ponder.as_deref());
}

#[test]
fn ponder_then_stop_answers_at_once() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves d2d4 d7d5");
    engine.send(&format!("go ponder {CLOCK}"));
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    engine.send("stop");
    let (_, best, ponder) = engine.bestmove(SOON);
    assert!(start.elapsed() < PROMPT, "{:?}", start.elapsed());
    check_reply(&["d2d4", "d7d5"], &best, ponder.as_deref());
    // The engine goes on normally: the next search is not affected by the ponder flag.
    engine.send("position startpos moves d2d4 d7d5 c2c4");
    engine.send("go movetime 100");
    let (_, best, _) = engine.bestmove(SOON);
    play(&after(&["d2d4", "d7d5", "c2c4"]), &best).unwrap();
}

#[test]
fn a_finished_ponder_search_waits_for_ponderhit() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("go ponder depth 2");
    let held = engine.quiet_for(Duration::from_millis(400));
    assert!(
        held.iter().any(|l| l.starts_with("info depth 2")),
        "{held:?}"
    );
    assert!(!held.iter().any(|l| l.starts_with("bestmove")), "{held:?}");
    let start = Instant::now();
    engine.send("ponderhit");
    let (_, best, ponder) = engine.bestmove(SOON);
    assert!(start.elapsed() < PROMPT);
    assert_eq!(ponder, None, "Ponder option is off: no ponder move");
    play(&after(&["e2e4"]), &best).unwrap();
}

#[test]
fn ponder_option_adds_a_legal_ponder_move() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves g1f3 d7d5");
    engine.send("go depth 3");
    let (_, best, ponder) = engine.bestmove(SOON);
    let ponder = ponder.expect("a depth-3 search knows a reply");
    check_reply(&["g1f3", "d7d5"], &best, Some(&ponder));
}
