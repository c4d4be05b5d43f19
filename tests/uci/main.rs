//! The UCI engine driven through its real binary over pipes, as a GUI would.

mod bad_input;
mod chess;
mod command_line;
mod extensions;
mod fuzz;
mod handshake;
mod harness;
mod network;
mod ponder;
mod search;
mod selfplay;
mod strength;
mod tablebase;
