//! Bad input of every kind gets exactly one `info string`, the engine keeps running, and the
//! position and options stay as they were.

use crate::chess::{after, play};
use crate::harness::{Engine, PROMPT, info_strings};

const MOVES: [&str; 2] = ["e2e4", "c7c5"];
const FEN: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

fn engine_in_position() -> Engine {
    let mut engine = Engine::start();
    engine.send(&format!("position startpos moves {}", MOVES.join(" ")));
    assert_eq!(engine.fen(), FEN);
    engine
}

/// Sends `line` (raw bytes) and checks that the answer is exactly one `info string`.
fn one_info_string(engine: &mut Engine, line: &[u8]) -> String {
    engine.send_bytes(line);
    engine.send_bytes(b"\n");
    let answer = engine.sync();
    assert_eq!(
        answer.len(),
        1,
        "{:?} should get exactly one line, got {answer:#?}",
        String::from_utf8_lossy(line)
    );
    assert!(answer[0].starts_with("info string "), "{answer:?}");
    answer[0].clone()
}

fn still_intact(engine: &mut Engine) {
    assert_eq!(engine.fen(), FEN, "the position is unchanged");
    engine.send("go depth 2");
    let (info, best, ponder) = engine.bestmove(PROMPT * 40);
    play(&after(&MOVES), &best).unwrap();
    assert_eq!(ponder, None, "Ponder is still off");
    for line in &info {
        assert!(line.contains(" multipv 1 "), "MultiPV is still 1: {line}");
        assert!(!line.contains(" wdl "), "UCI_ShowWDL is still off: {line}");
    }
}

#[test]
fn bad_position_commands_keep_the_previous_position() {
    let mut engine = engine_in_position();
    for line in [
        "position",
        "position foo",
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen k6R/8/8/8/8/8/8/K7 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e3 e7e7",
        "position startpos moves e2e4 e7e5 e1e8",
        "position startpos moves e2e4 xyz",
        "position startpos moves e2e4 0000 e7e5",
        "position startpos moves e2e4 e7e5 e4e5",
        "position startpos moves a7a8q",
        "position startpos e2e4",
    ] {
        let answer = one_info_string(&mut engine, line.as_bytes());
        assert!(answer.contains("position"), "{line}: {answer}");
        assert_eq!(engine.fen(), FEN, "after {line:?}");
    }
    still_intact(&mut engine);
}

#[test]
fn bad_options_are_refused_and_absurd_values_clamped() {
    let mut engine = engine_in_position();
    for line in [
        "setoption name NoSuchOption value 1",
        "setoption name Hash value abc",
        "setoption name Hash",
        "setoption name MultiPV value many",
        "setoption name UCI_ShowWDL value 1",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Ponder value yes",
        "setoption name Attacks value nonsense",
        "setoption name Debug Log File value /nonexistent-dir/sub/q.log",
        "setoption",
        "setoption name",
        "setoption value 3",
    ] {
        one_info_string(&mut engine, line.as_bytes());
    }
    // An absurd Hash is clamped and reported; resizing waits for `isready` or `go`, so the
    // following value replaces it before anything is allocated.
    let answer = one_info_string(
        &mut engine,
        b"setoption name Hash value 99999999999999999999999999\nsetoption name Hash value 16",
    );
    assert!(answer.contains("using"), "{answer}");
    for (line, needle) in [
        ("setoption name Hash value -5", "using 1"),
        ("setoption name Threads value 0", "using 1"),
        ("setoption name Move Overhead value 100000", "using 5000"),
    ] {
        let answer = one_info_string(&mut engine, line.as_bytes());
        assert!(answer.contains(needle), "{line}: {answer}");
    }
    engine.send("setoption name Hash value 16");
    engine.send("setoption name Move Overhead value 10");
    still_intact(&mut engine);
}

#[test]
fn bad_go_numbers_still_give_one_message_and_a_legal_move() {
    let mut engine = engine_in_position();
    for go in [
        "go depth -3",
        "go wtime abc btime 100",
        "go nodes 99999999999999999999999 depth 2",
        "go movetime -10",
        "go mate -1 depth 2",
        "go searchmoves e2e5 depth 2",
        "go depth",
        "go frobnicate depth 2",
        "go wtime -500 btime -500",
        "go movestogo 0 wtime 1000 btime 1000",
        "go depth 99999999999999999999",
    ] {
        engine.send(go);
        engine.send("stop");
        let (lines, best, _) = engine.bestmove(PROMPT * 40);
        assert_eq!(info_strings(&lines).len(), 1, "{go}: {lines:#?}");
        play(&after(&MOVES), &best).unwrap_or_else(|e| panic!("{go}: {e}"));
    }
    // Large but meaningful values are no error (vampirc-uci would panic on these).
    for go in [
        "go depth 300 movetime 50",
        "go movestogo 300 wtime 200 btime 200",
        "go mate 300 movetime 50",
    ] {
        engine.send(go);
        let (lines, best, _) = engine.bestmove(PROMPT * 40);
        assert!(info_strings(&lines).is_empty(), "{go}: {lines:#?}");
        play(&after(&MOVES), &best).unwrap();
    }
    // A perft that cannot run is refused without a search.
    for go in ["go perft x", "go perft 0", "go perft"] {
        one_info_string(&mut engine, go.as_bytes());
    }
    still_intact(&mut engine);
}

#[test]
fn unknown_malformed_and_undecodable_lines() {
    let mut engine = engine_in_position();
    for line in [
        &b"foo"[..],
        b"positionx startpos",
        b"gox depth 3",
        b"debug",
        b"debug maybe",
        b"register",
        b"bench x",
        b"\xff\xfe\xfd",
        b"pos\xc3\x28ition startpos",
        b"\x00\x01\x02",
        b"uci\xff",
        b"\xe2\x82",
    ] {
        one_info_string(&mut engine, line);
    }
    // Blank lines and CRLF endings are fine and silent.
    engine.send_bytes(b"\n   \n\t\n");
    assert!(engine.sync().is_empty());
    engine.send_bytes(b"isready\r\n");
    engine.until(PROMPT * 4, |l| l == "readyok");
    // A line longer than the reader's cap is skipped, with one message.
    let mut long = vec![b'x'; 2 << 20];
    long.extend_from_slice(b" position startpos");
    one_info_string(&mut engine, &long);
    still_intact(&mut engine);
}
