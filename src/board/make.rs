use super::{Board, zobrist};
use crate::attacks::Occupancy;
use crate::types::{Bitboard, CastleSide, Color, Move, Piece, PieceType, Rank, Square};

impl<O: Occupancy> Board<O> {
    /// Plays a legal move. Use copy-make (`let mut next = *board; next.play(mv)`) to keep the
    /// old position: the board is small and copying it restores everything exactly.
    #[inline(always)]
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let moving = self.mailbox[from as usize].expect("a piece on the from-square");
        debug_assert_eq!(moving.color(), us, "moving a piece of the side to move");

        if let Some(ep) = self.en_passant.take() {
            self.hash ^= zobrist::KEYS.en_passant[ep.file() as usize];
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        let old_castling = self.castling;

        if mv.is_castle() {
            let rook = Piece::new(us, PieceType::Rook);
            self.remove(moving, from);
            self.remove(rook, to);
            self.put(moving, mv.castle_king_to());
            self.put(rook, mv.castle_rook_to());
            self.castling.clear_color(us);
            self.refresh_castle_watch();
        } else {
            if mv.is_capture() {
                let captured_sq = mv.captured_square();
                let captured = self.mailbox[captured_sq as usize].expect("a piece to capture");
                self.remove(captured, captured_sq);
                self.halfmove_clock = 0;
            }
            match mv.promotion() {
                Some(kind) => {
                    self.remove(moving, from);
                    self.put(Piece::new(us, kind), to);
                }
                None => self.move_piece(moving, from, to),
            }
            if moving.kind() == PieceType::Pawn {
                self.halfmove_clock = 0;
                if mv.is_double_push() {
                    let skipped = Square::new(from.file(), Rank::R3.relative_to(us));
                    if self.pawn_can_take_en_passant(!us, skipped) {
                        self.en_passant = Some(skipped);
                        self.hash ^= zobrist::KEYS.en_passant[skipped.file() as usize];
                    }
                }
            }
            if (self.castle_watch & (Bitboard::from(from) | to)).any() {
                self.update_castling(moving, from, to);
            }
        }

        if old_castling != self.castling {
            self.hash ^= zobrist::KEYS.castling[old_castling.bits()]
                ^ zobrist::KEYS.castling[self.castling.bits()];
        }
        self.side = !us;
        self.hash ^= zobrist::KEYS.side;
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
    }

    /// The key after `mv`, for prefetching its table entry before the move is made: exact
    /// but for a castling right or an en-passant square the move changes (then it is only a
    /// wasted prefetch). Castling gives the board's own key.
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        if mv.is_castle() {
            return self.hash;
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(moving) = self.mailbox[from as usize] else {
            return self.hash;
        };
        let mut key = self.hash ^ zobrist::KEYS.side ^ zobrist::piece(moving, from);
        let placed = mv
            .promotion()
            .map_or(moving, |kind| Piece::new(moving.color(), kind));
        key ^= zobrist::piece(placed, to);
        if mv.is_capture() {
            let sq = mv.captured_square();
            if let Some(captured) = self.mailbox[sq as usize] {
                key ^= zobrist::piece(captured, sq);
            }
        }
        if let Some(ep) = self.en_passant {
            key ^= zobrist::KEYS.en_passant[ep.file() as usize];
        }
        key
    }

    /// A king move loses both rights; a move from or onto a castling rook's square loses that one.
    #[inline]
    fn update_castling(&mut self, moving: Piece, from: Square, to: Square) {
        if moving.kind() == PieceType::King {
            self.castling.clear_color(moving.color());
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side)
                    && (rook == from || rook == to)
                {
                    self.castling.set(color, side, None);
                }
            }
        }
        self.refresh_castle_watch();
    }

    /// Passes the turn (null move, for the search): only side, en passant and counters change.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.en_passant.take() {
            self.hash ^= zobrist::KEYS.en_passant[ep.file() as usize];
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = !self.side;
        self.hash ^= zobrist::KEYS.side;
    }
}
