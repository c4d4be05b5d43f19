//! Quintessence: a UCI chess engine built on bitboards, with every classic sliding-attack
//! technique as a selectable back-end.

pub mod attacks;
pub mod board;
pub mod build_info;
pub mod config;
pub mod engine;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod tablebase;
#[cfg(feature = "train")]
pub mod train;
pub mod types;
pub mod uci;

pub use board::Board;
