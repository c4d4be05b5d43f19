//! BMI2 `PEXT` indexing: the relevant occupancy bits are gathered into a dense index directly,
//! so no magic number is needed. Subsets enumerated in increasing order (carry-rippler) map to
//! indices 0, 1, 2, … because PEXT preserves order, which lets the table be built without PEXT.
//!
//! Only selectable when this binary was built with BMI2 and the CPU has it
//! (see [`Pext::available`]); the software fallback exists so the code compiles everywhere.

use super::magic::{BISHOP_TABLE_SIZE, ROOK_TABLE_SIZE, relevant_mask};
use super::{Direction, SliderAttacks, slider_walk};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy, Debug, Default)]
pub struct Pext;

impl Pext {
    /// PEXT needs BMI2 in the build (target-cpu=native on a BMI2 machine, or x86-64-v3) and in
    /// the CPU running it.
    pub fn available() -> bool {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            std::arch::is_x86_feature_detected!("bmi2")
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            false
        }
    }

    /// PEXT is one fast instruction on Intel since Haswell and on AMD since Zen 3, but microcode
    /// taking tens to hundreds of cycles on AMD before Zen 3 (families 15h–18h).
    pub fn fast() -> bool {
        Self::available() && cpu().is_none_or(|(vendor, family)| pext_is_fast(&vendor, family))
    }
}

/// Whether PEXT is fast on a CPU of this vendor and family.
pub fn pext_is_fast(vendor: &[u8; 12], family: u32) -> bool {
    // Hygon's Dhyana (family 18h) is a Zen 1.
    let amd = vendor == b"AuthenticAMD" || vendor == b"HygonGenuine";
    !(amd && family < 0x19)
}

/// The CPU's vendor string and family (base plus extended), from CPUID leaf 1.
fn cpu() -> Option<([u8; 12], u32)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        // Leaves 0 and 1 exist on every x86-64 CPU.
        let (leaf0, leaf1) = (__cpuid(0), __cpuid(1));
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
        let base = (leaf1.eax >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((leaf1.eax >> 20) & 0xFF)
        } else {
            base
        };
        Some((vendor, family))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

#[derive(Clone, Copy)]
struct Entry {
    mask: u64,
    offset: u32,
}

struct Tables<const N: usize> {
    entries: [Entry; 64],
    attacks: [Bitboard; N],
}

const fn build<const N: usize>(dirs: &[Direction; 4]) -> Tables<N> {
    let mut t = Tables {
        entries: [Entry { mask: 0, offset: 0 }; 64],
        attacks: [Bitboard::EMPTY; N],
    };
    let mut offset = 0;
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i);
        let mask = relevant_mask(sq, dirs);
        t.entries[i] = Entry {
            mask,
            offset: offset as u32,
        };
        let mut subset = 0u64;
        let mut index = 0;
        loop {
            t.attacks[offset + index] = slider_walk(sq, dirs, Bitboard(subset));
            index += 1;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        offset += index;
        i += 1;
    }
    t
}

#[allow(long_running_const_eval)]
static ROOK: Tables<ROOK_TABLE_SIZE> = build(&Direction::ORTHOGONAL);
#[allow(long_running_const_eval)]
static BISHOP: Tables<BISHOP_TABLE_SIZE> = build(&Direction::DIAGONAL);

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: this code is only compiled when the build target has BMI2.
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    result
}

#[inline(always)]
fn lookup<const N: usize>(tables: &Tables<N>, sq: Square, occ: Bitboard) -> Bitboard {
    let e = &tables.entries[sq as usize];
    let index = pext(occ.0, e.mask) as usize;
    // SAFETY: PEXT of a mask with k bits is below 2^k, the size of this square's slice.
    unsafe { *tables.attacks.get_unchecked(e.offset as usize + index) }
}

impl SliderAttacks for Pext {
    type Occ = Bitboard;
    const NAME: &'static str = "pext";

    #[inline(always)]
    fn bishop(sq: Square, occ: &Bitboard) -> Bitboard {
        lookup(&BISHOP, sq, *occ)
    }

    #[inline(always)]
    fn rook(sq: Square, occ: &Bitboard) -> Bitboard {
        lookup(&ROOK, sq, *occ)
    }
}

#[cfg(test)]
mod speed_tests {
    use super::pext_is_fast;

    #[test]
    fn pext_is_slow_only_on_amd_before_zen_3() {
        assert!(pext_is_fast(b"GenuineIntel", 6));
        assert!(pext_is_fast(b"AuthenticAMD", 0x19)); // Zen 3, Zen 4
        assert!(pext_is_fast(b"AuthenticAMD", 0x1A)); // Zen 5
        assert!(!pext_is_fast(b"AuthenticAMD", 0x17)); // Zen 1, Zen 2
        assert!(!pext_is_fast(b"AuthenticAMD", 0x15)); // Excavator
        assert!(!pext_is_fast(b"HygonGenuine", 0x18));
    }
}
