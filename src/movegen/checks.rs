//! Does a move give check? Answered before making it, from squares computed once per position:
//! where each piece type would check the enemy king, and which of our pieces unmask a slider.

use crate::attacks::{
    SliderAttacks, between, bishop_rays, knight_attacks, line, pawn_attacks, rook_rays,
};
use crate::board::Board;
use crate::types::{Bitboard, Move, Square};

pub struct CheckInfo {
    /// Per piece type, the squares from which it would attack the enemy king.
    squares: [Bitboard; 6],
    /// Our pieces whose leaving the line uncovers a check by one of our sliders.
    discoverers: Bitboard,
    enemy_king: Square,
}

impl CheckInfo {
    pub fn new<A: SliderAttacks>(board: &Board<A::Occ>) -> CheckInfo {
        let us = board.side_to_move();
        let king = board.king(!us);
        let occ = board.occupancy();
        let bishop = A::bishop(king, occ);
        let rook = A::rook(king, occ);
        let mut discoverers = Bitboard::EMPTY;
        let snipers = (rook_rays(king) & board.orthogonal_sliders(us))
            | (bishop_rays(king) & board.diagonal_sliders(us));
        for sniper in snipers {
            let blockers = between(king, sniper) & board.occupied();
            if blockers.any() && !blockers.more_than_one() {
                discoverers |= blockers & board.colored(us);
            }
        }
        CheckInfo {
            squares: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
            discoverers,
            enemy_king: king,
        }
    }

    /// Whether `mv` (legal here) gives check.
    pub fn gives_check<A: SliderAttacks>(&self, board: &Board<A::Occ>, mv: Move) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            let mut child = *board;
            child.play(mv);
            return child.in_check::<A>();
        }
        let Some(kind) = board.piece_type_on(mv.from()) else {
            return false;
        };
        if self.squares[kind as usize].contains(mv.to()) {
            return true;
        }
        // Leaving the line between the king and our slider uncovers a check.
        self.discoverers.contains(mv.from()) && !line(self.enemy_king, mv.from()).contains(mv.to())
    }
}
