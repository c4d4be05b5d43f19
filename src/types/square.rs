use super::Color;
use std::fmt;
use std::str::FromStr;

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

    /// The square with this index, which must be below 64 (see [`Square::try_from_index`]).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        assert!(i < 64, "square index out of range");
        Self::ALL[i]
    }

    /// The square with this index, or `None` from 64 on.
    #[inline(always)]
    pub const fn try_from_index(i: usize) -> Option<Square> {
        if i < 64 { Some(Self::ALL[i]) } else { None }
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
}

/// Why a text is not a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareParseError {
    /// Not two characters.
    Length(usize),
    /// The first character is not a file `a`-`h`.
    File(char),
    /// The second character is not a rank `1`-`8`.
    Rank(char),
}

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareParseError::Length(n) => write!(f, "a square is 2 characters, not {n}"),
            SquareParseError::File(c) => write!(f, "'{c}' is not a file (a-h)"),
            SquareParseError::Rank(c) => write!(f, "'{c}' is not a rank (1-8)"),
        }
    }
}

impl std::error::Error for SquareParseError {}

impl FromStr for Square {
    type Err = SquareParseError;

    /// `e4`; the file may be upper case.
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let chars: Vec<char> = s.chars().collect();
        let &[file, rank] = chars.as_slice() else {
            return Err(SquareParseError::Length(chars.len()));
        };
        let file = File::from_char(file).ok_or(SquareParseError::File(file))?;
        let rank = Rank::from_char(rank).ok_or(SquareParseError::Rank(rank))?;
        Ok(Square::new(file, rank))
    }
}

impl TryFrom<usize> for Square {
    type Error = usize;

    /// The square with this index; the index itself as the error from 64 on.
    fn try_from(i: usize) -> Result<Square, usize> {
        Square::try_from_index(i).ok_or(i)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_from_text_with_typed_errors() {
        assert_eq!("e4".parse(), Ok(Square::E4));
        assert_eq!("H8".parse(), Ok(Square::H8));
        assert_eq!("e".parse::<Square>(), Err(SquareParseError::Length(1)));
        assert_eq!("e44".parse::<Square>(), Err(SquareParseError::Length(3)));
        assert_eq!("i4".parse::<Square>(), Err(SquareParseError::File('i')));
        assert_eq!("e9".parse::<Square>(), Err(SquareParseError::Rank('9')));
        assert_eq!("é4".parse::<Square>(), Err(SquareParseError::File('é')));
    }

    #[test]
    fn indices_beyond_the_board_are_refused() {
        assert_eq!(Square::try_from_index(63), Some(Square::H8));
        assert_eq!(Square::try_from_index(64), None);
        assert_eq!(Square::try_from(70usize), Err(70));
        assert!(std::panic::catch_unwind(|| Square::from_index(64)).is_err());
    }
}
