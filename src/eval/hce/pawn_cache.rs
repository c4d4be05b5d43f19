//! The pawn hash: pawn-structure terms depend on the pawns alone and repeat across most of a
//! search, so each thread keeps their sum and the passed pawns per pawn configuration.

use super::S;
use crate::types::Bitboard;

const ENTRIES: usize = 1 << 14;

#[derive(Clone, Copy, Default)]
struct Entry {
    white: u64,
    black: u64,
    score: S,
    passed: Bitboard,
}

pub struct PawnCache {
    entries: Box<[Entry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        // An all-zero entry is right as it stands: no pawns, no score, nothing passed.
        PawnCache {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }
}

/// A 64-bit hash of the pawn placement (both colours).
#[inline]
pub fn pawn_key(white: Bitboard, black: Bitboard) -> u64 {
    let h = (white.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.0.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
    .rotate_left(29);
    h.wrapping_mul(0x1656_67B1_9E37_79F9)
}

impl PawnCache {
    #[inline]
    fn index(white: u64, black: u64) -> usize {
        (pawn_key(Bitboard(white), Bitboard(black)) >> 50) as usize & (ENTRIES - 1)
    }

    /// The cached (score, passed pawns) for these pawns, if present; entries are verified by the
    /// full pawn sets, so there are no false hits.
    #[inline]
    pub fn probe(&self, white: Bitboard, black: Bitboard) -> Option<(S, Bitboard)> {
        let e = &self.entries[Self::index(white.0, black.0)];
        (e.white == white.0 && e.black == black.0).then_some((e.score, e.passed))
    }

    #[inline]
    pub fn store(&mut self, white: Bitboard, black: Bitboard, score: S, passed: Bitboard) {
        self.entries[Self::index(white.0, black.0)] = Entry {
            white: white.0,
            black: black.0,
            score,
            passed,
        };
    }
}
