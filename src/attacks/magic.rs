//! Fancy magic bitboards: the relevant occupancy (the slider's rays minus their edge squares) is
//! multiplied by a magic number whose top bits form a dense index into a per-square slice of one
//! shared table. The magic numbers come from [`super::magic_finder`].

use super::magic_numbers::{BISHOP_MAGICS, ROOK_MAGICS};
use super::{Direction, SliderAttacks, ray, slider_walk};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Magic;

/// Squares whose occupancy can change a slider's attacks: its rays without the last square.
pub const fn relevant_mask(sq: Square, dirs: &[Direction; 4]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < 4 {
        let r = ray(dirs[i], sq).0;
        if r != 0 {
            // The square at the far end of the ray never blocks anything behind it.
            let end = if dirs[i].is_positive() {
                63 - r.leading_zeros()
            } else {
                r.trailing_zeros()
            };
            mask |= r & !(1 << end);
        }
        i += 1;
    }
    mask
}

pub const ROOK_TABLE_SIZE: usize = 102_400;
pub const BISHOP_TABLE_SIZE: usize = 5_248;

#[derive(Clone, Copy)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

struct Tables<const N: usize> {
    entries: [Entry; 64],
    attacks: [Bitboard; N],
}

const fn build<const N: usize>(dirs: &[Direction; 4], magics: &[u64; 64]) -> Tables<N> {
    let mut t = Tables {
        entries: [Entry {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }; 64],
        attacks: [Bitboard::EMPTY; N],
    };
    let mut offset = 0;
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i);
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        t.entries[i] = Entry {
            mask,
            magic: magics[i],
            shift: 64 - bits,
            offset: offset as u32,
        };
        // Carry-rippler: every subset of the mask.
        let mut subset = 0u64;
        loop {
            let index = (subset.wrapping_mul(magics[i]) >> (64 - bits)) as usize;
            t.attacks[offset + index] = slider_walk(sq, dirs, Bitboard(subset));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        offset += 1 << bits;
        i += 1;
    }
    t
}

#[allow(long_running_const_eval)]
static ROOK: Tables<ROOK_TABLE_SIZE> = build(&Direction::ORTHOGONAL, &ROOK_MAGICS);
#[allow(long_running_const_eval)]
static BISHOP: Tables<BISHOP_TABLE_SIZE> = build(&Direction::DIAGONAL, &BISHOP_MAGICS);

#[inline(always)]
fn lookup<const N: usize>(tables: &Tables<N>, sq: Square, occ: Bitboard) -> Bitboard {
    let e = &tables.entries[sq as usize];
    let index = ((occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    // SAFETY: the index has `64 - shift` bits, and the square's slice has that many index bits;
    // a bad magic could only give wrong attacks (the tests check every subset), never overrun.
    unsafe { *tables.attacks.get_unchecked(e.offset as usize + index) }
}

impl SliderAttacks for Magic {
    type Occ = Bitboard;
    const NAME: &'static str = "magic";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        lookup(&BISHOP, sq, *occ)
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        lookup(&ROOK, sq, *occ)
    }
}
