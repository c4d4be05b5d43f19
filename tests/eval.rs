//! Evaluation properties: colour symmetry, the pawn cache agrees with a fresh evaluation, and
//! the tuner's term trace reproduces the evaluation exactly.

mod common;

use common::load_epd;
use quintessence::attacks::Magic;
use quintessence::board::Board;
use quintessence::eval::hce::{
    PawnCache, S, Trace, evaluate, evaluate_terms, evaluate_uncached, taper, weights::PARAMS,
};

/// The same position with colours swapped and the board mirrored top to bottom.
fn flip_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = if fields[2] == "-" {
        "-".into()
    } else {
        let mut c: Vec<char> = fields[2].chars().map(swap).collect();
        c.sort_by_key(|c| c.is_ascii_lowercase());
        c.into_iter().collect()
    };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let b = fields[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {} {} {} {}",
        placement.join("/"),
        side,
        castling,
        ep,
        fields[4..].join(" ")
    )
}

fn positions() -> Vec<Board> {
    load_epd("perft/standard.epd")
        .iter()
        .chain(load_epd("perft/chess960.epd").iter().take(200))
        .map(|c| Board::from_fen(&c.fen).unwrap())
        .collect()
}

#[test]
fn evaluation_is_colour_symmetric() {
    for board in positions() {
        let flipped = Board::from_fen(&flip_fen(&board.to_fen())).unwrap();
        assert_eq!(
            evaluate_uncached::<Magic>(&board),
            evaluate_uncached::<Magic>(&flipped),
            "{} vs {}",
            board.to_fen(),
            flipped.to_fen()
        );
    }
}

#[test]
fn pawn_cache_gives_the_same_evaluation() {
    let mut cache = PawnCache::default();
    for _ in 0..2 {
        for board in positions() {
            assert_eq!(
                evaluate::<Magic>(&board, &mut cache),
                evaluate_uncached::<Magic>(&board)
            );
        }
    }
}

#[test]
fn trace_reproduces_the_evaluation() {
    for board in positions() {
        let mut trace = Trace::default();
        let t = evaluate_terms::<Magic, _>(&board, &mut trace);
        let mut total = S::ZERO;
        for (param, &count) in PARAMS.iter().zip(&trace.coefficients) {
            total += *param * count;
        }
        let white = taper(total, t);
        assert_eq!(
            white * board.side_to_move().sign(),
            evaluate_uncached::<Magic>(&board)
        );
    }
}
