//! `UCI_LimitStrength` / `UCI_Elo`: a weaker setting searches less and still plays legal moves.

use crate::chess::{play, position};
use crate::harness::{Engine, SOON, info_strings};

fn nodes_of(lines: &[String]) -> u64 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "nodes")?;
            words.get(i + 1)?.parse().ok()
        })
        .unwrap_or(0)
}

#[test]
fn limited_strength_searches_few_nodes_and_plays_legal_moves() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mut engine = Engine::start();
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 500");
    let lines = engine.sync();
    assert!(
        info_strings(&lines)
            .iter()
            .any(|l| l.contains("UCI_Elo: 500 is outside 1012 to 2635")),
        "{lines:?}"
    );
    let mut weak_moves = std::collections::HashSet::new();
    for _ in 0..12 {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send("go wtime 60000 btime 60000");
        let (lines, best, _) = engine.bestmove(SOON);
        play(&position(fen, false), &best).unwrap();
        assert!(nodes_of(&lines) <= 400, "{lines:?}");
        assert!(
            lines.iter().all(|l| !l.contains("multipv 2")),
            "only the lines asked for are shown: {lines:?}"
        );
        let last = lines.iter().rfind(|l| l.contains(" pv ")).unwrap();
        assert_eq!(
            last.split(" pv ").nth(1).unwrap().split_whitespace().next(),
            Some(best.as_str()),
            "the last line shown is the move played"
        );
        weak_moves.insert(best);
    }
    assert!(
        weak_moves.len() > 1,
        "the weakest setting varies its choice: {weak_moves:?}"
    );

    engine.send("setoption name UCI_Elo value 2635");
    engine.send(&format!("position fen {fen}"));
    engine.send("go wtime 60000 btime 60000");
    let (lines, best, _) = engine.bestmove(SOON);
    play(&position(fen, false), &best).unwrap();
    assert!(nodes_of(&lines) > 10_000, "{lines:?}");

    // A fresh hash: the search above already knows this position, and a
    // depth-12 search from its table can finish in under 2 000 nodes.
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 12");
    let (lines, _, _) = engine.bestmove(SOON);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 12 ")),
        "{lines:?}"
    );
    assert!(nodes_of(&lines) > 2_000, "{lines:?}");
}
