//! Tables every back-end shares: leaper attacks, empty-board rays, lines and between-sets.

use super::Direction;
use crate::types::{Bitboard, Color, Square};

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::from_index(sq).offset(steps[i].0, steps[i].1) {
                bits |= 1 << to as u32;
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// The eight knight jumps, in the order of the knight directions of direction-wise generation.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq as usize]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq as usize]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color as usize][sq as usize]
}

/// Squares attacked by a whole set of pawns of `color`.
#[inline(always)]
pub fn pawn_attacks_set(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Direction::NorthWest.shift(pawns) | Direction::NorthEast.shift(pawns),
        Color::Black => Direction::SouthWest.shift(pawns) | Direction::SouthEast.shift(pawns),
    }
}

/// Squares attacked by a whole set of knights.
#[inline(always)]
pub fn knight_attacks_set(knights: Bitboard) -> Bitboard {
    let b = knights.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_ab = not_a & !(Bitboard::FILE_A.0 << 1);
    let not_h = !Bitboard::FILE_H.0;
    let not_gh = not_h & !(Bitboard::FILE_H.0 >> 1);
    Bitboard(
        (b << 17 & not_a)
            | (b << 15 & not_h)
            | (b << 10 & not_ab)
            | (b << 6 & not_gh)
            | (b >> 17 & not_h)
            | (b >> 15 & not_a)
            | (b >> 10 & not_gh)
            | (b >> 6 & not_ab),
    )
}

/// Squares attacked by a king set (one king, usually).
#[inline(always)]
pub fn king_attacks_set(kings: Bitboard) -> Bitboard {
    let row = kings | kings.east() | kings.west();
    row.north() | row.south() | (row ^ kings)
}

/// Walks from `sq` in `dir` until a square of `occ` (included) or the edge: the slow reference
/// that builds the tables and checks every back-end in the tests.
pub const fn ray_walk(sq: Square, dir: Direction, occ: Bitboard) -> Bitboard {
    let mut bits = 0u64;
    let mut cur = sq;
    while let Some(next) = dir.next(cur) {
        bits |= 1 << next as u32;
        if occ.0 >> next as u32 & 1 != 0 {
            break;
        }
        cur = next;
    }
    Bitboard(bits)
}

/// Slider attacks along a set of directions from the ray tables (used to build the other
/// back-ends' tables at compile time, where it must be cheap).
pub const fn slider_walk(sq: Square, dirs: &[Direction; 4], occ: Bitboard) -> Bitboard {
    let mut bits = 0;
    let mut i = 0;
    while i < 4 {
        let ray = RAYS[dirs[i] as usize][sq as usize].0;
        let blockers = ray & occ.0;
        bits |= if blockers == 0 {
            ray
        } else if dirs[i].is_positive() {
            ray ^ RAYS[dirs[i] as usize][blockers.trailing_zeros() as usize].0
        } else {
            ray ^ RAYS[dirs[i] as usize][63 - blockers.leading_zeros() as usize].0
        };
        i += 1;
    }
    Bitboard(bits)
}

const fn ray_table() -> [[Bitboard; 64]; 8] {
    let mut table = [[Bitboard::EMPTY; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            table[d][sq] = ray_walk(Square::from_index(sq), Direction::ALL[d], Bitboard::EMPTY);
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `RAYS[dir][sq]`: the empty-board ray from `sq` (excluded) to the edge.
pub static RAYS: [[Bitboard; 64]; 8] = ray_table();

#[inline(always)]
pub const fn ray(dir: Direction, sq: Square) -> Bitboard {
    RAYS[dir as usize][sq as usize]
}

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let rays = ray_table();
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let opposite = (d + 4) & 7;
            let mut bits = rays[d][a].0;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                between[a][b] = Bitboard(rays[d][a].0 & rays[opposite][b].0);
                line[a][b] = Bitboard(rays[d][a].0 | rays[opposite][a].0 | 1 << a);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a as usize][b as usize]
}

/// The whole board-wide line through `a` and `b` (both included), or empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a as usize][b as usize]
}

const fn empty_board_table(dirs: &[Direction; 4]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slider_walk(Square::from_index(sq), dirs, Bitboard::EMPTY);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [Bitboard; 64] = empty_board_table(&Direction::ORTHOGONAL);
static BISHOP_RAYS: [Bitboard; 64] = empty_board_table(&Direction::DIAGONAL);

/// Rook moves on an empty board (for pin and x-ray detection).
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq as usize]
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq as usize]
}
