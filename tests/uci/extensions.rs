//! Our extensions at the UCI prompt (`go perft`, `d`, `eval`, `bench`), `debug`, the `Attacks`
//! option and the `Debug Log File`.

use crate::harness::{Engine, SOON};

/// `go perft <depth>`: divide lines, a blank line, `Nodes searched: N`.
fn perft(engine: &mut Engine, depth: u32) -> (Vec<(String, u64)>, u64) {
    engine.send(&format!("go perft {depth}"));
    let lines = engine.until(SOON, |l| l.starts_with("Nodes searched: "));
    let total = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .unwrap();
    assert_eq!(lines[lines.len() - 2], "", "a blank line before the total");
    let divide = lines[..lines.len() - 2]
        .iter()
        .map(|l| {
            let (mv, n) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("divide line: {l}"));
            (mv.to_string(), n.parse().unwrap())
        })
        .collect();
    (divide, total)
}

#[test]
fn go_perft_prints_stockfish_style_divide() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (divide, total) = perft(&mut engine, 3);
    assert_eq!(total, 8902);
    assert_eq!(divide.len(), 20);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    assert!(divide.contains(&("e2e4".to_string(), 600)));
    // Kiwipete, with every available back-end.
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine.send("uci");
    let options = engine.until(SOON, |l| l == "uciok");
    let attacks = options
        .iter()
        .find(|l| l.starts_with("option name Attacks "))
        .unwrap();
    for backend in attacks.split(" var ").skip(1) {
        engine.send(&format!("setoption name Attacks value {backend}"));
        assert!(engine.sync().is_empty(), "{backend} is accepted");
        assert_eq!(perft(&mut engine, 2).1, 2039, "{backend}");
    }
}

#[test]
fn go_perft_honours_chess960_castling_notation() {
    let mut engine = Engine::start();
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    engine.send(&format!("position fen {fen}"));
    let (divide, _) = perft(&mut engine, 1);
    assert!(divide.iter().any(|(m, _)| m == "e1g1") && divide.iter().any(|(m, _)| m == "e1c1"));
    engine.send("setoption name UCI_Chess960 value true");
    let (divide, total) = perft(&mut engine, 1);
    assert!(divide.iter().any(|(m, _)| m == "e1h1") && divide.iter().any(|(m, _)| m == "e1a1"));
    assert_eq!(total, 26);
    // A Chess960 start position with Shredder-FEN castling rights.
    engine.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(perft(&mut engine, 2).1, 528);
}

#[test]
fn d_and_eval_describe_the_position() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("d");
    let lines = engine.until(SOON, |l| l.starts_with("Key: "));
    assert!(lines.iter().any(|l| l.contains("| P |")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    engine.send("eval");
    let lines = engine.until(SOON, |l| l.starts_with("evaluation: "));
    let last = lines.last().unwrap();
    assert!(last.ends_with("cp (side to move)"), "{last}");
    assert!(
        lines.iter().any(|l| l.starts_with("total ")),
        "a breakdown by term: {lines:#?}"
    );
}

#[test]
fn compiler_names_the_build_and_the_network_in_use() {
    let mut engine = Engine::start();
    engine.send("uci");
    let id = engine.until(SOON, |l| l == "uciok");
    let version = id[0]
        .strip_prefix("id name Quintessence ")
        .unwrap()
        .to_string();
    assert!(version.starts_with(env!("CARGO_PKG_VERSION")), "{version}");
    engine.send("compiler");
    let lines = engine.until(SOON, |l| l.starts_with("nnue kernel : "));
    assert_eq!(lines[0], format!("Quintessence {version}"));
    // Cargo.toml's version decides, never a git tag: a release number (no `-dev`) from a clean
    // tree is the version itself, anything else carries its commit.
    let commit = lines
        .iter()
        .find_map(|l| l.strip_prefix("commit      : "))
        .unwrap();
    let package = env!("CARGO_PKG_VERSION");
    if package.contains('-') || commit.ends_with("-dirty") {
        assert_eq!(version, format!("{package}+{commit}"));
    } else {
        assert_eq!(version, package);
    }
    for field in [
        "commit      : ",
        "compiler    : rustc ",
        "target      : ",
        "network     : embedded",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(field)),
            "{field}: {lines:#?}"
        );
    }
    // Another network named by EvalFile is the one reported.
    let net = std::env::temp_dir().join(format!("qcompiler-{}.nnue", std::process::id()));
    std::fs::copy("nets/default.nnue", &net).unwrap();
    engine.send(&format!("setoption name EvalFile value {}", net.display()));
    engine.send("compiler");
    let lines = engine.until(SOON, |l| l.starts_with("nnue kernel : "));
    let expected = format!("network     : EvalFile {}", net.display());
    assert!(lines.iter().any(|l| l.starts_with(&expected)), "{lines:#?}");
    let _ = std::fs::remove_file(&net);
}

#[test]
fn bench_at_the_prompt_ends_with_the_openbench_line() {
    let mut engine = Engine::start();
    engine.send("bench 1");
    let line = engine.until(SOON, |l| l.ends_with(" nps")).pop().unwrap();
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 4, "{line}");
    assert_eq!(words[1], "nodes");
    words[0].parse::<u64>().unwrap();
    words[2].parse::<u64>().unwrap();
}

#[test]
fn debug_mode_and_the_debug_log_file() {
    let mut engine = Engine::start();
    let log = engine.dir().join("session.log");
    engine.send(&format!(
        "setoption name Debug Log File value {}",
        log.display()
    ));
    engine.send("debug on");
    engine.send("position startpos");
    engine.send("go depth 1");
    let (lines, best, _) = engine.bestmove(SOON);
    assert!(
        lines.iter().any(|l| l.starts_with("info string searching")),
        "debug on adds a note: {lines:#?}"
    );
    engine.send("debug off");
    engine.send("setoption name Debug Log File value <empty>");
    engine.sync();
    engine.send("isready");
    engine.until(SOON, |l| l == "readyok");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.lines().any(|l| l.ends_with(" recv go depth 1")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.ends_with(&format!(" send bestmove {best}"))),
        "{text}"
    );
    assert!(
        text.lines().all(|l| l.starts_with("20")),
        "timestamped: {text}"
    );
    let lines_before = text.lines().count();
    engine.send("isready");
    engine.until(SOON, |l| l == "readyok");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        lines_before
    );
}

/// `go perft` and `bench` cannot be stopped, but `isready` is answered while they run, as
/// during a search (it used to wait for them to finish).
#[test]
fn isready_is_answered_during_go_perft_and_bench() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let result = |l: &str| l.starts_with("Nodes searched: ") || l.ends_with(" nps");
    // Each takes a good part of a second at least.
    for job in ["go perft 6", "bench 8"] {
        engine.send(job);
        engine.send("isready");
        let lines = engine.until(SOON, |l| l == "readyok" || result(l));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("readyok"),
            "readyok comes while '{job}' runs, before its result: {lines:?}"
        );
        engine.until(SOON, result);
    }
    assert!(engine.sync().is_empty());
}
