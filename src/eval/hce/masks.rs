//! Pawn-structure masks: files, adjacent files and the spans in front of a square.

use crate::types::{Bitboard, Color, Square};

const fn file_mask(file: usize) -> u64 {
    0x0101_0101_0101_0101 << file
}

const fn adjacent(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Ranks strictly in front of `rank` for `color` (towards the promotion rank).
const fn ranks_ahead(color: usize, rank: usize) -> u64 {
    if color == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    }
}

struct Masks {
    adjacent_files: [u64; 8],
    /// Same file, in front.
    front: [[u64; 64]; 2],
    /// Same and adjacent files, in front: no enemy pawn here makes a pawn passed.
    passed: [[u64; 64]; 2],
    /// Adjacent files, beside and behind: own pawns here could still support it.
    support: [[u64; 64]; 2],
}

const fn build() -> Masks {
    let mut m = Masks {
        adjacent_files: [0; 8],
        front: [[0; 64]; 2],
        passed: [[0; 64]; 2],
        support: [[0; 64]; 2],
    };
    let mut f = 0;
    while f < 8 {
        m.adjacent_files[f] = adjacent(f);
        f += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq & 7, sq >> 3);
            let ahead = ranks_ahead(c, rank);
            m.front[c][sq] = ahead & file_mask(file);
            m.passed[c][sq] = ahead & (file_mask(file) | adjacent(file));
            m.support[c][sq] = adjacent(file) & !ahead;
            sq += 1;
        }
        c += 1;
    }
    m
}

static MASKS: Masks = build();

#[inline(always)]
pub fn file_of(sq: Square) -> Bitboard {
    Bitboard(file_mask(sq.file() as usize))
}

#[inline(always)]
pub fn adjacent_files(sq: Square) -> Bitboard {
    Bitboard(MASKS.adjacent_files[sq.file() as usize])
}

#[inline(always)]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.front[color as usize][sq as usize])
}

#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.passed[color as usize][sq as usize])
}

/// Adjacent-file squares on the pawn's rank and behind it.
#[inline(always)]
pub fn support_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.support[color as usize][sq as usize])
}
