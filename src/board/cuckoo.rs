//! Cuckoo tables of reversible moves (Marcel van Kervinck's idea, as Stockfish uses it): every
//! move of a knight, bishop, rook, queen or king between two squares, found by the change it
//! makes to the position key. With them a search asks, in two probes per earlier position,
//! whether one move leads back to it.

use super::zobrist;
use crate::attacks::{bishop_rays, king_attacks, knight_attacks, rook_rays};
use crate::types::{Bitboard, Color, Piece, PieceType, Square};
use std::sync::LazyLock;

/// Slots in the table; 3 668 moves go in, and two hash functions over 13 bits each find them.
const SIZE: usize = 8192;

struct Table {
    /// Key change of each move (0: empty slot).
    keys: [u64; SIZE],
    moves: [(Square, Square); SIZE],
}

fn first_slot(key: u64) -> usize {
    (key & 0x1FFF) as usize
}

fn second_slot(key: u64) -> usize {
    (key >> 16 & 0x1FFF) as usize
}

/// Where a piece of `kind` on `sq` could go on an empty board.
fn reach(kind: PieceType, sq: Square) -> Bitboard {
    match kind {
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_rays(sq),
        PieceType::Rook => rook_rays(sq),
        PieceType::Queen => bishop_rays(sq) | rook_rays(sq),
        PieceType::King => king_attacks(sq),
        PieceType::Pawn => Bitboard::EMPTY,
    }
}

/// The key change of a move of `piece` between `a` and `b` (either way).
fn move_key(piece: Piece, a: Square, b: Square) -> u64 {
    zobrist::piece(piece, a) ^ zobrist::piece(piece, b) ^ zobrist::KEYS.side
}

fn build() -> Table {
    let mut table = Table {
        keys: [0; SIZE],
        moves: [(Square::A1, Square::A1); SIZE],
    };
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            let piece = Piece::new(color, kind);
            for a in Square::ALL {
                for b in reach(kind, a).iter().filter(|&b| b > a) {
                    let mut key = move_key(piece, a, b);
                    let mut mv = (a, b);
                    let mut slot = first_slot(key);
                    // Each entry displaced moves to its other slot until one is free.
                    loop {
                        std::mem::swap(&mut table.keys[slot], &mut key);
                        std::mem::swap(&mut table.moves[slot], &mut mv);
                        if key == 0 {
                            break;
                        }
                        slot = if slot == first_slot(key) {
                            second_slot(key)
                        } else {
                            first_slot(key)
                        };
                    }
                }
            }
        }
    }
    table
}

static TABLE: LazyLock<Table> = LazyLock::new(build);

/// The two squares of the reversible move that changes a position's key by `key_change`, if
/// there is one (the move may go either way between them).
#[inline]
pub fn reversible_move(key_change: u64) -> Option<(Square, Square)> {
    let table = &*TABLE;
    [first_slot(key_change), second_slot(key_change)]
        .into_iter()
        .find(|&slot| table.keys[slot] == key_change)
        .map(|slot| table.moves[slot])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reversible_move_is_in_the_table_once() {
        let table = &*TABLE;
        assert_eq!(table.keys.iter().filter(|&&k| k != 0).count(), 3668);
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                for a in Square::ALL {
                    for b in reach(kind, a).iter() {
                        let found = reversible_move(move_key(piece, a, b));
                        assert_eq!(found, Some((a.min(b), a.max(b))), "{piece:?} {a:?} {b:?}");
                    }
                }
            }
        }
        let pawn = Piece::new(Color::White, PieceType::Pawn);
        assert_eq!(
            reversible_move(move_key(pawn, Square::E2, Square::E3)),
            None
        );
    }
}
