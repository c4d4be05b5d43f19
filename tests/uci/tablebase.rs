//! Syzygy tablebases: the prober agrees with python-chess, bad paths and damaged files are
//! reported and survived, and won endings are won against a random mover.

use crate::chess::{fen_of, play, position};
use crate::harness::{Engine, SOON, TempDir, info_strings, run_in, test_data};
use shakmaty::{KnownOutcome, Outcome, Position};
use std::path::PathBuf;

/// A subset of the 3-4 piece tables (the small ones), enough for every test here.
fn tables() -> PathBuf {
    test_data("syzygy")
}

/// (FEN, WDL, DTZ) from python-chess, made by scripts/syzygy-reference.py.
fn reference() -> Vec<(String, i32, i32)> {
    std::fs::read_to_string(test_data("syzygy-reference.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split(';').collect();
            (
                fields[0].to_string(),
                fields[1].parse().unwrap(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

/// `quintessence tbprobe <folder>` on these FENs: one answer line each, and stderr.
fn tbprobe(folder: &std::path::Path, fens: &[&str]) -> (Vec<String>, String) {
    let input: String = fens.iter().map(|f| format!("{f}\n")).collect();
    let (stdout, stderr) = run_in(
        &std::env::temp_dir(),
        &["tbprobe", folder.to_str().unwrap()],
        &input,
    );
    (stdout.lines().map(String::from).collect(), stderr)
}

#[test]
fn wdl_and_dtz_equal_python_chess_on_hundreds_of_positions() {
    let rows = reference();
    assert!(rows.len() >= 300, "the reference file has {}", rows.len());
    let fens: Vec<&str> = rows.iter().map(|(f, _, _)| f.as_str()).collect();
    let (answers, found) = tbprobe(&tables(), &fens);
    assert!(found.contains("up to 4 pieces"), "{found}");
    assert_eq!(answers.len(), rows.len());
    let mut wins = 0;
    for ((fen, wdl, dtz), answer) in rows.iter().zip(&answers) {
        let words: Vec<&str> = answer.split_whitespace().collect();
        assert_eq!(
            words[..2],
            [wdl.to_string(), dtz.to_string()],
            "{fen}: ours '{answer}', python-chess {wdl} {dtz}"
        );
        // The moves kept at the root keep the value.
        let pos = position(fen, false);
        for mv in &words[2..] {
            play(&pos, mv).unwrap();
        }
        assert!(words.len() > 2, "{fen}: no move kept");
        wins += (*wdl == 2) as usize;
    }
    assert!(
        wins > 50 && wins < rows.len(),
        "a mix of results: {wins} wins"
    );
}

#[test]
fn damaged_and_foreign_files_are_skipped_and_reported() {
    let dir = TempDir::new("tb-damaged");
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(tables().join(name), dir.0.join(name)).unwrap();
    }
    // KRvK cut short, and something that is not a table under a table's name.
    let krk = dir.0.join("KRvK.rtbw");
    let len = std::fs::metadata(&krk).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&krk).unwrap();
    file.set_len(len / 2 + 1).unwrap();
    std::fs::write(dir.0.join("KBvK.rtbw"), vec![0u8; 80]).unwrap();
    // A WDL table whose DTZ table is missing.
    std::fs::copy(tables().join("KNvK.rtbw"), dir.0.join("KNvK.rtbw")).unwrap();

    let kqk = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    let krk = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";
    let kbk = "8/8/8/8/8/2k5/8/KB6 w - - 0 1";
    let (answers, found) = tbprobe(&dir.0, &[kqk, krk, kbk]);
    assert!(found.contains("skipped KRvK.rtbw (truncated"), "{found}");
    assert!(
        found.contains("skipped KBvK.rtbw (not a Syzygy table"),
        "{found}"
    );
    assert!(answers[0].starts_with("2 "), "{answers:?}");
    assert_eq!(answers[1..], ["none", "none"]);

    // Over UCI: a message, and the engine plays on.
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.0.display()
    ));
    let lines = engine.sync();
    assert!(
        info_strings(&lines)
            .iter()
            .any(|l| l.contains("skipped KRvK.rtbw")),
        "{lines:?}"
    );
    engine.send(&format!("position fen {krk}"));
    engine.send("go depth 6");
    let (_, best, _) = engine.bestmove(SOON);
    play(&position(krk, false), &best).unwrap();
}

#[test]
fn bad_paths_get_a_message_and_the_engine_plays_without_tables() {
    let mut engine = Engine::start();
    let empty = TempDir::new("tb-empty");
    let nul = "a\u{0}b".to_string();
    for (path, expected) in [
        ("/no/such/folder", "is not a folder"),
        (empty.0.to_str().unwrap(), "no Syzygy tables found"),
        (nul.as_str(), "NUL"),
    ] {
        engine.send(&format!("setoption name SyzygyPath value {path}"));
        let lines = engine.sync();
        let notes = info_strings(&lines);
        assert!(
            notes
                .iter()
                .any(|l| l.contains(expected) && l.contains("playing without tablebases")),
            "{path}: {lines:?}"
        );
    }
    engine.send("position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    engine.send("go depth 8");
    let (lines, best, _) = engine.bestmove(SOON);
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("tbhits") || l.contains("tbhits 0"))
    );
    play(&position("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", false), &best).unwrap();
    // `<empty>` switches them off without complaint.
    engine.send("setoption name SyzygyPath value <empty>");
    let lines = engine.sync();
    assert!(info_strings(&lines).iter().all(|l| !l.contains("without")));
}

#[test]
fn probe_limit_is_a_spin_and_zero_turns_probing_off() {
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    engine.send("setoption name SyzygyProbeLimit value 9");
    let lines = engine.sync();
    assert!(
        info_strings(&lines)
            .iter()
            .any(|l| l.contains("SyzygyProbeLimit: 9 is outside 0 to 7")),
        "{lines:?}"
    );
    let fen = "8/8/8/8/4k3/8/3P4/K7 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 8");
    let (lines, _, _) = engine.bestmove(SOON);
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" tbhits ") && !l.contains("tbhits 0")),
        "{lines:?}"
    );
    engine.send("setoption name SyzygyProbeLimit value 0");
    engine.send("ucinewgame");
    engine.send("go depth 8");
    let (lines, _, _) = engine.bestmove(SOON);
    assert!(
        lines
            .iter()
            .filter(|l| l.contains(" tbhits "))
            .all(|l| l.contains("tbhits 0")),
        "{lines:?}"
    );
}

/// The last `score` of a search to `depth` from `fen`.
fn last_score(engine: &mut Engine, fen: &str, depth: u32) -> String {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go depth {depth}"));
    let (lines, _, _) = engine.bestmove(SOON);
    let last = lines.iter().rfind(|l| l.contains(" score ")).unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    words[at + 1..at + 3].join(" ")
}

#[test]
fn without_the_fifty_move_rule_a_cursed_win_is_a_win() {
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    // Rook and king win in 27 moves to the next capture, but 95 plies have gone already.
    let cursed = "8/8/8/8/8/2k5/8/KR6 w - - 95 1";
    assert_eq!(last_score(&mut engine, cursed, 8), "cp 0");
    engine.send("setoption name Syzygy50MoveRule value false");
    let score = last_score(&mut engine, cursed, 8);
    assert!(score.starts_with("cp 30"), "a tablebase win: {score}");
    // A win inside the rule is a win either way.
    let won = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";
    assert!(last_score(&mut engine, won, 8).starts_with("cp 30"));
    engine.send("setoption name Syzygy50MoveRule value true");
    assert!(last_score(&mut engine, won, 8).starts_with("cp 30"));
    assert_eq!(last_score(&mut engine, cursed, 8), "cp 0");
}

#[test]
fn probe_depth_holds_back_probes_of_the_largest_tables_used() {
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    // Probing 3-piece positions only: every probe is at the limit, where the depth decides.
    engine.send("setoption name SyzygyProbeLimit value 3");
    let fen = "8/8/8/8/3n4/2k5/8/KR6 w - - 0 1";
    let tbhits = |engine: &mut Engine| -> u64 {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 9");
        let (lines, best, _) = engine.bestmove(SOON);
        play(&position(fen, false), &best).unwrap();
        let last = lines.iter().rfind(|l| l.contains(" tbhits ")).unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "tbhits").unwrap();
        words[at + 1].parse().unwrap()
    };
    assert!(tbhits(&mut engine) > 0);
    engine.send("setoption name SyzygyProbeDepth value 100");
    assert_eq!(tbhits(&mut engine), 0);
    engine.send("setoption name SyzygyProbeDepth value 0");
    let lines = engine.sync();
    assert!(
        info_strings(&lines)
            .iter()
            .any(|l| l.contains("SyzygyProbeDepth: 0 is outside 1 to 100")),
        "{lines:?}"
    );
}

/// A small deterministic generator for the random mover.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn won_endings_are_won_against_a_random_mover_within_the_fifty_move_rule() {
    let won: Vec<String> = reference()
        .into_iter()
        .filter(|(_, wdl, _)| *wdl == 2)
        .map(|(fen, _, _)| fen)
        .take(16)
        .collect();
    assert_eq!(won.len(), 16);
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    engine.sync();
    let mut random = Lcg(7);
    for fen in &won {
        engine.send("ucinewgame");
        let mut pos = position(fen, false);
        let winner = pos.turn();
        let mut moves: Vec<String> = Vec::new();
        let outcome = loop {
            if let Outcome::Known(outcome) = pos.outcome() {
                break outcome;
            }
            assert!(
                pos.halfmoves() < 100,
                "{fen}: fifty moves without progress: {moves:?}"
            );
            let mv = if pos.turn() == winner {
                engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
                engine.send("go nodes 4000");
                let (lines, best, _) = engine.bestmove(SOON);
                let last = lines
                    .iter()
                    .rfind(|l| l.contains(" score "))
                    .unwrap_or_else(|| panic!("{fen} moves {}: {lines:?}", moves.join(" ")));
                assert!(
                    last.contains(" score mate ") || last.contains(" score cp 30"),
                    "{fen}: a tablebase win is shown as one: {last}"
                );
                best
            } else {
                let legal = pos.legal_moves();
                let mv = &legal[random.below(legal.len())];
                mv.to_uci(shakmaty::CastlingMode::Standard).to_string()
            };
            pos = play(&pos, &mv).unwrap_or_else(|e| panic!("{fen}: {e}"));
            moves.push(mv);
            assert!(
                moves.len() < 400,
                "{fen}: no end in sight ({})",
                fen_of(&pos)
            );
        };
        assert_eq!(
            outcome,
            KnownOutcome::Decisive { winner },
            "{fen}: {moves:?} ended {}",
            fen_of(&pos)
        );
    }
}

#[test]
fn a_bad_folder_beside_good_ones_is_named_and_the_good_ones_are_used() {
    let mut engine = Engine::start();
    let separator = if cfg!(windows) { ';' } else { ':' };
    engine.send(&format!(
        "setoption name SyzygyPath value /no/such/folder{separator}{}",
        tables().display()
    ));
    let lines = engine.sync();
    let notes = info_strings(&lines);
    assert!(
        notes
            .iter()
            .any(|l| l.contains("'/no/such/folder' (not a folder)") && l.contains("WDL")),
        "{lines:?}"
    );
    assert!(
        notes.iter().all(|l| !l.contains("without tablebases")),
        "{lines:?}"
    );
    let kqk = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    engine.send(&format!("position fen {kqk}"));
    engine.send("go depth 8");
    let (lines, best, _) = engine.bestmove(SOON);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("tbhits") && !l.contains("tbhits 0")),
        "{lines:?}"
    );
    play(&position(kqk, false), &best).unwrap();
}

/// A search that panics is replaced by a fresh one, which keeps the tables (and the other
/// settings) of the one it replaces.
#[test]
fn the_tables_survive_a_search_that_panicked() {
    let mut engine = Engine::start_env(
        &[],
        &[("QUINTESSENCE_TEST_PANIC", "search#1"), ("RUST_LOG", "off")],
        "tb-panic",
    );
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    let kqk = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    engine.send(&format!("position fen {kqk}"));
    engine.send("go depth 8");
    let (lines, best, _) = engine.bestmove(SOON);
    play(&position(kqk, false), &best).unwrap();
    assert!(
        info_strings(&lines)
            .iter()
            .any(|l| l.contains("internal error")),
        "the first search panicked: {lines:?}"
    );
    engine.send("go depth 8");
    let (lines, best, _) = engine.bestmove(SOON);
    play(&position(kqk, false), &best).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("tbhits") && !l.contains("tbhits 0")),
        "the second search probes the tables: {lines:?}"
    );
}
