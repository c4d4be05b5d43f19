//! What legal generation needs to know about a position before generating: the king, who gives
//! check, which of our pieces are pinned, and which squares a non-king move may go to.

use crate::attacks::{
    Occupancy, SliderAttacks, between, bishop_rays, knight_attacks, pawn_attacks, rook_rays,
};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    All,
    /// Captures and promotions (under-promotions included).
    Noisy,
    /// Everything else: quiet piece and pawn moves, castling.
    Quiet,
}

impl GenType {
    #[inline(always)]
    pub fn noisy(self) -> bool {
        self != GenType::Quiet
    }

    #[inline(always)]
    pub fn quiet(self) -> bool {
        self != GenType::Noisy
    }
}

pub struct Constraints {
    pub us: Color,
    pub them: Color,
    pub king: Square,
    pub ours: Bitboard,
    pub theirs: Bitboard,
    pub occupied: Bitboard,
    pub checkers: Bitboard,
    /// Our pieces that shield our king from an enemy slider.
    pub pinned: Bitboard,
    /// Squares a non-king move may end on: anything but our own pieces, and when in check only
    /// the checker or a square between it and the king.
    pub targets: Bitboard,
}

impl Constraints {
    #[inline(always)]
    pub fn new<O: Occupancy>(board: &Board<O>) -> Constraints {
        let us = board.side_to_move();
        let them = !us;
        let king = board.king(us);
        let ours = board.colored(us);
        let theirs = board.colored(them);
        let occupied = ours | theirs;

        // Sliders seeing the king on an empty board: with nothing between they give check,
        // with exactly one of our pieces between, that piece is pinned.
        let mut checkers = (knight_attacks(king) & board.pieces_of(them, PieceType::Knight))
            | (pawn_attacks(us, king) & board.pieces_of(them, PieceType::Pawn));
        let mut pinned = Bitboard::EMPTY;
        let snipers = (rook_rays(king) & board.orthogonal_sliders(them))
            | (bishop_rays(king) & board.diagonal_sliders(them));
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }

        let targets = match checkers.single() {
            None if checkers.any() => Bitboard::EMPTY,
            None => !ours,
            Some(checker) => between(king, checker) | checker,
        };
        Constraints {
            us,
            them,
            king,
            ours,
            theirs,
            occupied,
            checkers,
            pinned,
            targets,
        }
    }

    /// Squares the king can step to without being attacked (the king itself removed from the
    /// occupancy, so it cannot hide behind itself from a slider).
    #[inline(always)]
    pub fn king_targets<A: SliderAttacks>(
        &self,
        board: &Board<A::Occ>,
        candidates: Bitboard,
    ) -> Bitboard {
        let occ = board.occupancy().toggled(self.king);
        let mut safe = Bitboard::EMPTY;
        for to in candidates {
            if !board.is_attacked_by::<A>(to, self.them, &occ) {
                safe |= to;
            }
        }
        safe
    }
}
