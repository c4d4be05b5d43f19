//! Small `Copy` types everything else is built from.

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod move_text;
mod piece;
mod rng;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use castling::{CastleSide, CastlingRights};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use move_text::{MoveParseError, MoveText};
pub use piece::{Piece, PieceType};
pub use rng::{Rng, splitmix64};
pub use square::{File, Rank, Square, SquareParseError};
