use super::Board;
use crate::attacks::{
    SliderAttacks, king_attacks, king_attacks_set, knight_attacks, knight_attacks_set,
    pawn_attacks, pawn_attacks_set,
};
use crate::types::{Bitboard, Color, PieceType, Square};

impl<O: crate::attacks::Occupancy> Board<O> {
    /// Pieces of both colours attacking `sq`, sliders seen through `occ`.
    #[inline]
    pub fn attackers_to<A: SliderAttacks<Occ = O>>(&self, sq: Square, occ: &O) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (A::bishop(sq, occ)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)))
            | (A::rook(sq, occ) & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
    }

    /// Whether a piece of `by` attacks `sq`, sliders seen through `occ`.
    #[inline]
    pub fn is_attacked_by<A: SliderAttacks<Occ = O>>(
        &self,
        sq: Square,
        by: Color,
        occ: &O,
    ) -> bool {
        (pawn_attacks(!by, sq) & self.pieces_of(by, PieceType::Pawn)).any()
            || (knight_attacks(sq) & self.pieces_of(by, PieceType::Knight)).any()
            || (king_attacks(sq) & self.pieces_of(by, PieceType::King)).any()
            || (A::bishop(sq, occ) & self.diagonal_sliders(by)).any()
            || (A::rook(sq, occ) & self.orthogonal_sliders(by)).any()
    }

    /// Every square a piece of `by` attacks (defended squares included).
    #[inline]
    pub fn attacked_by<A: SliderAttacks<Occ = O>>(&self, by: Color) -> Bitboard {
        pawn_attacks_set(by, self.pieces_of(by, PieceType::Pawn))
            | knight_attacks_set(self.pieces_of(by, PieceType::Knight))
            | king_attacks_set(self.pieces_of(by, PieceType::King))
            | A::bishop_set(self.diagonal_sliders(by), &self.occupancy)
            | A::rook_set(self.orthogonal_sliders(by), &self.occupancy)
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers<A: SliderAttacks<Occ = O>>(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to::<A>(self.king(us), &self.occupancy) & self.colored(!us)
    }

    #[inline]
    pub fn in_check<A: SliderAttacks<Occ = O>>(&self) -> bool {
        let us = self.side;
        self.is_attacked_by::<A>(self.king(us), !us, &self.occupancy)
    }
}
