//! Our attack tables, lent to the tablebase prober for its own move generation.

use crate::attacks::{Magic, SliderAttacks, king_attacks, knight_attacks, pawn_attacks};
use crate::types::{Bitboard, Color, Square};
use pyrrhic_rs::EngineAdapter;

#[derive(Clone, Copy)]
pub struct Adapter;

fn square(index: u64) -> Square {
    Square::from_index(index as usize & 63)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        pawn_attacks(color, square(sq)).0
    }

    fn knight_attacks(sq: u64) -> u64 {
        knight_attacks(square(sq)).0
    }

    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        Magic::bishop(square(sq), &Bitboard(occupied)).0
    }

    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        Magic::rook(square(sq), &Bitboard(occupied)).0
    }

    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        Magic::queen(square(sq), &Bitboard(occupied)).0
    }

    fn king_attacks(sq: u64) -> u64 {
        king_attacks(square(sq)).0
    }
}
