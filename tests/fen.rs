//! FEN parsing and writing: standard, X-FEN and Shredder-FEN castling, and clear errors for
//! malformed or unplayable positions.

use quintessence::attacks::Magic;
use quintessence::board::{Board, START_FEN};
use quintessence::game::parse_uci_move;
use quintessence::movegen::{legal_moves, legal_moves_directional};
use quintessence::types::{CastleSide, Color, File};

fn error(fen: &str) -> String {
    match Board::from_fen(fen) {
        Ok(board) => panic!("accepted {fen:?} as {}", board.to_fen()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn start_position_round_trips() {
    let board = Board::from_fen(START_FEN).unwrap();
    assert_eq!(board.to_fen(), START_FEN);
    assert_eq!(
        board
            .castling_rook(Color::White, CastleSide::King)
            .unwrap()
            .to_string(),
        "h1"
    );
    assert_eq!(
        board
            .castling_rook(Color::Black, CastleSide::Queen)
            .unwrap()
            .to_string(),
        "a8"
    );
}

#[test]
fn counters_may_be_left_out() {
    let board = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
    assert_eq!(board.to_fen(), START_FEN);
}

#[test]
fn shredder_and_x_fen_castling_name_the_same_rooks() {
    let shredder =
        Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    let xfen = Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
        .unwrap();
    assert_eq!(shredder, xfen);
    assert_eq!(
        shredder
            .castling()
            .rook_file(Color::White, CastleSide::Queen),
        Some(File::F)
    );
    assert_eq!(
        shredder
            .castling()
            .rook_file(Color::Black, CastleSide::King),
        Some(File::H)
    );
    // Written back as X-FEN: both rooks are the outermost ones.
    assert!(shredder.to_fen().contains(" KQkq "));
}

#[test]
fn inner_rook_castling_is_written_by_file() {
    // Two white rooks on the king side: the right belongs to the inner one (f-file).
    let board = Board::from_fen("4k3/8/8/8/8/8/8/4KR1R w F - 0 1").unwrap();
    assert_eq!(
        board.castling().rook_file(Color::White, CastleSide::King),
        Some(File::F)
    );
    assert!(board.to_fen().contains(" F "), "{}", board.to_fen());
    let again = Board::from_fen(&board.to_fen()).unwrap();
    assert_eq!(again, board);
}

#[test]
fn en_passant_square_kept_only_when_capturable() {
    let capturable = Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    assert_eq!(
        capturable.en_passant().map(|s| s.to_string()),
        Some("d6".into())
    );
    let not_capturable = Board::from_fen("4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 2").unwrap();
    assert_eq!(not_capturable.en_passant(), None);
    assert_ne!(
        capturable.hash(),
        Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2")
            .unwrap()
            .hash()
    );
}

#[test]
fn malformed_fields_are_named() {
    assert!(error("").contains("at least 4 fields"));
    assert!(error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1").contains("7 ranks"));
    assert!(
        error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .contains("unexpected '9'")
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1").contains("more than 8")
    );
    assert!(
        error("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("7 squares")
    );
    assert!(
        error("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .contains("unexpected 'x'")
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
            .contains("bad side to move 'x'")
    );
    assert_eq!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1"),
        "bad castling field 'KQx': unexpected 'x'"
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1")
            .contains("no rook for 'K'")
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1")
            .contains("bad en-passant square 'e9'")
    );
    assert!(error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1").contains("rank 6"));
    assert!(error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1").contains("no pawn"));
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1")
            .contains("half-move clock 'x'")
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3")
            .contains("full-move number '-3'")
    );
    assert!(
        error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra")
            .contains("at most 6")
    );
}

#[test]
fn unplayable_positions_are_refused_with_a_reason() {
    assert_eq!(
        error("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        "illegal position: no black king"
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"),
        "illegal position: 2 white kings"
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        "illegal position: pawn on a1"
    );
    assert_eq!(
        error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        "illegal position: pawn on a8"
    );
    assert_eq!(
        error("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
        "illegal position: the side not to move (black) is in check"
    );
    assert!(error("4k3/8/8/8/8/8/8/R3K3 b K - 0 1").contains("no rook for 'K'"));
    assert!(error("4k3/8/8/8/8/8/4K3/R7 b Q - 0 1").contains("not on its first rank"));
}

#[test]
fn impossible_material_is_refused_with_a_reason() {
    // 28 white pieces and 266 legal moves: once a crash (the move list overflowed).
    let crowded = "QQQQQQnk/Q4Q1P/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
    assert_eq!(
        error(crowded),
        "illegal position: white has 28 pieces (at most 16)"
    );
    assert_eq!(
        error("4k3/8/8/8/NNNNNNNN/8/PPPPPPPP/4K3 w - - 0 1"),
        "illegal position: white has 17 pieces (at most 16)"
    );
    assert_eq!(
        error("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        "illegal position: black has 9 pawns (at most 8)"
    );
    assert_eq!(
        error("4k3/8/8/8/8/NNN5/PPPPPPPP/4K3 w - - 0 1"),
        "illegal position: white has 1 more knights, bishops, rooks or queens than at the \
         start, each a promoted pawn, but only 0 of its pawns are missing"
    );
    // Nine queens and no pawns is possible: 218 legal moves, the most any game can reach.
    let most = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    let board = Board::from_fen(most).unwrap();
    assert_eq!(legal_moves::<Magic>(&board).len(), 218);
    assert_eq!(legal_moves_directional::<Magic>(&board).len(), 218);
}

#[test]
fn counters_at_their_limits_saturate() {
    let mut board = Board::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 65535 65535").unwrap();
    board.play(parse_uci_move(&board, "e8d8", false).unwrap());
    board.play(parse_uci_move(&board, "h1h2", false).unwrap());
    assert_eq!(board.to_fen(), "3k4/8/8/8/8/8/7R/4K3 b - - 65535 65535");
    board.play_null();
    assert_eq!(board.to_fen(), "3k4/8/8/8/8/8/7R/4K3 w - - 65535 65535");
}

#[test]
fn nothing_panics_on_garbage() {
    let mut rng = 0x1234_5678u64;
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ -wbKQkqAHah0e3x\u{e9}"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let len = (rng % 80) as usize;
        let s: String = (0..len)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                alphabet[(rng % alphabet.len() as u64) as usize]
            })
            .collect();
        let _ = Board::from_fen(&s);
        // Mutations of a valid FEN reach the deeper checks.
        let mut fen: Vec<char> = START_FEN.chars().collect();
        let at = (rng % fen.len() as u64) as usize;
        fen[at] = alphabet[(rng >> 20) as usize % alphabet.len()];
        if let Ok(board) = Board::from_fen(&fen.iter().collect::<String>()) {
            board.validate().unwrap();
        }
    }
}

#[test]
fn errors_are_typed_by_the_field_at_fault() {
    use quintessence::board::FenError;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let kind = |fen: &str| match fen.parse::<Board>() {
        Ok(board) => panic!("accepted {fen:?} as {}", board.to_fen()),
        Err(e) => std::mem::discriminant(&e),
    };
    let of = |e: FenError| std::mem::discriminant(&e);
    let any = String::new;
    for (fen, expected) in [
        ("8/8 w".to_string(), of(FenError::Fields(any()))),
        (
            format!("{start}x w KQkq - 0 1"),
            of(FenError::Placement(any())),
        ),
        (
            format!("{start} x KQkq - 0 1"),
            of(FenError::SideToMove(any())),
        ),
        (
            format!("{start} w KQx - 0 1"),
            of(FenError::Castling(any())),
        ),
        (
            format!("{start} w KQkq z3 0 1"),
            of(FenError::EnPassant(any())),
        ),
        (
            format!("{start} w KQkq - x 1"),
            of(FenError::HalfmoveClock(any())),
        ),
        (
            format!("{start} w KQkq - 0 x"),
            of(FenError::FullmoveNumber(any())),
        ),
        (
            "4k3/8/8/8/8/8/8/4KK2 w - - 0 1".to_string(),
            of(FenError::IllegalPosition(any())),
        ),
    ] {
        assert_eq!(kind(&fen), expected, "{fen}");
    }
    assert_eq!(START_FEN.parse::<Board>(), Board::from_fen(START_FEN));
}
