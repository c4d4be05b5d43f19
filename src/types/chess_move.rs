use super::{File, PieceType, Square};
use std::fmt;

/// What kind of move a [`Move`] is, stored in its top four bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    Quiet = 0,
    DoublePush = 1,
    /// Castling, encoded as the king capturing its own rook (Chess960 style) for every variant.
    Castle = 2,
    Capture = 4,
    EnPassant = 5,
    PromoKnight = 8,
    PromoBishop = 9,
    PromoRook = 10,
    PromoQueen = 11,
    PromoCaptureKnight = 12,
    PromoCaptureBishop = 13,
    PromoCaptureRook = 14,
    PromoCaptureQueen = 15,
}

impl MoveKind {
    const FROM_BITS: [Option<MoveKind>; 16] = [
        Some(MoveKind::Quiet),
        Some(MoveKind::DoublePush),
        Some(MoveKind::Castle),
        None,
        Some(MoveKind::Capture),
        Some(MoveKind::EnPassant),
        None,
        None,
        Some(MoveKind::PromoKnight),
        Some(MoveKind::PromoBishop),
        Some(MoveKind::PromoRook),
        Some(MoveKind::PromoQueen),
        Some(MoveKind::PromoCaptureKnight),
        Some(MoveKind::PromoCaptureBishop),
        Some(MoveKind::PromoCaptureRook),
        Some(MoveKind::PromoCaptureQueen),
    ];

    /// The promotion kind for `piece`, with or without a capture.
    pub const fn promotion(piece: PieceType, capture: bool) -> MoveKind {
        let base = match piece {
            PieceType::Knight => 0,
            PieceType::Bishop => 1,
            PieceType::Rook => 2,
            _ => 3,
        };
        match (capture, base) {
            (false, 0) => MoveKind::PromoKnight,
            (false, 1) => MoveKind::PromoBishop,
            (false, 2) => MoveKind::PromoRook,
            (false, _) => MoveKind::PromoQueen,
            (true, 0) => MoveKind::PromoCaptureKnight,
            (true, 1) => MoveKind::PromoCaptureBishop,
            (true, 2) => MoveKind::PromoCaptureRook,
            (true, _) => MoveKind::PromoCaptureQueen,
        }
    }
}

/// A move in 16 bits: from (6) | to (6) | kind (4).
///
/// Castling is stored as "king takes own rook", so one encoding serves standard chess and Chess960;
/// only the UCI text differs (see [`Move::to_uci`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move, written `0000` in UCI.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | (kind as u16) << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }

    #[inline(always)]
    pub const fn kind_bits(self) -> u16 {
        self.0 >> 12
    }

    pub const fn kind(self) -> MoveKind {
        match MoveKind::FROM_BITS[(self.0 >> 12) as usize] {
            Some(kind) => kind,
            None => MoveKind::Quiet,
        }
    }

    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`]; returns `None` for bit patterns no move uses.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        match MoveKind::FROM_BITS[(raw >> 12) as usize] {
            Some(_) => Some(Move(raw)),
            None => None,
        }
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Captures, en passant included (castling is not a capture).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// Neither a capture nor a promotion.
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        self.0 & (12 << 12) == 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind_bits() == MoveKind::Castle as u16
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.kind_bits() == MoveKind::EnPassant as u16
    }

    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.kind_bits() == MoveKind::DoublePush as u16
    }

    /// The piece a pawn becomes, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() {
            Some(PieceType::from_index(1 + (self.kind_bits() & 3) as usize))
        } else {
            None
        }
    }

    /// Where the captured piece stands when this is a capture: beside the from-square for en
    /// passant, else the to-square.
    pub const fn captured_square(self) -> Square {
        if self.is_en_passant() {
            Square::new(self.to().file(), self.from().rank())
        } else {
            self.to()
        }
    }

    /// The square the king lands on when this is a castling move.
    pub const fn castle_king_to(self) -> Square {
        let file = if (self.to() as u8) > (self.from() as u8) {
            File::G
        } else {
            File::C
        };
        Square::new(file, self.from().rank())
    }

    /// The square the rook lands on when this is a castling move.
    pub const fn castle_rook_to(self) -> Square {
        let file = if (self.to() as u8) > (self.from() as u8) {
            File::F
        } else {
            File::D
        };
        Square::new(file, self.from().rank())
    }

    /// UCI text: `e2e4`, `e7e8q`; castling as `e1g1`, or king-takes-rook `e1h1` in Chess960 mode.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let to = if self.is_castle() && !chess960 {
            self.castle_king_to()
        } else {
            self.to()
        };
        match self.promotion() {
            Some(p) => format!("{}{}{}", self.from(), to, p.char()),
            None => format!("{}{}", self.from(), to),
        }
    }
}

impl fmt::Display for Move {
    /// Standard-chess UCI notation; use [`Move::to_uci`] for Chess960.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(false))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?})", self.to_uci(true), self.kind())
    }
}
