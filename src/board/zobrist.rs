//! Zobrist keys: one random number per (piece, square), side to move, castling-rights set and
//! en-passant file; a position's key is the XOR of those that apply.

use crate::types::{Piece, Square, splitmix64};

pub struct Keys {
    pub pieces: [[u64; 64]; 12],
    pub side: u64,
    pub castling: [u64; 16],
    pub en_passant: [u64; 8],
}

const fn generate() -> Keys {
    let mut state = 0x5155_494E_5445_5353; // "QUINTESS"
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        side: 0,
        castling: [0; 16],
        en_passant: [0; 8],
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            keys.pieces[p][sq] = splitmix64(&mut state);
            sq += 1;
        }
        p += 1;
    }
    keys.side = splitmix64(&mut state);
    // Castling keys are XOR-combinations of four base keys, so a change of rights is one XOR.
    let base = [
        splitmix64(&mut state),
        splitmix64(&mut state),
        splitmix64(&mut state),
        splitmix64(&mut state),
    ];
    let mut bits = 0;
    while bits < 16 {
        let mut i = 0;
        while i < 4 {
            if bits >> i & 1 != 0 {
                keys.castling[bits] ^= base[i];
            }
            i += 1;
        }
        bits += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant[f] = splitmix64(&mut state);
        f += 1;
    }
    keys
}

pub static KEYS: Keys = generate();

#[inline(always)]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece as usize][sq as usize]
}
