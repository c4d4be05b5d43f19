//! Rotated bitboards: besides the normal occupancy (ranks contiguous), the board keeps it
//! transposed (files contiguous) and packed along both diagonal directions, each diagonal in
//! consecutive bits. Any line through a square is then one shift and mask away, and its state
//! indexes a per-square table of attacks.
//!
//! Squares on one diagonal share `rank - file`, on an anti-diagonal `rank + file`; a line with
//! sum/difference `k` has `8 - |k - 7|` squares (after offsetting to 0..=14), and its offset in
//! the packed word is the sum of the lengths before it.

use super::{Direction, Occupancy, SliderAttacks, ray_walk};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Rotated;

/// The four lines through a square.
#[derive(Clone, Copy)]
enum Line {
    Rank = 0,
    File = 1,
    Diagonal = 2,
    AntiDiagonal = 3,
}

const LINES: [Line; 4] = [Line::Rank, Line::File, Line::Diagonal, Line::AntiDiagonal];

impl Line {
    /// Which line of this kind `sq` is on (0..8 for ranks/files, 0..15 for diagonals).
    const fn number(self, sq: usize) -> usize {
        let (file, rank) = (sq & 7, sq >> 3);
        match self {
            Line::Rank => rank,
            Line::File => file,
            Line::Diagonal => rank + 7 - file,
            Line::AntiDiagonal => rank + file,
        }
    }

    const fn length(self, number: usize) -> usize {
        match self {
            Line::Rank | Line::File => 8,
            Line::Diagonal | Line::AntiDiagonal => 8 - number.abs_diff(7),
        }
    }

    /// First bit of line `number` in the packed occupancy.
    const fn offset(self, number: usize) -> usize {
        let mut offset = 0;
        let mut n = 0;
        while n < number {
            offset += self.length(n);
            n += 1;
        }
        offset
    }

    /// Position of `sq` along its line, counted from the end with the lowest file
    /// (lowest rank for files).
    const fn position(self, sq: usize) -> usize {
        let (file, rank) = (sq & 7, sq >> 3);
        match self {
            Line::Rank => file,
            Line::File => rank,
            Line::Diagonal => {
                if file < rank {
                    file
                } else {
                    rank
                }
            }
            Line::AntiDiagonal => {
                let number = rank + file;
                if number > 7 {
                    file - (number - 7)
                } else {
                    file
                }
            }
        }
    }

    /// The bit standing for `sq` in this line's packed occupancy.
    const fn bit(self, sq: usize) -> usize {
        self.offset(self.number(sq)) + self.position(sq)
    }

    const fn directions(self) -> (Direction, Direction) {
        match self {
            Line::Rank => (Direction::East, Direction::West),
            Line::File => (Direction::North, Direction::South),
            Line::Diagonal => (Direction::NorthEast, Direction::SouthWest),
            Line::AntiDiagonal => (Direction::SouthEast, Direction::NorthWest),
        }
    }
}

/// Per line kind and square: where the six inner bits of the line start, and how many there are.
#[derive(Clone, Copy)]
struct LineIndex {
    shift: u8,
    mask: u8,
}

struct Tables {
    /// `bit[line][sq]`: the square's bit in the packed occupancy of that line kind.
    bit: [[u64; 64]; 4],
    index: [[LineIndex; 64]; 4],
    /// `attacks[line][sq][state]` for the inner-bit state of the line (end squares never block
    /// anything beyond themselves, so 6 bits suffice where the full line state has 8).
    attacks: [[[Bitboard; 64]; 64]; 4],
}

const fn build() -> Tables {
    let mut t = Tables {
        bit: [[0; 64]; 4],
        index: [[LineIndex { shift: 0, mask: 0 }; 64]; 4],
        attacks: [[[Bitboard::EMPTY; 64]; 64]; 4],
    };
    let mut l = 0;
    while l < 4 {
        let line = LINES[l];
        let mut sq = 0;
        while sq < 64 {
            t.bit[l][sq] = 1 << line.bit(sq);
            let number = line.number(sq);
            let len = line.length(number);
            let inner = len.saturating_sub(2);
            // A corner's one-square diagonal has no inner bits: shift 0, not past the word
            // (a shift by 64 overflows; found by the FEN fuzz target with overflow checks on).
            t.index[l][sq] = LineIndex {
                shift: if inner == 0 {
                    0
                } else {
                    (line.offset(number) + 1) as u8
                },
                mask: ((1u32 << inner) - 1) as u8,
            };
            // The squares of this line, by position.
            let mut squares = [0usize; 8];
            let mut other = 0;
            while other < 64 {
                if line.number(other) == number {
                    squares[line.position(other)] = other;
                }
                other += 1;
            }
            let (up, down) = line.directions();
            let mut state = 0;
            while state < 64 {
                let mut occ = 0u64;
                let mut p = 0;
                while p < inner {
                    if state >> p & 1 != 0 {
                        occ |= 1 << squares[p + 1];
                    }
                    p += 1;
                }
                let from = Square::from_index(sq);
                t.attacks[l][sq][state] = Bitboard(
                    ray_walk(from, up, Bitboard(occ)).0 | ray_walk(from, down, Bitboard(occ)).0,
                );
                state += 1;
            }
            sq += 1;
        }
        l += 1;
    }
    t
}

#[allow(long_running_const_eval)]
static TABLES: Tables = build();

/// The occupancy in all four orientations, kept in step by the board's make/unmake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RotatedOccupancy {
    /// `[rank-wise (normal), file-wise (transposed), diagonal-packed, anti-diagonal-packed]`.
    lines: [u64; 4],
}

impl Occupancy for RotatedOccupancy {
    fn from_bitboard(bb: Bitboard) -> Self {
        let mut occ = RotatedOccupancy::default();
        for sq in bb {
            occ.toggle(sq);
        }
        occ
    }

    #[inline(always)]
    fn bitboard(&self) -> Bitboard {
        Bitboard(self.lines[Line::Rank as usize])
    }

    #[inline(always)]
    fn toggle(&mut self, sq: Square) {
        let s = sq as usize;
        self.lines[0] ^= TABLES.bit[0][s];
        self.lines[1] ^= TABLES.bit[1][s];
        self.lines[2] ^= TABLES.bit[2][s];
        self.lines[3] ^= TABLES.bit[3][s];
    }
}

#[inline(always)]
fn line_attacks(line: Line, sq: Square, occ: &RotatedOccupancy) -> Bitboard {
    let l = line as usize;
    let s = sq as usize;
    let index = TABLES.index[l][s];
    let state = (occ.lines[l] >> index.shift) as usize & index.mask as usize;
    TABLES.attacks[l][s][state]
}

impl SliderAttacks for Rotated {
    type Occ = RotatedOccupancy;
    const NAME: &'static str = "rotated";

    #[inline(always)]
    fn bishop(sq: Square, occ: &RotatedOccupancy) -> Bitboard {
        line_attacks(Line::Diagonal, sq, occ) | line_attacks(Line::AntiDiagonal, sq, occ)
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &RotatedOccupancy) -> Bitboard {
        line_attacks(Line::Rank, sq, occ) | line_attacks(Line::File, sq, occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_index_stays_inside_the_word() {
        // A shift of 64 or more overflows (a panic with overflow checks on).
        for l in 0..4 {
            for sq in 0..64 {
                let index = TABLES.index[l][sq];
                assert!(
                    index.shift < 64,
                    "line {l}, square {sq}: shift {}",
                    index.shift
                );
                assert!(
                    (index.shift as u32 + index.mask.count_ones()) <= 64,
                    "line {l}, square {sq}: bits past the word"
                );
            }
        }
    }
}
