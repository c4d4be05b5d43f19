//! Every sliding-attack back-end against the slow reference walk, on random occupancies.

mod common;

use common::{Rng, load_epd};
use quintessence::attacks::{
    Backend, Direction, Occupancy, SliderAttacks, magic_finder, ray, slider_walk,
};
use quintessence::board::Board;
use quintessence::types::{Bitboard, Color, Square};
use quintessence::with_backend;

fn random_occupancy(rng: &mut Rng) -> Bitboard {
    // Mix sparse and dense boards.
    match rng.below(3) {
        0 => Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64()),
        1 => Bitboard(rng.next_u64() & rng.next_u64()),
        _ => Bitboard(rng.next_u64()),
    }
}

fn check_backend<A: SliderAttacks>() {
    let mut rng = Rng::new(0x00A7_7AC4_5EED);
    for _ in 0..3_000 {
        let occ_bb = random_occupancy(&mut rng);
        let occ = A::Occ::from_bitboard(occ_bb);
        assert_eq!(occ.bitboard(), occ_bb);
        for sq in Square::ALL {
            assert_eq!(
                A::rook(sq, &occ),
                slider_walk(sq, &Direction::ORTHOGONAL, occ_bb),
                "{} rook on {sq} with {occ_bb:?}",
                A::NAME
            );
            assert_eq!(
                A::bishop(sq, &occ),
                slider_walk(sq, &Direction::DIAGONAL, occ_bb),
                "{} bishop on {sq} with {occ_bb:?}",
                A::NAME
            );
        }
        let sliders = Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64());
        let rook_union = sliders.into_iter().fold(Bitboard::EMPTY, |a, s| {
            a | slider_walk(s, &Direction::ORTHOGONAL, occ_bb)
        });
        let bishop_union = sliders.into_iter().fold(Bitboard::EMPTY, |a, s| {
            a | slider_walk(s, &Direction::DIAGONAL, occ_bb)
        });
        assert_eq!(
            A::rook_set(sliders, &occ),
            rook_union,
            "{} rook set",
            A::NAME
        );
        assert_eq!(
            A::bishop_set(sliders, &occ),
            bishop_union,
            "{} bishop set",
            A::NAME
        );
        for dir in Direction::ALL {
            let dirs = if dir.is_diagonal() {
                &Direction::DIAGONAL
            } else {
                &Direction::ORTHOGONAL
            };
            let expected = sliders.into_iter().fold(Bitboard::EMPTY, |a, s| {
                a | (slider_walk(s, dirs, occ_bb) & ray(dir, s))
            });
            assert_eq!(
                A::ray_set(dir, sliders, &occ),
                expected,
                "{} ray set {dir:?}",
                A::NAME
            );
        }
    }
}

#[test]
fn every_backend_matches_the_reference() {
    for backend in Backend::available() {
        with_backend!(backend, A => check_backend::<A>());
    }
}

fn check_attacked_by<A: SliderAttacks>(boards: &[Board]) {
    for board in boards {
        let board = board.with_occupancy::<A::Occ>();
        for by in Color::ALL {
            let expected = Square::ALL
                .into_iter()
                .filter(|&sq| board.is_attacked_by::<A>(sq, by, board.occupancy()))
                .fold(Bitboard::EMPTY, |set, sq| set | Bitboard::from_square(sq));
            assert_eq!(
                board.attacked_by::<A>(by),
                expected,
                "{} {by:?} in {}",
                A::NAME,
                board.to_fen()
            );
        }
    }
}

/// The squares a side attacks all at once (threat-aware history) are the squares on which it
/// attacks one by one.
#[test]
fn attacked_squares_agree_with_square_by_square_attacks() {
    let boards: Vec<Board> = load_epd("perft/standard.epd")
        .iter()
        .map(|case| Board::from_fen(&case.fen).unwrap())
        .collect();
    assert!(boards.len() > 50);
    for backend in Backend::available() {
        with_backend!(backend, A => check_attacked_by::<A>(&boards));
    }
}

#[test]
fn rotated_occupancy_follows_toggles() {
    use quintessence::attacks::RotatedOccupancy;
    let mut rng = Rng::new(77);
    let mut occ = RotatedOccupancy::default();
    let mut plain = Bitboard::EMPTY;
    for _ in 0..10_000 {
        let sq = Square::from_index(rng.below(64));
        occ.toggle(sq);
        plain ^= sq;
        assert_eq!(occ, RotatedOccupancy::from_bitboard(plain));
    }
}

#[test]
fn committed_magics_are_valid_and_reproducible() {
    let source = magic_finder::source();
    let committed = include_str!("../src/attacks/magic_numbers.rs");
    assert_eq!(
        source, committed,
        "magic_finder no longer reproduces magic_numbers.rs"
    );
    for sq in [Square::A1, Square::E4, Square::H8] {
        let magic = magic_finder::find_magic(sq, &Direction::ORTHOGONAL, 12345);
        assert!(magic_finder::is_valid(sq, &Direction::ORTHOGONAL, magic));
        // A magic of zero maps every subset to one slot: destructive collisions.
        assert!(!magic_finder::is_valid(sq, &Direction::ORTHOGONAL, 0));
    }
}

#[test]
fn backend_names_parse_and_unknown_names_explain() {
    for backend in Backend::available() {
        assert_eq!(Backend::parse(backend.name()), Ok(backend));
    }
    let err = Backend::parse("bogus").unwrap_err();
    assert!(
        err.contains("unknown attack back-end 'bogus'") && err.contains("magic"),
        "{err}"
    );
    assert!(Backend::fastest().is_available());
}
