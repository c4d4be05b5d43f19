//! `./engine "genfens N seed S book <None|path> [extra]" "quit"`: exactly N legal openings,
//! the same for the same seed, drawn from the book when there is one.

use super::{TempDir, run_in, stderr, stdout};
use quintessence::Board;

/// The FENs of a successful request, checking that every stdout line is a genfens line.
fn genfens(dir: &TempDir, request: &str) -> Vec<String> {
    let output = run_in(dir, &[request, "quit"]);
    assert!(
        output.status.success(),
        "{request}: {:?} {}",
        output.status,
        stderr(&output)
    );
    stdout(&output)
        .lines()
        .map(|line| {
            let fen = line.strip_prefix("info string genfens ");
            fen.unwrap_or_else(|| panic!("{request}: stray line '{line}'"))
                .to_string()
        })
        .collect()
}

#[test]
fn prints_exactly_n_legal_openings_the_same_for_the_same_seed() {
    let dir = TempDir::new("genfens-random");
    let first = genfens(&dir, "genfens 6 seed 42 book None");
    assert_eq!(first.len(), 6);
    for fen in &first {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&board.to_fen(), fen);
        // 8 or 9 random plies from the start position.
        assert!(matches!(board.fullmove_number(), 5 | 6), "{fen}");
    }
    assert_eq!(genfens(&dir, "genfens 6 seed 42 book None"), first);
    let other = genfens(&dir, "genfens 6 seed 43 book None");
    assert_ne!(other, first);
    // The first openings of a longer request are the shorter one's.
    assert_eq!(genfens(&dir, "genfens 8 seed 42 book None")[..6], first);
    assert!(genfens(&dir, "genfens 0 seed 1 book None").is_empty());
}

#[test]
fn openings_come_from_the_book_when_there_is_one() {
    let dir = TempDir::new("genfens-book");
    let book = [
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - hmvc 1; fmvn 2;",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - hmvc 1; fmvn 2;",
    ];
    std::fs::write(dir.0.join("book.epd"), book.join("\n") + "\n").unwrap();
    let fens = genfens(&dir, "genfens 10 seed 5 book book.epd plies=0");
    assert_eq!(fens.len(), 10);
    let lines: Vec<String> = book
        .iter()
        .map(|l| l.replace(" hmvc 1; fmvn 2;", " 1 2"))
        .collect();
    for fen in &fens {
        assert!(lines.contains(fen), "{fen} is not a book line");
    }
    assert!(lines.iter().all(|l| fens.contains(l)), "both lines drawn");
    // By default two or three random plies follow the book line.
    for fen in genfens(&dir, "genfens 4 seed 5 book book.epd") {
        let board = Board::from_fen(&fen).unwrap();
        assert!(matches!(board.fullmove_number(), 3 | 4), "{fen}");
        assert!(!lines.contains(&fen));
    }
}

#[test]
fn a_malformed_request_fails_with_a_message() {
    let dir = TempDir::new("genfens-bad");
    std::fs::write(dir.0.join("bad.epd"), "not a position\n").unwrap();
    for (request, says) in [
        ("genfens 5 seed 1", "expected 'genfens <N> seed <S> book"),
        ("genfens five seed 1 book None", "N 'five'"),
        (
            "genfens 5 seed 1 book None depth=9",
            "unknown extra 'depth=9'",
        ),
        ("genfens 5 seed 1 book missing.epd", "missing.epd"),
        ("genfens 5 seed 1 book bad.epd", "book line 1"),
    ] {
        let output = run_in(&dir, &[request, "quit"]);
        assert_eq!(output.status.code(), Some(2), "{request}");
        assert!(stdout(&output).is_empty(), "{request}");
        let message = stderr(&output);
        assert!(message.contains(says), "{request}: {message}");
    }
}
