use super::{Color, File};

/// Which side of the king a castling rook stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g, the rook on f ("O-O").
    King = 0,
    /// Towards the a-file: the king ends on c, the rook on d ("O-O-O").
    Queen = 1,
}

impl CastleSide {
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn king_to_file(self) -> File {
        match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        }
    }

    pub const fn rook_to_file(self) -> File {
        match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        }
    }
}

/// Castling rights tied to rook files, so Chess960 positions are described exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rook_files: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        rook_files: [[None; 2]; 2],
    };

    #[inline(always)]
    pub const fn rook_file(&self, color: Color, side: CastleSide) -> Option<File> {
        self.rook_files[color as usize][side as usize]
    }

    pub fn set(&mut self, color: Color, side: CastleSide, file: Option<File>) {
        self.rook_files[color as usize][side as usize] = file;
    }

    pub fn clear_color(&mut self, color: Color) {
        self.rook_files[color as usize] = [None; 2];
    }

    pub fn is_empty(&self) -> bool {
        self.rook_files.iter().flatten().all(Option::is_none)
    }

    /// A 4-bit summary (white king, white queen, black king, black queen side), for hashing.
    #[inline(always)]
    pub fn bits(&self) -> usize {
        let mut bits = 0;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if self.rook_file(color, side).is_some() {
                    bits |= 1 << (color.index() * 2 + side.index());
                }
            }
        }
        bits
    }
}
