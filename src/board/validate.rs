//! Is the board sound? [`Board::validate`] checks the redundant state agrees with itself;
//! `check_material` and `check_checks` refuse positions no game can reach (for the FEN reader).

use super::Board;
use crate::attacks::{Magic, Occupancy};
use crate::types::{Bitboard, Color, Piece, PieceType, Square};

impl<O: Occupancy> Board<O> {
    /// Checks that every redundant part of the state agrees with the rest: bitboards with the
    /// mailbox, the kept occupancy with the pieces, the incremental key with one computed from
    /// scratch. For tests and debugging; describes the first disagreement found.
    pub fn validate(&self) -> Result<(), String> {
        if (self.colors[0] & self.colors[1]).any() {
            return Err("a square belongs to both colours".into());
        }
        let mut by_type = Bitboard::EMPTY;
        for kind in PieceType::ALL {
            if (by_type & self.pieces(kind)).any() {
                return Err(format!("{kind:?} overlaps another piece type"));
            }
            by_type |= self.pieces(kind);
        }
        if by_type != self.colors[0] | self.colors[1] {
            return Err("piece-type and colour bitboards disagree".into());
        }
        if self.occupancy != O::from_bitboard(by_type) {
            return Err("the kept occupancy disagrees with the pieces".into());
        }
        for sq in Square::ALL {
            let expected = by_type.contains(sq).then(|| {
                let color = if self.colors[0].contains(sq) {
                    Color::White
                } else {
                    Color::Black
                };
                let kind = PieceType::ALL
                    .into_iter()
                    .find(|&k| self.pieces(k).contains(sq))
                    .expect("some type");
                Piece::new(color, kind)
            });
            if self.mailbox[sq as usize] != expected {
                return Err(format!("mailbox disagrees on {sq}"));
            }
        }
        let mut refreshed = *self;
        refreshed.refresh_castle_watch();
        if refreshed.castle_watch != self.castle_watch {
            return Err("castling watch squares out of date".into());
        }
        if self.hash != self.compute_hash() {
            return Err(format!(
                "incremental key {:016x} differs from computed {:016x}",
                self.hash,
                self.compute_hash()
            ));
        }
        Ok(())
    }
}

/// Pieces of each kind a side starts with; any more must be promoted pawns.
const START_COUNTS: [(PieceType, u32); 4] = [
    (PieceType::Knight, 2),
    (PieceType::Bishop, 2),
    (PieceType::Rook, 2),
    (PieceType::Queen, 1),
];

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Board {
    /// Refuses material no game can reach: one king a side, no pawn on the first or last rank,
    /// at most 16 pieces and 8 pawns a side (as python-chess's `Board.is_valid()`), and no more
    /// pieces beyond the starting set than pawns are missing (each is a promoted pawn). Every
    /// position accepted here, and every one reached from it by legal moves, has fewer legal
    /// moves than [`MAX_MOVES`](crate::movegen::MAX_MOVES) (see there).
    pub(super) fn check_material(&self) -> Result<(), String> {
        for color in Color::ALL {
            let side = name(color);
            match self.pieces_of(color, PieceType::King).count() {
                1 => {}
                0 => return Err(format!("no {side} king")),
                n => return Err(format!("{n} {side} kings")),
            }
            let pieces = self.colored(color).count();
            if pieces > 16 {
                return Err(format!("{side} has {pieces} pieces (at most 16)"));
            }
            let pawns = self.pieces_of(color, PieceType::Pawn).count();
            if pawns > 8 {
                return Err(format!("{side} has {pawns} pawns (at most 8)"));
            }
            let promoted: u32 = START_COUNTS
                .iter()
                .map(|&(kind, start)| self.pieces_of(color, kind).count().saturating_sub(start))
                .sum();
            if promoted > 8 - pawns {
                return Err(format!(
                    "{side} has {promoted} more knights, bishops, rooks or queens than at the \
                     start, each a promoted pawn, but only {} of its pawns are missing",
                    8 - pawns
                ));
            }
        }
        let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
        if let Some(sq) = (self.pieces(PieceType::Pawn) & back_ranks)
            .into_iter()
            .next()
        {
            return Err(format!("pawn on {sq}"));
        }
        Ok(())
    }

    /// Refuses checks no move can give: the side not to move in check, more than two checkers.
    /// (Two checkers on one line with the king, which python-chess also refuses, are let
    /// through: the published perft suite has such a position to test evasions.)
    pub(super) fn check_checks(&self) -> Result<(), String> {
        let them = !self.side;
        if self.is_attacked_by::<Magic>(self.king(them), self.side, &self.occupancy) {
            return Err(format!("the side not to move ({}) is in check", name(them)));
        }
        let checkers = self.checkers::<Magic>();
        if checkers.count() > 2 {
            return Err("more than two pieces give check".into());
        }
        Ok(())
    }
}
