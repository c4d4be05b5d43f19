//! `EvalFile` and `Eval`: a network file is loaded or refused with a reason, the engine keeps
//! the network it had, and the hand-crafted evaluation stays selectable.

use crate::harness::{Engine, TempDir, info_strings};
use std::time::Duration;

fn network_score(engine: &mut Engine) -> String {
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine.send("eval");
    let lines = engine.sync();
    lines
        .iter()
        .find(|l| l.contains("network:"))
        .unwrap_or_else(|| panic!("no network line in {lines:#?}"))
        .clone()
}

fn search_answers(engine: &mut Engine) {
    engine.send("position startpos moves e2e4");
    engine.send("go depth 6");
    let (_, best, _) = engine.bestmove(Duration::from_secs(20));
    assert_ne!(best, "0000");
}

#[test]
fn damaged_or_missing_network_files_are_refused_and_the_network_kept() {
    let dir = TempDir::new("evalfile");
    let mut engine = Engine::start();
    engine.sync();
    let embedded = network_score(&mut engine);

    let missing = dir.0.join("missing.nnue");
    let damaged = dir.0.join("damaged.nnue");
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    let mut broken = bytes.clone();
    let last = broken.len() - 1;
    broken[last] ^= 0x55;
    std::fs::write(&damaged, &broken).unwrap();
    let truncated = dir.0.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    for (path, reason) in [
        (&missing, "No such file"),
        (&damaged, "checksum"),
        (&truncated, "bytes"),
    ] {
        engine.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = engine.sync();
        let notes = info_strings(&lines);
        assert!(
            notes
                .iter()
                .any(|l| l.contains("EvalFile") && l.contains(reason) && l.contains("keeping")),
            "{lines:#?}"
        );
        assert_eq!(network_score(&mut engine), embedded);
        search_answers(&mut engine);
    }

    // A good copy loads (and scores like the embedded network it copies).
    let good = dir.0.join("good.nnue");
    std::fs::write(&good, &bytes).unwrap();
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    let lines = engine.sync();
    assert!(
        info_strings(&lines).iter().any(|l| l.contains("loaded")),
        "{lines:#?}"
    );
    assert_eq!(network_score(&mut engine), embedded);
    search_answers(&mut engine);
}

#[test]
fn the_hand_crafted_evaluation_stays_selectable() {
    let mut engine = Engine::start();
    engine.sync();
    let mut scores = Vec::new();
    for eval in ["hce", "nnue", "HCE"] {
        engine.send(&format!("setoption name Eval value {eval}"));
        engine.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        engine.send("go depth 1");
        let (lines, best, _) = engine.bestmove(Duration::from_secs(10));
        assert_ne!(best, "0000");
        let score = lines
            .iter()
            .rev()
            .find_map(|l| l.split(" score cp ").nth(1))
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .to_string();
        scores.push(score);
    }
    assert_eq!(scores[0], scores[2], "hce twice");
    assert_ne!(
        scores[0], scores[1],
        "the network scores otherwise: {scores:?}"
    );
    engine.send("setoption name Eval value neural");
    let lines = engine.sync();
    assert!(
        info_strings(&lines).iter().any(|l| l.contains("Eval")),
        "{lines:#?}"
    );
}
