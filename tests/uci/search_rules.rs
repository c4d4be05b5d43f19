//! Rules the search must get right whatever it prunes: repetitions counted as the rules count
//! them, a mate that ends the 50 moves still a mate, and tablebase wins reported as scores, not
//! as mate distances.

use crate::harness::{Engine, SOON, test_data};

/// The score of the last `info depth` line before `bestmove`, and the move.
fn final_score(engine: &mut Engine, go: &str) -> (String, i32, String) {
    engine.send(go);
    let (info, best, _) = engine.bestmove(SOON);
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let (kind, value) = score_of(last);
    (kind, value, best)
}

fn score_of(line: &str) -> (String, i32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").expect("score");
    (words[at + 1].to_string(), words[at + 2].parse().unwrap())
}

// White is a queen and a rook up; the black king shuffles a8-b8 while the white king shuffles
// h1-g1. At the root black can go back to the start position with b8a8.
const SHUFFLE_START: &str = "k7/8/8/8/8/8/5R2/5Q1K w - - 0 1";

#[test]
fn one_earlier_occurrence_before_the_root_is_not_a_draw() {
    let mut engine = Engine::start();
    // The start position has occurred once: going back to it is no draw, black stays lost.
    engine.send(&format!(
        "position fen {SHUFFLE_START} moves h1g1 a8b8 g1h1"
    ));
    let (kind, value, best) = final_score(&mut engine, "go depth 8");
    assert!(
        kind == "mate" && value < 0 || kind == "cp" && value < -500,
        "black is lost, not drawing: score {kind} {value}, bestmove {best}"
    );
    // Twice before: b8a8 makes it three times, a draw black takes.
    engine.send(&format!(
        "position fen {SHUFFLE_START} moves h1g1 a8b8 g1h1 b8a8 h1g1 a8b8 g1h1"
    ));
    let (kind, value, best) = final_score(&mut engine, "go depth 8");
    assert_eq!((kind.as_str(), value, best.as_str()), ("cp", 0, "b8a8"));
}

#[test]
fn a_mate_on_the_hundredth_half_move_is_a_mate() {
    let mut engine = Engine::start();
    // Every move reaches the 50-move limit, but Ra8 mates, and mate comes first.
    engine.send("position fen 7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    let (kind, value, best) = final_score(&mut engine, "go depth 6");
    assert_eq!((kind.as_str(), value, best.as_str()), ("mate", 1, "a1a8"));
    // Without the mate the limit is a draw.
    engine.send("position fen 7k/8/5K2/8/8/8/8/R7 w - - 99 80");
    let (kind, value, _) = final_score(&mut engine, "go depth 6");
    assert_eq!((kind.as_str(), value), ("cp", 0));
}

#[test]
fn a_tablebase_win_is_a_score_and_a_mate_once_found_is_kept() {
    let tables = test_data("syzygy");
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables.display()
    ));
    // KQvK: mate in 7 with best play.
    engine.send("position fen 8/8/8/4k3/8/8/3QK3/8 w - - 0 1");
    engine.send("go depth 24");
    let (info, _, _) = engine.bestmove(SOON);
    let scores: Vec<(String, i32)> = info
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| score_of(l))
        .collect();
    let shown = format!("{scores:?}");
    let mut mate_seen: Option<i32> = None;
    for (kind, value) in &scores {
        match (kind.as_str(), mate_seen) {
            // Before the search finds the mate: the tables' win, as a large cp score.
            ("cp", None) => assert!(*value > 20_000, "{shown}"),
            // A mate found is a mate at every later depth, never a longer one.
            ("mate", None) => mate_seen = Some(*value),
            ("mate", Some(earlier)) if (1..=earlier).contains(value) => mate_seen = Some(*value),
            _ => panic!("score {kind} {value} after mate {mate_seen:?}: {shown}"),
        }
    }
    assert!(
        mate_seen.is_some_and(|n| n <= 10),
        "a short mate by depth 24: {shown}"
    );
}
