//! Is this move legal here? Checked directly for the one move (the search's hash move and
//! killers come from other positions), without generating the rest.

use super::piecewise::pawn_moves_of;
use super::special::{castling, en_passant};
use super::{Constraints, GenType, MoveList};
use crate::attacks::{SliderAttacks, king_attacks, knight_attacks, line};
use crate::board::Board;
use crate::types::{Bitboard, Move, MoveKind, PieceType};

pub fn is_legal<A: SliderAttacks>(board: &Board<A::Occ>, mv: Move) -> bool {
    if mv.is_null() {
        return false;
    }
    let (from, to) = (mv.from(), mv.to());
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(from) else {
        return false;
    };
    if piece.color() != us {
        return false;
    }
    let info = Constraints::new(board);
    let kind = piece.kind();

    if mv.is_castle() || mv.is_en_passant() {
        let mut specials = MoveList::new();
        if mv.is_castle() && kind == PieceType::King {
            castling::<A, _>(board, &info, &mut specials);
        } else if mv.is_en_passant() && kind == PieceType::Pawn {
            en_passant::<A, _>(board, &info, &mut specials);
        }
        return specials.contains(mv);
    }
    if kind == PieceType::Pawn {
        let mut moves = MoveList::new();
        let allowed = if info.pinned.contains(from) {
            if info.checkers.any() {
                return false;
            }
            line(info.king, from)
        } else {
            info.targets
        };
        if info.checkers.more_than_one() {
            return false;
        }
        pawn_moves_of(
            &info,
            Bitboard::from(from),
            allowed,
            GenType::All,
            &mut moves,
        );
        return moves.contains(mv);
    }

    // Pieces: the kind bits must say capture exactly when the target holds an enemy.
    let expected_kind = if info.theirs.contains(to) {
        MoveKind::Capture
    } else if info.occupied.contains(to) {
        return false;
    } else {
        MoveKind::Quiet
    };
    if mv.kind() != expected_kind {
        return false;
    }
    let occ = board.occupancy();
    if kind == PieceType::King {
        return king_attacks(from).contains(to)
            && info
                .king_targets::<A>(board, Bitboard::from(to))
                .contains(to);
    }
    if info.checkers.more_than_one() || !info.targets.contains(to) {
        return false;
    }
    if info.pinned.contains(from) && !line(info.king, from).contains(to) {
        return false;
    }
    let attacks = match kind {
        PieceType::Knight => knight_attacks(from),
        PieceType::Bishop => A::bishop(from, occ),
        PieceType::Rook => A::rook(from, occ),
        _ => A::queen(from, occ),
    };
    attacks.contains(to)
}
