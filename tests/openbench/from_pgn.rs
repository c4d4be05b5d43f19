//! `datagen --from-pgn`: OpenBench's data-generation PGNs (COMPACT and VERBOSE comments, a
//! plain `.pgn`, and the server's `.tar` of `.pgn.bz2` files in a folder) become a chunk that
//! `--verify` accepts, every game whole or refused whole by number.

use super::{TempDir, run_in, stderr, stdout};
use quintessence::train::chunks::{self, Manifest};
use std::io::Write;

/// Four games: book moves then a mate (COMPACT), a VERBOSE game from a FEN with Black to move,
/// a Chess960 game with castling, and an illegal move (game 4).
const FIRST: &str = r#"[Event "OpenBench datagen"]
[White "Quintessence-dev"]
[Black "Quintessence-dev"]
[Result "0-1"]

1. f3 {book} e5 {book} 2. g4 {-3.10/9} Qh4# {+M1/1} 0-1

[Event "OpenBench datagen"]
[White "Quintessence-dev"]
[Black "Quintessence-dev"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]
[SetUp "1"]

40... Kd7 {-1.20/14 0.050s, n=5100, sd=20} 41. e4 {+1.30/15 0.050s, n=5200, sd=21}
Ke6 {-1.10/14 0.041s, n=5000, sd=19} 1/2-1/2

[Event "OpenBench datagen"]
[White "Quintessence-dev"]
[Black "Quintessence-dev"]
[Result "1-0"]
[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"]
[SetUp "1"]
[Variant "Chess960"]

1. O-O {+0.20/10} O-O-O {-0.10/10} 1-0

[Event "OpenBench datagen"]
[White "Quintessence-dev"]
[Black "Quintessence-dev"]
[Result "1/2-1/2"]

1. e4 {+0.30/10} e5 {-0.30/10} 2. Ke3 {+0.10/10} 1/2-1/2
"#;

/// A bad tag (game 5), an unfinished game (6), a good game with a NAG and a `;` comment (7),
/// and a searched move without a score (8).
const SECOND: &str = r#"[Event "OpenBench datagen"]
[Result 1-0]

1. e4 {+0.30/10} e5 {-0.30/10} 1-0
"#;

const THIRD: &str = r#"[Event "OpenBench datagen"]
[Result "*"]

1. e4 {+0.30/10} *

[Event "OpenBench datagen"]
[White "Quintessence-dev"]
[Black "Quintessence-dev"]
[Result "1-0"]

1. d4 {+0.20/8} d5 {-0.25/8} ; a line comment
2. c4 $1 {+0.30/8} 1-0

[Event "OpenBench datagen"]
[Result "1-0"]

1. e4 {+0.30/10} e5 {unknown} 1-0
"#;

/// A tar archive of bzip2-compressed members, as OpenBench's server gives a workload's PGNs.
fn write_tar(path: &std::path::Path, members: &[(&str, &str)]) {
    let mut builder = tar::Builder::new(std::fs::File::create(path).unwrap());
    for (name, text) in members {
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        bz.write_all(text.as_bytes()).unwrap();
        let bytes = bz.finish().unwrap();
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, &bytes[..]).unwrap();
    }
    builder.finish().unwrap();
}

/// A game as the test compares it: its start, each move (UCI, Chess960 form) with White's
/// score, and the result.
type Game = (String, Vec<(String, i16)>, f32);

fn game(fen: &str, moves: &[(&str, i16)], result: f32) -> Game {
    let moves = moves.iter().map(|&(m, s)| (m.to_string(), s)).collect();
    (fen.to_string(), moves, result)
}

/// The accepted games.
fn expected() -> Vec<Game> {
    vec![
        game(
            "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2",
            &[("g2g4", -310), ("d8h4", -32_000)],
            0.0,
        ),
        game(
            "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40",
            &[("e8d7", 120), ("e2e4", 130), ("d7e6", 110)],
            0.5,
        ),
        game(
            // (Written back with KQkq: these rooks are the outermost ones.)
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
            &[("e1g1", 20), ("e8b8", 10)],
            1.0,
        ),
        game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[("d2d4", 20), ("d7d5", 25), ("c2c4", 30)],
            1.0,
        ),
    ]
}

#[test]
fn games_become_a_verified_chunk_and_bad_games_are_refused_by_number() {
    let dir = TempDir::new("from-pgn");
    let input = dir.0.join("workload");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("a.pgn"), FIRST).unwrap();
    write_tar(
        &input.join("b.tar"),
        &[("7.1.0.pgn.bz2", SECOND), ("7.2.0.pgn.bz2", THIRD)],
    );
    std::fs::write(input.join("notes.txt"), "not a PGN").unwrap();
    let args = [
        "datagen",
        "--from-pgn",
        "workload",
        "--dir",
        "data",
        "--workload",
        "7",
    ];
    let output = run_in(&dir, &args);
    let log = stderr(&output);
    assert!(output.status.success(), "{log}");
    assert_eq!(
        stdout(&output).trim(),
        "4 games imported (4 refused), 10 positions in 1 chunks"
    );
    for refusal in [
        "game 4 (",
        "refused: 2. Ke3: 'Ke3' is not legal",
        "game 5 (",
        "refused: bad tag line '[Result 1-0]'",
        "game 6 (",
        "refused: unfinished game (Result '*')",
        "game 8 (",
        "refused: 1... e5: no score in the move's comment",
    ] {
        assert!(log.contains(refusal), "'{refusal}' missing from:\n{log}");
    }
    assert_eq!(log.matches("refused").count(), 4, "{log}");
    assert!(log.contains("notes.txt: not a .pgn"), "{log}");

    let data = dir.0.join("data");
    let verify = run_in(&dir, &["datagen", "--verify", "data"]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    assert!(stdout(&verify).starts_with("10 positions in 1 chunks"));
    let manifest = Manifest::read(&data).unwrap();
    let entry = &manifest.chunk[0];
    assert_eq!(
        entry.provenance.source.as_deref(),
        Some("OpenBench workload 7 (workload)")
    );
    assert_eq!((entry.games, entry.results), (4, [2, 1, 1]));
    let games = chunks::read_games(&data.join(&entry.file)).unwrap();
    let got: Vec<Game> = games
        .iter()
        .map(|g| {
            let moves = g.moves.iter().map(|&(m, s)| (m.to_uci(true), s)).collect();
            (g.start.to_fen(), moves, g.result)
        })
        .collect();
    assert_eq!(got, expected());

    // The same workload again is refused, and nothing is written.
    let again = run_in(&dir, &args);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("is imported already"),
        "{}",
        stderr(&again)
    );
    assert_eq!(Manifest::read(&data).unwrap().chunk.len(), 1);
}

#[test]
fn an_input_without_a_good_game_fails() {
    let dir = TempDir::new("from-pgn-none");
    std::fs::write(dir.0.join("bad.pgn"), SECOND).unwrap();
    let output = run_in(&dir, &["datagen", "--from-pgn", "bad.pgn", "--dir", "data"]);
    assert_eq!(output.status.code(), Some(2));
    let log = stderr(&output);
    assert!(
        log.contains("game 1 (bad.pgn, line 1) refused: bad tag line"),
        "{log}"
    );
    assert!(
        log.contains("no game of bad.pgn could be imported"),
        "{log}"
    );
    let missing = run_in(
        &dir,
        &["datagen", "--from-pgn", "nothing.pgn", "--dir", "data"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("nothing.pgn"));
}
