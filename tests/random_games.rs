//! Random games: at every ply all back-ends and both generation styles must agree on the legal
//! moves (and with cozy-chess, an independent library), and the incrementally updated board must
//! equal one built from scratch.

mod common;

use common::{Rng, load_epd};
use quintessence::attacks::{Backend, Magic, RotatedOccupancy};
use quintessence::board::Board;
use quintessence::movegen::{
    CheckInfo, GenType, MoveList, count_legal_moves, directional::TargetSets, is_legal,
    legal_moves, legal_moves_directional,
};
use quintessence::with_backend;

fn sorted_uci(list: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|m| m.to_uci(true)).collect();
    v.sort();
    v
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<String> {
    let mut v = Vec::new();
    board.generate_moves(|moves| {
        v.extend(moves.into_iter().map(|m| m.to_string()));
        false
    });
    v.sort();
    v
}

fn play_random_game(start_fen: &str, chess960: bool, rng: &mut Rng, max_plies: usize) -> usize {
    let mut board = Board::from_fen(start_fen).unwrap();
    let mut rotated = board.with_occupancy::<RotatedOccupancy>();
    let mut cozy = cozy_chess::Board::from_fen(start_fen, chess960).unwrap();
    let mut earlier_moves: Vec<quintessence::types::Move> = Vec::new();
    for ply in 0..max_plies {
        let reference = legal_moves::<Magic>(&board);
        let expected = sorted_uci(&reference);
        // Moves of earlier positions (as killers and hash moves are) are legal here exactly
        // when the generator produces them.
        for &mv in earlier_moves.iter().chain(reference.iter()) {
            assert_eq!(
                is_legal::<Magic>(&board, mv),
                reference.contains(mv),
                "is_legal({mv:?}) in {}",
                board.to_fen()
            );
        }
        earlier_moves = reference.iter().copied().collect();
        let checks = CheckInfo::new::<Magic>(&board);
        for &mv in reference.iter() {
            let mut child = board;
            child.play(mv);
            assert_eq!(
                checks.gives_check::<Magic>(&board, mv),
                child.in_check::<Magic>(),
                "gives_check({mv:?}) in {}",
                board.to_fen()
            );
            // The prefetch key is the child's unless castling rights or en passant change.
            if !mv.is_castle()
                && child.castling() == board.castling()
                && child.en_passant().is_none()
            {
                assert_eq!(
                    board.key_after(mv),
                    child.hash(),
                    "key_after({mv:?}) in {}",
                    board.to_fen()
                );
            }
        }
        assert_eq!(
            expected,
            cozy_moves(&cozy),
            "vs cozy-chess in {}",
            board.to_fen()
        );

        for backend in Backend::available() {
            with_backend!(backend, A => {
                let b = board.with_occupancy::<<A as quintessence::attacks::SliderAttacks>::Occ>();
                let fen = board.to_fen();
                assert_eq!(sorted_uci(&legal_moves::<A>(&b)), expected, "{backend} piece-wise in {fen}");
                assert_eq!(
                    sorted_uci(&legal_moves_directional::<A>(&b)),
                    expected,
                    "{backend} direction-wise in {fen}"
                );
                assert_eq!(count_legal_moves::<A>(&b), expected.len() as u64, "{backend} count in {fen}");
                assert_eq!(
                    TargetSets::new::<A>(&b, GenType::All).count(),
                    expected.len() as u64,
                    "{backend} target-set count in {fen}"
                );
                // Noisy and quiet split the moves exactly.
                let mut split = MoveList::new();
                TargetSets::new::<A>(&b, GenType::Noisy).drain(&mut split);
                assert!(split.iter().all(|m| m.is_capture() || m.is_promotion()), "noisy in {fen}");
                let noisy = split.len();
                TargetSets::new::<A>(&b, GenType::Quiet).drain(&mut split);
                assert!(split[noisy..].iter().all(|m| m.is_quiet()), "quiet in {fen}");
                assert_eq!(sorted_uci(&split), expected, "{backend} noisy+quiet in {fen}");
            });
        }

        if reference.is_empty() {
            return ply;
        }
        let mv = reference[rng.below(reference.len())];
        let before = board;
        let mut child = board;
        child.play(mv);
        assert_eq!(board, before, "copy-make leaves the parent untouched");
        child
            .validate()
            .unwrap_or_else(|e| panic!("after {mv:?} from {}: {e}", board.to_fen()));
        let rebuilt = Board::from_fen(&child.to_fen()).unwrap();
        assert_eq!(
            rebuilt,
            child,
            "FEN round trip after {mv:?} from {}",
            board.to_fen()
        );

        rotated.play(mv);
        rotated
            .validate()
            .unwrap_or_else(|e| panic!("rotated after {mv:?}: {e}"));

        cozy.play(mv.to_uci(true).parse().unwrap());
        board = child;
        if board.halfmove_clock() >= 100 {
            return ply;
        }
    }
    max_plies
}

#[test]
fn random_games_from_the_start_position() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let plies: usize = (0..120)
        .map(|_| play_random_game(quintessence::board::START_FEN, false, &mut rng, 300))
        .sum();
    assert!(plies > 10_000, "only {plies} plies played");
}

#[test]
fn random_games_from_the_perft_positions() {
    let mut rng = Rng::new(0xDEAD_BEEF_CAFE_F00D);
    for case in load_epd("perft/standard.epd")
        .iter()
        .chain(&load_epd("perft/cpw.epd"))
    {
        play_random_game(&case.fen, false, &mut rng, 60);
    }
}

#[test]
fn random_chess960_games() {
    let mut rng = Rng::new(0x0960_0960_0960_0960);
    for case in load_epd("perft/chess960.epd").iter().step_by(4) {
        play_random_game(&case.fen, true, &mut rng, 80);
    }
}
