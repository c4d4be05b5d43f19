//! Castling and en passant, shared by both generation styles: few moves, intricate rules.

use super::{Constraints, MoveSink};
use crate::attacks::{Occupancy, SliderAttacks, between, pawn_attacks};
use crate::board::Board;
use crate::types::{Bitboard, CastleSide, Move, MoveKind, PieceType, Rank, Square};

/// Castling moves (king takes own rook), standard and Chess960.
#[inline]
pub fn castling<A: SliderAttacks, S: MoveSink>(
    board: &Board<A::Occ>,
    info: &Constraints,
    sink: &mut S,
) {
    if info.checkers.any() {
        return;
    }
    let back_rank = Rank::R1.relative_to(info.us);
    for side in CastleSide::ALL {
        let Some(rook) = board.castling_rook(info.us, side) else {
            continue;
        };
        let king_to = Square::new(side.king_to_file(), back_rank);
        let rook_to = Square::new(side.rook_to_file(), back_rank);
        let king_path = between(info.king, king_to) | king_to;
        let must_be_empty =
            (king_path | between(rook, rook_to) | rook_to) & !(Bitboard::from(info.king) | rook);
        if (info.occupied & must_be_empty).any() {
            continue;
        }
        // Without the rook: in Chess960 it may be what shields the king's destination.
        let occ = board.occupancy().toggled(info.king).toggled(rook);
        if king_path
            .into_iter()
            .any(|sq| board.is_attacked_by::<A>(sq, info.them, &occ))
        {
            continue;
        }
        sink.single(Move::new(info.king, rook, MoveKind::Castle));
    }
}

/// En-passant captures, each checked by replaying its effect on the occupancy: the rare
/// horizontal pin (both pawns leave the rank) and checks are then caught alike.
#[inline]
pub fn en_passant<A: SliderAttacks, S: MoveSink>(
    board: &Board<A::Occ>,
    info: &Constraints,
    sink: &mut S,
) {
    let Some(ep) = board.en_passant() else {
        return;
    };
    let captured = Square::new(ep.file(), Rank::R5.relative_to(info.us));
    // A knight or pawn check other than by the captured pawn cannot be answered by this capture.
    let leaper_checkers = info.checkers
        & (board.pieces(PieceType::Knight) | board.pieces(PieceType::Pawn))
        & !Bitboard::from(captured);
    if leaper_checkers.any() {
        return;
    }
    for from in pawn_attacks(info.them, ep) & board.pieces_of(info.us, PieceType::Pawn) {
        let occ = board
            .occupancy()
            .toggled(from)
            .toggled(captured)
            .toggled(ep);
        let exposed = (A::rook(info.king, &occ) & board.orthogonal_sliders(info.them))
            | (A::bishop(info.king, &occ) & board.diagonal_sliders(info.them));
        if exposed.is_empty() {
            sink.single(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
}
