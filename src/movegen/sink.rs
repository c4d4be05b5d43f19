//! Where generated moves go: into a list, or only counted (perft's bulk counting), so one
//! generator serves both without building moves it will not use.

use super::MoveList;
use crate::types::{Bitboard, Move, MoveKind, PieceType, Square};

/// What a set of pawn moves is; each target `to` comes from `to - delta`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PawnMoves {
    Push,
    DoublePush,
    Capture,
    /// A push to the last rank: four moves per target.
    PushPromotion,
    CapturePromotion,
}

pub trait MoveSink {
    /// Moves of the piece on `from` to every square of `targets`; those in `enemies` capture.
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard);

    /// Pawn moves of one kind, each target reached from `target - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32, kind: PawnMoves);

    /// One special move (castling, en passant).
    fn single(&mut self, mv: Move);
}

pub const PROMOTION_PIECES: [PieceType; 4] = [
    PieceType::Queen,
    PieceType::Knight,
    PieceType::Rook,
    PieceType::Bishop,
];

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        for to in targets & enemies {
            self.push(Move::new(from, to, MoveKind::Capture));
        }
        for to in targets & !enemies {
            self.push(Move::new(from, to, MoveKind::Quiet));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32, kind: PawnMoves) {
        for to in targets {
            let from = Square::from_index((to as i32 - delta) as usize);
            match kind {
                PawnMoves::Push => self.push(Move::new(from, to, MoveKind::Quiet)),
                PawnMoves::DoublePush => self.push(Move::new(from, to, MoveKind::DoublePush)),
                PawnMoves::Capture => self.push(Move::new(from, to, MoveKind::Capture)),
                PawnMoves::PushPromotion | PawnMoves::CapturePromotion => {
                    let capture = kind == PawnMoves::CapturePromotion;
                    for piece in PROMOTION_PIECES {
                        self.push(Move::new(from, to, MoveKind::promotion(piece, capture)));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without making them: a popcount per target set.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard, _enemies: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i32, kind: PawnMoves) {
        let n = targets.count() as u64;
        self.0 += match kind {
            PawnMoves::PushPromotion | PawnMoves::CapturePromotion => 4 * n,
            _ => n,
        };
    }

    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}
