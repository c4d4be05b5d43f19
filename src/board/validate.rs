use super::Board;
use crate::attacks::Occupancy;
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
