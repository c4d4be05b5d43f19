use super::Color;
use std::fmt;

/// A file (column), `A` = 0 … `H` = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row), `R1` = 0 … `R8` = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> File {
        Self::ALL[i & 7]
    }

    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        ('a'..='h')
            .contains(&c)
            .then(|| File::from_index(c as usize - 'a' as usize))
    }
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Rank {
        Self::ALL[i & 7]
    }

    /// The rank as seen from `color`'s side: White's 2nd rank is Black's 7th.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::from_index(7 - self as usize),
        }
    }

    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8')
            .contains(&c)
            .then(|| Rank::from_index(c as usize - '1' as usize))
    }
}

macro_rules! squares {
    ($($sq:ident),* $(,)?) => {
        /// A square of the board, numbered a1 = 0, b1 = 1, … h8 = 63 (little-endian rank-file).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Square { $($sq),* }

        impl Square {
            pub const ALL: [Square; 64] = [$(Square::$sq),*];
        }
    };
}

squares! {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Self::ALL[rank as usize * 8 + file as usize]
    }

    /// The square with this index; only the low six bits are used.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        Self::ALL[i & 63]
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File::from_index(self as usize & 7)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::from_index(self as usize >> 3)
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Self::from_index(self as usize ^ 56)
    }

    /// This square as seen from `color`'s side of the board.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// Square moved by (`df` files, `dr` ranks), or `None` off the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = self.file() as i32 + df;
        let r = self.rank() as i32 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::from_index((r * 8 + f) as usize))
        } else {
            None
        }
    }

    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        chars.next().is_none().then_some(Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}
