//! Searching through the protocol: limits, `stop`, `isready` during a search, `quit`, MultiPV,
//! searchmoves, mate scores, positions without moves.

use crate::chess::{after, play, position};
use crate::harness::{Engine, PROMPT, SOON, TempDir, run_in};
use shakmaty::Chess;
use std::time::{Duration, Instant};

/// Checks the shape of an `info depth` line and that its PV is legal from `root`.
pub fn check_info_line(line: &str, root: &Chess) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[..2], ["info", "depth"], "{line}");
    let keys: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| {
            [
                "depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull",
                "tbhits", "time", "pv",
            ]
            .contains(w)
        })
        .collect();
    let expected_order = [
        "depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull", "tbhits",
        "time", "pv",
    ];
    let mut last = 0;
    for key in &keys {
        let at = expected_order.iter().position(|k| k == key).unwrap();
        assert!(at >= last, "fields out of order in {line}");
        last = at;
    }
    for key in ["seldepth", "multipv", "score", "nodes", "nps", "time", "pv"] {
        assert!(keys.contains(&key), "'{key}' missing in {line}");
    }
    let score_at = words.iter().position(|w| *w == "score").unwrap();
    assert!(matches!(words[score_at + 1], "cp" | "mate"), "{line}");
    words[score_at + 2].parse::<i32>().expect("score value");
    let pv_at = words.iter().position(|w| *w == "pv").unwrap();
    let mut pos = root.clone();
    for mv in &words[pv_at + 1..] {
        pos = play(&pos, mv).unwrap_or_else(|e| panic!("PV not legal ({e}): {line}"));
    }
}

fn score_of(line: &str) -> (String, i32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").expect("score");
    (words[at + 1].to_string(), words[at + 2].parse().unwrap())
}

#[test]
fn a_game_step_with_movetime() {
    let mut engine = Engine::start();
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5");
    let start = Instant::now();
    engine.send("go movetime 200");
    let (info, best, _) = engine.bestmove(SOON);
    let elapsed = start.elapsed();
    assert!(
        elapsed < Duration::from_millis(200) + PROMPT,
        "took {elapsed:?}"
    );
    let root = after(&["e2e4", "e7e5"]);
    play(&root, &best).unwrap();
    assert!(!info.is_empty());
    for line in &info {
        check_info_line(line, &root);
    }
}

#[test]
fn isready_is_answered_during_go_infinite_and_stop_ends_it() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    let start = Instant::now();
    let lines = engine.sync();
    assert!(
        start.elapsed() < PROMPT,
        "readyok took {:?}",
        start.elapsed()
    );
    assert!(lines.iter().all(|l| l.starts_with("info")), "{lines:?}");
    let held = engine.quiet_for(Duration::from_millis(200));
    assert!(
        !held.iter().any(|l| l.starts_with("bestmove")),
        "infinite search ended by itself"
    );
    let start = Instant::now();
    engine.send("stop");
    let (_, best, _) = engine.bestmove(SOON);
    assert!(
        start.elapsed() < PROMPT,
        "bestmove after stop took {:?}",
        start.elapsed()
    );
    play(&Chess::default(), &best).unwrap();
}

#[test]
fn stop_right_after_go_still_gives_a_legal_move() {
    let mut engine = Engine::start();
    for moves in ["", " moves d2d4", " moves d2d4 g8f6 c2c4"] {
        engine.send(&format!("position startpos{moves}"));
        engine.send_bytes(b"go infinite\nstop\n");
        let (_, best, _) = engine.bestmove(PROMPT * 4);
        let list: Vec<&str> = moves.split_whitespace().skip(1).collect();
        play(&after(&list), &best).unwrap();
    }
}

/// A free queen: the first legal move in generation order is not the capture, so an answer
/// that skipped the search would show.
const FREE_QUEEN: &str = "4k3/8/8/8/3q4/8/8/3QK3 w - - 0 1";

#[test]
fn stop_or_the_end_of_input_right_after_go_answer_with_a_searched_move() {
    // The first iteration is never interrupted: no `bestmove` without a search.
    let mut engine = Engine::start();
    engine.send(&format!("position fen {FREE_QUEEN}"));
    engine.send_bytes(b"go infinite\nstop\n");
    let (_, best, _) = engine.bestmove(PROMPT * 4);
    assert_eq!(best, "d1d4");

    let input = format!("position fen {FREE_QUEEN}\ngo depth 8\n");
    let dir = TempDir::new("end-of-input");
    let (out, _) = run_in(&dir.0, &[], &input);
    assert!(out.lines().any(|l| l == "bestmove d1d4"), "{out}");
}

#[test]
fn a_finished_infinite_search_holds_bestmove_until_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite depth 2");
    let held = engine.quiet_for(Duration::from_millis(400));
    assert!(
        held.iter().any(|l| l.starts_with("info depth 2")),
        "{held:?}"
    );
    assert!(!held.iter().any(|l| l.starts_with("bestmove")), "{held:?}");
    engine.send("stop");
    let start = Instant::now();
    engine.bestmove(SOON);
    assert!(start.elapsed() < PROMPT);
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    engine.send("quit");
    let status = engine
        .wait_exit(Duration::from_secs(2))
        .expect("the engine exits");
    assert!(status.success());
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "quit took {:?}",
        start.elapsed()
    );
}

#[test]
fn multipv_3_gives_three_distinct_lines() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 3");
    let (info, best, _) = engine.bestmove(SOON);
    let root = after(&["e2e4"]);
    for line in &info {
        check_info_line(line, &root);
    }
    let last_depth: Vec<&String> = info
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{info:#?}");
    let mut firsts = Vec::new();
    for (i, line) in last_depth.iter().enumerate() {
        assert!(line.contains(&format!(" multipv {} ", i + 1)), "{line}");
        let first = line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(
            !firsts.contains(&first),
            "distinct first moves: {last_depth:#?}"
        );
        firsts.push(first);
    }
    assert_eq!(best, firsts[0]);
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 3 searchmoves a2a3 h2h3");
    let (info, best, _) = engine.bestmove(SOON);
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    for line in info.iter().filter(|l| l.contains(" pv ")) {
        let first = line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(first == "a2a3" || first == "h2h3", "{line}");
    }
}

#[test]
fn mates_are_found_and_scored_as_mate() {
    let mut engine = Engine::start();
    for (fen, depth, best_move, mate) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 6, Some("a1a8"), 1),
        // Zugzwang: every Black move loses, passing does not, so the null move must be
        // verified. How soon the search sees it depends on the network (3 plies with
        // g3h64l0, 12 with g4h64b8, 24 before the verification); 16 leaves a margin.
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 16, Some("a1a6"), 2),
        ("k7/8/1K6/8/8/8/8/7R b - - 0 1", 6, Some("a8b8"), -1),
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go depth {depth}"));
        let (info, best, _) = engine.bestmove(SOON);
        let root = position(fen, false);
        for line in &info {
            check_info_line(line, &root);
        }
        let last = info.last().unwrap();
        assert_eq!(score_of(last), ("mate".to_string(), mate), "{fen}: {last}");
        if let Some(expected) = best_move {
            assert_eq!(best, expected, "{fen}");
        }
    }
}

#[test]
fn positions_without_legal_moves_answer_0000() {
    let mut engine = Engine::start();
    for (fen, score) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "score mate 0",
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "score cp 0"),
    ] {
        engine.send(&format!("position fen {fen}"));
        for go in ["go depth 5", "go wtime 1000 btime 1000", "go movetime 50"] {
            engine.send(go);
            let (info, best, ponder) = engine.bestmove(SOON);
            assert_eq!(best, "0000");
            assert_eq!(ponder, None);
            assert_eq!(info, vec![format!("info depth 0 {score}")], "{fen}");
        }
    }
    // Reached through moves too: fool's mate.
    engine.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    engine.send("go depth 3");
    let (info, best, _) = engine.bestmove(SOON);
    assert_eq!(
        (info[0].as_str(), best.as_str()),
        ("info depth 0 score mate 0", "0000")
    );
}

#[test]
fn clocks_nodes_and_depth_limits_end_the_search() {
    let mut engine = Engine::start();
    engine.send("position startpos moves g1f3");
    let root = after(&["g1f3"]);
    for (go, bound) in [
        ("go wtime 1000 btime 1000", Duration::from_millis(500)),
        (
            "go wtime 60000 btime 500 winc 0 binc 0",
            Duration::from_millis(300),
        ),
        (
            "go wtime 500 btime 500 movestogo 1",
            Duration::from_millis(500),
        ),
        (
            "go btime 100 wtime 100 binc 10 winc 10",
            Duration::from_millis(100),
        ),
        ("go nodes 2000", SOON),
        ("go depth 2", SOON),
    ] {
        let start = Instant::now();
        engine.send(go);
        let (_, best, _) = engine.bestmove(SOON);
        assert!(
            start.elapsed() < bound + PROMPT,
            "{go}: {:?}",
            start.elapsed()
        );
        play(&root, &best).unwrap_or_else(|e| panic!("{go}: {e}"));
    }
}

#[test]
fn show_wdl_and_two_threads() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("setoption name Threads value 2");
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go depth 3");
    let (info, best, _) = engine.bestmove(SOON);
    let root = after(&["e2e4", "c7c5"]);
    play(&root, &best).unwrap();
    for line in &info {
        check_info_line(line, &root);
        let wdl: Vec<u32> = line
            .split(" wdl ")
            .nth(1)
            .unwrap_or_else(|| panic!("no wdl in {line}"))
            .split(' ')
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    }
}

#[test]
fn wdl_reads_the_material_on_the_board() {
    // Two level positions: a symmetric rook ending is far more often drawn than the start
    // position, which a model of the score alone cannot say.
    let draw_share = |position: &str| {
        let mut engine = Engine::start();
        engine.send("setoption name UCI_ShowWDL value true");
        engine.send(position);
        engine.send("go depth 6");
        let (info, _, _) = engine.bestmove(SOON);
        let last = info.last().expect("an info line");
        let wdl: Vec<u32> = last
            .split(" wdl ")
            .nth(1)
            .unwrap_or_else(|| panic!("no wdl in {last}"))
            .split(' ')
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        wdl[1]
    };
    let ending = draw_share("position fen 4k3/pppr4/8/8/8/8/PPPR4/4K3 w - - 0 1");
    let start = draw_share("position startpos");
    assert!(
        ending > start + 200,
        "draws: rook ending {ending}, start {start}"
    );
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = Engine::start();
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    engine.send(&format!("position fen {fen} moves e1g1"));
    assert_eq!(engine.fen(), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen} moves e1a1"));
    assert!(engine.fen().starts_with("4k3/8/8/8/8/8/8/2KR3R b"));
    // The move the search returns is written king-takes-rook too.
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 2 searchmoves e1h1");
    let (_, best, _) = engine.bestmove(SOON);
    assert_eq!(best, "e1h1");
    play(&position(fen, true), &best).unwrap();
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("go depth 2 searchmoves e1g1");
    let (_, best, _) = engine.bestmove(SOON);
    assert_eq!(best, "e1g1");
}

#[test]
fn the_move_played_is_the_first_of_the_last_pv_shown() {
    // Node limits stop many iterations part-way, sometimes after a new move has beaten the
    // previous best: that move may be played, but only once its line has been shown.
    let mut engine = Engine::start();
    let starts = [
        "startpos",
        "fen r1bqkb1r/ppp2ppp/2n2n2/3pp3/2P5/4PN2/PP1PBPPP/RNBQK2R w KQkq - 0 1",
    ];
    for start in starts {
        engine.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        for i in 0..40 {
            engine.send(&format!("position {start} moves {}", moves.join(" ")));
            engine.send(&format!("go nodes {}", 3_000 + 1_723 * i));
            let (info, best, _) = engine.bestmove(SOON);
            if best == "0000" {
                break;
            }
            let shown = info
                .iter()
                .rev()
                .find_map(|line| line.split(" pv ").nth(1))
                .and_then(|pv| pv.split_whitespace().next())
                .unwrap_or_else(|| panic!("{start}, move {i}: no PV shown"));
            assert_eq!(best, shown, "{start} moves {}", moves.join(" "));
            moves.push(best);
        }
    }
}

fn nodes_of(line: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[at + 1].parse().unwrap()
}

/// What one search to `depth` from the start position reports as its final node count.
fn search_nodes(engine: &mut Engine, depth: u32) -> u64 {
    engine.send("position startpos moves d2d4 g8f6");
    engine.send(&format!("go depth {depth}"));
    let (info, _, _) = engine.bestmove(SOON);
    nodes_of(info.last().expect("an info line"))
}

#[test]
fn ucinewgame_and_clear_hash_forget_what_was_learned() {
    let mut engine = Engine::start();
    let fresh = search_nodes(&mut engine, 9);
    // The second search finds the first one's work in the table and histories.
    let warm = search_nodes(&mut engine, 9);
    assert!(warm < fresh, "warm {warm} vs fresh {fresh}");
    // After forgetting, a single-threaded search repeats the first one exactly.
    engine.send("ucinewgame");
    assert_eq!(search_nodes(&mut engine, 9), fresh);
    search_nodes(&mut engine, 9);
    engine.send("setoption name Clear Hash");
    assert_eq!(search_nodes(&mut engine, 9), fresh);
}

#[test]
fn four_threads_play_legal_moves_and_stop_promptly() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 4");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    engine.send("stop");
    let (info, best, _) = engine.bestmove(SOON);
    assert!(start.elapsed() < PROMPT, "stop took {:?}", start.elapsed());
    let root = after(&["e2e4", "e7e5", "g1f3"]);
    play(&root, &best).unwrap();
    for line in &info {
        check_info_line(line, &root);
    }
}

/// The lines between iterations: `currmove` and the counters, in a long search only.
#[test]
fn a_long_search_shows_its_root_moves_and_counters_and_a_short_one_does_not() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go movetime 100");
    let (lines, _, _) = engine.bestmove(SOON);
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("currmove") && l.contains(" pv ")),
        "{lines:?}"
    );

    // Lines are timed as they arrive. The counters come only after a second with nothing
    // shown, so the search runs until iterations grow that long (a few seconds past the
    // first three on any machine), bounded at 20 s.
    engine.send("go infinite");
    let start = Instant::now();
    let mut timed: Vec<(Duration, String)> = Vec::new();
    let mut counters_seen = None;
    while start.elapsed() < Duration::from_secs(20) {
        if counters_seen
            .is_some_and(|at: Duration| start.elapsed() > at + Duration::from_millis(2500))
        {
            break;
        }
        if let Some(line) = engine.recv(Duration::from_millis(50)) {
            let at = start.elapsed();
            if line.split_whitespace().nth(3) == Some("nodes") && counters_seen.is_none() {
                counters_seen = Some(at);
            }
            timed.push((at, line));
        }
    }
    engine.send("stop");
    let (tail, best, _) = engine.bestmove(SOON);
    let stopped = start.elapsed();
    timed.extend(tail.into_iter().map(|line| (stopped, line)));
    play(&Chess::default(), &best).unwrap();
    let lines: Vec<&String> = timed.iter().map(|(_, l)| l).collect();
    assert!(counters_seen.is_some(), "no counters in 20 s: {lines:?}");

    let root = Chess::default();
    let mut currmoves = 0;
    let mut counters = Vec::new();
    let mut previous = Duration::from_secs(3);
    for (at, line) in &timed {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            &words[..2],
            ["info", "depth"],
            "protocol lines only: {line}"
        );
        words[2].parse::<u32>().expect("a depth");
        if words.get(3) == Some(&"currmove") {
            assert_eq!(words.len(), 7, "{line}");
            assert_eq!(words[5], "currmovenumber", "{line}");
            assert!(words[6].parse::<u32>().unwrap() >= 1);
            play(&root, words[4]).unwrap();
            assert!(
                *at >= Duration::from_millis(2900),
                "not in the first seconds: {line}"
            );
            currmoves += 1;
        } else if words.get(3) == Some(&"nodes") {
            let keys: Vec<&str> = words[3..].iter().step_by(2).copied().collect();
            assert_eq!(
                keys,
                ["nodes", "nps", "hashfull", "tbhits", "time"],
                "{line}"
            );
            let time: u64 = words[words.len() - 1].parse().unwrap();
            assert!(time >= 2900, "not in the first seconds: {line}");
            counters.push(time);
        } else {
            check_info_line(line, &root);
        }
        // Something at least once a second after the first three (with slack for a busy
        // machine): the counters fill any silence.
        if *at > previous {
            assert!(
                *at - previous < Duration::from_millis(1900),
                "silent from {previous:?} to {at:?}: {lines:?}"
            );
            previous = *at;
        }
    }
    assert!(currmoves >= 1, "{lines:?}");
    for pair in counters.windows(2) {
        assert!(pair[1] >= pair[0] + 900, "{counters:?}");
    }
}
