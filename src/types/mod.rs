//! Small `Copy` types everything else is built from.

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod piece;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use castling::{CastleSide, CastlingRights};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use piece::{Piece, PieceType};
pub use square::{File, Rank, Square};
