use crate::types::{Bitboard, Square};

/// The eight ray directions of queens, rooks and bishops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// (file, rank) step.
    pub const fn step(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// Change of square index for one step.
    #[inline(always)]
    pub const fn delta(self) -> i32 {
        let (df, dr) = self.step();
        dr * 8 + df
    }

    /// Rays towards higher square indices end at their lowest blocker (bitscan forward).
    #[inline(always)]
    pub const fn is_positive(self) -> bool {
        self.delta() > 0
    }

    pub const fn is_diagonal(self) -> bool {
        (self as u8) & 1 == 1
    }

    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Self::ALL[(self as usize + 4) & 7]
    }

    /// Squares that stay on the board when shifted one step this way.
    pub const fn shift_mask(self) -> Bitboard {
        let (df, _) = self.step();
        match df {
            1 => Bitboard(!Bitboard::FILE_H.0),
            -1 => Bitboard(!Bitboard::FILE_A.0),
            _ => Bitboard::FULL,
        }
    }

    /// Squares a step this way may land on: not the file a step off the board wraps onto.
    /// Fills mask their empty squares with it once instead of masking every shift.
    pub const fn entry_mask(self) -> Bitboard {
        let (df, _) = self.step();
        match df {
            1 => Bitboard(!Bitboard::FILE_A.0),
            -1 => Bitboard(!Bitboard::FILE_H.0),
            _ => Bitboard::FULL,
        }
    }

    /// Every square of `bb` moved one step this way.
    #[inline(always)]
    pub const fn shift(self, bb: Bitboard) -> Bitboard {
        Bitboard(bb.0 & self.shift_mask().0).shift(self.delta())
    }

    /// The square one step away, if on the board.
    pub const fn next(self, sq: Square) -> Option<Square> {
        let (df, dr) = self.step();
        sq.offset(df, dr)
    }
}

/// The [`SliderAttacks`](super::SliderAttacks) impl of a set-wise back-end, which needs only
/// its direction fill `$fill(dir, sliders, empty)`: a bishop's or rook's attacks are the union
/// of its four directions' fills, a single slider a set of one.
macro_rules! set_wise_backend {
    ($backend:ty, $name:literal, $fill:path) => {
        impl super::SliderAttacks for $backend {
            type Occ = Bitboard;
            const NAME: &'static str = $name;

            #[inline(always)]
            fn bishop(sq: crate::types::Square, occ: &Bitboard) -> Bitboard {
                Self::bishop_set(Bitboard::from_square(sq), occ)
            }

            #[inline(always)]
            fn rook(sq: crate::types::Square, occ: &Bitboard) -> Bitboard {
                Self::rook_set(Bitboard::from_square(sq), occ)
            }

            #[inline(always)]
            fn bishop_set(sliders: Bitboard, occ: &Bitboard) -> Bitboard {
                let empty = !*occ;
                Direction::DIAGONAL
                    .iter()
                    .fold(Bitboard::EMPTY, |acc, &dir| {
                        acc | $fill(dir, sliders, empty)
                    })
            }

            #[inline(always)]
            fn rook_set(sliders: Bitboard, occ: &Bitboard) -> Bitboard {
                let empty = !*occ;
                Direction::ORTHOGONAL
                    .iter()
                    .fold(Bitboard::EMPTY, |acc, &dir| {
                        acc | $fill(dir, sliders, empty)
                    })
            }

            #[inline(always)]
            fn ray_set(dir: Direction, sliders: Bitboard, occ: &Bitboard) -> Bitboard {
                $fill(dir, sliders, !*occ)
            }
        }
    };
}
pub(super) use set_wise_backend;
