//! The position: piece bitboards and a mailbox, side to move, castling rights tied to rook
//! files (Chess960 included), en-passant square, move counters and an incremental Zobrist key.

mod attackers;
pub mod cuckoo;
mod display;
mod fen;
mod make;
mod validate;
pub mod zobrist;

pub use fen::{FenError, START_FEN, placement_text};

use crate::attacks::{Occupancy, pawn_attacks};
use crate::types::{Bitboard, CastleSide, CastlingRights, Color, Piece, PieceType, Rank, Square};

/// A chess position. `O` is the occupancy representation the attack back-end reads; it is a
/// plain [`Bitboard`] for all but rotated bitboards, which keep it in four orientations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board<O: Occupancy = Bitboard> {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    occupancy: O,
    mailbox: [Option<Piece>; 64],
    hash: u64,
    side: Color,
    castling: CastlingRights,
    /// Kings and rooks whose moving (or capture) loses a castling right.
    castle_watch: Bitboard,
    /// Set only when a pawn of the side to move could capture there (pseudo-legally), so equal
    /// positions always get equal keys.
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
}

impl<O: Occupancy> Board<O> {
    fn empty() -> Self {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            occupancy: O::default(),
            mailbox: [None; 64],
            hash: 0,
            side: Color::White,
            castling: CastlingRights::NONE,
            castle_watch: Bitboard::EMPTY,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of one type, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceType) -> Bitboard {
        self.pieces[kind as usize]
    }

    /// All pieces of one colour.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[kind as usize] & self.colors[color as usize]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupancy.bitboard()
    }

    /// The occupancy in the representation of the attack back-end.
    #[inline(always)]
    pub fn occupancy(&self) -> &O {
        &self.occupancy
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq as usize]
    }

    #[inline(always)]
    pub fn piece_type_on(&self, sq: Square) -> Option<PieceType> {
        self.mailbox[sq as usize].map(Piece::kind)
    }

    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces_of(color, PieceType::King).lsb()
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[PieceType::Rook as usize] | self.pieces[PieceType::Queen as usize])
            & self.colors[color as usize]
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[PieceType::Bishop as usize] | self.pieces[PieceType::Queen as usize])
            & self.colors[color as usize]
    }

    /// `color` has a piece other than pawns and its king (null-move and pruning gates:
    /// without one, zugzwang is likely).
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.colors[color as usize]
            & !(self.pieces[PieceType::Pawn as usize] | self.pieces[PieceType::King as usize]))
            .any()
    }

    /// `color` has more than a lone minor piece besides pawns and its king: a rook, a queen
    /// or two minors. With a lone minor zugzwang is still common.
    #[inline(always)]
    pub fn has_more_than_a_minor(&self, color: Color) -> bool {
        let minors =
            self.pieces[PieceType::Knight as usize] | self.pieces[PieceType::Bishop as usize];
        self.orthogonal_sliders(color).any()
            || (self.colors[color as usize] & minors).more_than_one()
    }

    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The square of the rook `color` may castle with on `side`, if the right remains.
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling
            .rook_file(color, side)
            .map(|file| Square::new(file, Rank::R1.relative_to(color)))
    }

    /// Recomputes the squares that lose castling rights when touched.
    fn refresh_castle_watch(&mut self) {
        let mut watch = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    watch |= Bitboard::from(rook) | self.king(color);
                }
            }
        }
        self.castle_watch = watch;
    }

    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// Plies since the start of the game (0 for White's first move).
    pub fn game_ply(&self) -> u32 {
        (self.fullmove_number.max(1) as u32 - 1) * 2 + self.side as u32
    }

    /// The Zobrist key, maintained incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist key computed from scratch; always equal to [`Board::hash`].
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for sq in self.occupied() {
            hash ^= zobrist::piece(self.mailbox[sq as usize].expect("mailbox in sync"), sq);
        }
        if self.side == Color::Black {
            hash ^= zobrist::KEYS.side;
        }
        hash ^= zobrist::KEYS.castling[self.castling.bits()];
        if let Some(ep) = self.en_passant {
            hash ^= zobrist::KEYS.en_passant[ep.file() as usize];
        }
        hash
    }

    /// The same position with another occupancy representation.
    pub fn with_occupancy<P: Occupancy>(&self) -> Board<P> {
        Board {
            pieces: self.pieces,
            colors: self.colors,
            occupancy: P::from_bitboard(self.occupied()),
            mailbox: self.mailbox,
            hash: self.hash,
            side: self.side,
            castling: self.castling,
            castle_watch: self.castle_watch,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// Neither side can possibly mate: bare kings, a single minor, or bishops all on one colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.pieces(PieceType::Pawn)
            | self.pieces(PieceType::Rook)
            | self.pieces(PieceType::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.pieces(PieceType::Knight);
        let bishops = self.pieces(PieceType::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// True if a pawn of `capturer` attacks `sq` (an en-passant square is kept only then).
    fn pawn_can_take_en_passant(&self, capturer: Color, sq: Square) -> bool {
        (pawn_attacks(!capturer, sq) & self.pieces_of(capturer, PieceType::Pawn)).any()
    }

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.pieces[piece.kind() as usize] ^= sq;
        self.colors[piece.color() as usize] ^= sq;
        self.occupancy.toggle(sq);
        self.mailbox[sq as usize] = Some(piece);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.pieces[piece.kind() as usize] ^= sq;
        self.colors[piece.color() as usize] ^= sq;
        self.occupancy.toggle(sq);
        self.mailbox[sq as usize] = None;
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        self.pieces[piece.kind() as usize] ^= both;
        self.colors[piece.color() as usize] ^= both;
        self.occupancy.toggle_all(both);
        self.mailbox[from as usize] = None;
        self.mailbox[to as usize] = Some(piece);
        self.hash ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("the start position is valid")
    }
}
