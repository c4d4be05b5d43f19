//! Training positions in `bulletformat`'s 32-byte `ChessBoard` layout (what bullet and other
//! trainers read): pieces as nibbles over an occupancy mask, seen from the side to move, with
//! the score and result for that side. Its three spare bytes hold what the trainer filters on,
//! so data is generated unfiltered and filtered once, at training time:
//!
//! | `extra` byte | meaning |
//! |---|---|
//! | 0 | flags: bit 0 side to move in check, bit 1 best move a capture or promotion, bit 2 flags unknown |
//! | 1 | game ply (saturating at 255) |
//! | 2 | reserved, 0 |
//!
//! Other trainers ignore these bytes, so the files stay plain bulletformat.

use crate::attacks::Magic;
use crate::board::Board;
use crate::search::MATE_BOUND;
use crate::types::{Color, PieceType};
use bulletformat::BulletFormat;
pub use bulletformat::ChessBoard;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

pub const RECORD: usize = 32;

pub const IN_CHECK: u8 = 1;
pub const NOISY_BEST: u8 = 2;
/// Converted from text that had already been filtered: flags not recorded.
pub const FLAGS_UNKNOWN: u8 = 4;

/// A position to store: `score` is the search score for the side to move; `result` the game's
/// result for White (1.0, 0.5, 0.0).
pub fn pack(board: &Board, score_stm: i32, result_white: f32, flags: u8) -> ChessBoard {
    let mut bbs = [0u64; 8];
    bbs[0] = board.colored(Color::White).0;
    bbs[1] = board.colored(Color::Black).0;
    for kind in PieceType::ALL {
        bbs[2 + kind.index()] = board.pieces(kind).0;
    }
    let stm = board.side_to_move();
    let score_white = (score_stm * stm.sign()).clamp(-32000, 32000) as i16;
    let mut packed = ChessBoard::from_raw(bbs, stm.index(), score_white, result_white)
        .expect("every occupied square holds a piece");
    let in_check = if board.in_check::<Magic>() {
        IN_CHECK
    } else {
        0
    };
    packed.extra = [flags | in_check, board.game_ply().min(255) as u8, 0];
    packed
}

/// Which positions the trainer uses.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    pub min_ply: u8,
    pub skip_in_check: bool,
    pub skip_noisy: bool,
    /// Scores at or beyond this (mates, tablebase wins) are skipped.
    pub max_score: i16,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            min_ply: 16,
            skip_in_check: true,
            skip_noisy: true,
            max_score: MATE_BOUND.min(i16::MAX as i32) as i16 / 2,
        }
    }
}

impl Filter {
    pub fn keeps(&self, pos: &ChessBoard) -> bool {
        let [flags, ply, _] = pos.extra();
        let known = flags & FLAGS_UNKNOWN == 0;
        pos.score().unsigned_abs() < self.max_score as u16
            && !(known && self.skip_in_check && flags & IN_CHECK != 0)
            && !(known && self.skip_noisy && flags & NOISY_BEST != 0)
            && ply >= self.min_ply
    }
}

pub fn to_bytes(positions: &[ChessBoard]) -> &[u8] {
    ChessBoard::as_bytes_slice(positions)
}

/// Decodes whole records; a trailing partial record (a write cut short) is ignored.
pub fn from_bytes(bytes: &[u8]) -> Vec<ChessBoard> {
    bytes
        .chunks_exact(RECORD)
        .map(|c| {
            let mut pcs = [0u8; 16];
            pcs.copy_from_slice(&c[8..24]);
            ChessBoard {
                occ: u64::from_le_bytes(c[0..8].try_into().unwrap()),
                pcs,
                score: i16::from_le_bytes([c[24], c[25]]),
                result: c[26],
                ksq: c[27],
                opp_ksq: c[28],
                extra: [c[29], c[30], c[31]],
            }
        })
        .collect()
}

/// Reads up to `max` records from `reader`.
pub fn read_chunk(reader: &mut impl Read, max: usize) -> io::Result<Vec<ChessBoard>> {
    let mut bytes = Vec::with_capacity(max * RECORD);
    reader.take((max * RECORD) as u64).read_to_end(&mut bytes)?;
    Ok(from_bytes(&bytes))
}

pub fn read_all(path: &Path) -> io::Result<Vec<ChessBoard>> {
    let mut reader = BufReader::new(File::open(path)?);
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(from_bytes(&bytes))
}

pub fn write_all(out: &mut impl Write, positions: &[ChessBoard]) -> io::Result<()> {
    out.write_all(to_bytes(positions))
}

/// The piece-square pairs of a packed position, from the side to move's view: piece
/// `colour << 3 | type` (colour 0 = side to move), square flipped for Black to move.
pub fn pieces(pos: &ChessBoard) -> impl Iterator<Item = (u8, u8)> {
    pos.into_iter()
}

/// A line of text, `<FEN> | <score> | <result> | flags <n>` (what `datagen --dump` prints).
/// The format stores positions from the side to move's view, so the FEN has White to move
/// (colours swapped and the board mirrored when Black was to move) and score and result are
/// that side's.
pub fn describe(pos: &ChessBoard) -> String {
    let [flags, ply, _] = pos.extra();
    let mut squares = [None; 64];
    for (piece, sq) in pieces(pos) {
        squares[sq as usize] = Some(piece);
    }
    let mut board = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        board.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = b"pnbrqk"[(p & 7) as usize] as char;
                    board.push(if p & 8 == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            board.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            board.push('/');
        }
    }
    format!(
        "{board} w - - 0 {} | {} | {:.1} | flags {flags}",
        u16::from(ply) / 2 + 1,
        pos.score(),
        pos.result()
    )
}
