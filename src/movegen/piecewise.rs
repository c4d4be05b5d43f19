//! Legal move generation piece by piece: each piece's attack set, cut to the legal targets.

use super::special::{castling, en_passant};
use super::{Constraints, GenType, MoveSink, PawnMoves};
use crate::attacks::{SliderAttacks, king_attacks, knight_attacks, line};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Rank};

/// Generates the legal moves of `kind` into `sink`.
#[inline]
pub fn generate<A: SliderAttacks, S: MoveSink>(board: &Board<A::Occ>, kind: GenType, sink: &mut S) {
    let info = Constraints::new(board);
    let piece_targets = match kind {
        GenType::All => !info.ours,
        GenType::Noisy => info.theirs,
        GenType::Quiet => !info.occupied,
    };

    let king_candidates = king_attacks(info.king) & piece_targets;
    sink.piece_moves(
        info.king,
        info.king_targets::<A>(board, king_candidates),
        info.theirs,
    );
    if info.checkers.more_than_one() {
        return;
    }

    let targets = info.targets & piece_targets;
    let occ = board.occupancy();
    let free = !info.pinned;
    let us = info.us;

    for from in board.pieces_of(us, PieceType::Knight) & free {
        sink.piece_moves(from, knight_attacks(from) & targets, info.theirs);
    }
    for from in board.diagonal_sliders(us) & free {
        sink.piece_moves(from, A::bishop(from, occ) & targets, info.theirs);
    }
    for from in board.orthogonal_sliders(us) & free {
        sink.piece_moves(from, A::rook(from, occ) & targets, info.theirs);
    }
    pawn_moves_of(
        &info,
        board.pieces_of(us, PieceType::Pawn) & free,
        info.targets,
        kind,
        sink,
    );

    // A pinned piece moves only along its pin line; when in check it cannot move at all.
    if info.pinned.any() && info.checkers.is_empty() {
        for from in board.diagonal_sliders(us) & info.pinned {
            sink.piece_moves(
                from,
                A::bishop(from, occ) & targets & line(info.king, from),
                info.theirs,
            );
        }
        for from in board.orthogonal_sliders(us) & info.pinned {
            sink.piece_moves(
                from,
                A::rook(from, occ) & targets & line(info.king, from),
                info.theirs,
            );
        }
        for from in board.pieces_of(us, PieceType::Pawn) & info.pinned {
            pawn_moves_of(
                &info,
                Bitboard::from(from),
                line(info.king, from),
                kind,
                sink,
            );
        }
    }

    if kind.noisy() {
        en_passant::<A, S>(board, &info, sink);
    }
    if kind.quiet() {
        castling::<A, S>(board, &info, sink);
    }
}

/// Pushes, double pushes, captures and promotions of a set of pawns, set-wise, landing only on
/// `allowed` squares.
#[inline(always)]
pub(super) fn pawn_moves_of<S: MoveSink>(
    info: &Constraints,
    pawns: Bitboard,
    allowed: Bitboard,
    kind: GenType,
    sink: &mut S,
) {
    if pawns.is_empty() {
        return;
    }
    let (up, up_west, up_east) = match info.us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };
    let last_rank = Bitboard::rank(Rank::R8.relative_to(info.us));
    let third_rank = Bitboard::rank(Rank::R3.relative_to(info.us));
    let empty = !info.occupied;

    let single = pawns.shift(up) & empty;
    if kind.quiet() {
        let double = (single & third_rank).shift(up) & empty & allowed;
        sink.pawn_moves(single & allowed & !last_rank, up, PawnMoves::Push);
        sink.pawn_moves(double, 2 * up, PawnMoves::DoublePush);
    }
    if kind.noisy() {
        let enemies = info.theirs & allowed;
        let west = (pawns & !Bitboard::FILE_A).shift(up_west) & enemies;
        let east = (pawns & !Bitboard::FILE_H).shift(up_east) & enemies;
        sink.pawn_moves(single & allowed & last_rank, up, PawnMoves::PushPromotion);
        sink.pawn_moves(west & !last_rank, up_west, PawnMoves::Capture);
        sink.pawn_moves(east & !last_rank, up_east, PawnMoves::Capture);
        sink.pawn_moves(west & last_rank, up_west, PawnMoves::CapturePromotion);
        sink.pawn_moves(east & last_rank, up_east, PawnMoves::CapturePromotion);
    }
}
