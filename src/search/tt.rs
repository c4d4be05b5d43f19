//! The transposition table: buckets of four entries on one cache line, shared by all search
//! threads without locks. Each entry is two atomic words, the key stored XOR-ed with the data,
//! so a torn write (two threads storing at once) fails verification instead of being misread.
//!
//! The buckets live in an anonymous memory mapping: the system hands it out zeroed (all-zero
//! is an empty table) without touching a page, so allocating is instant; the search threads
//! then bring the pages in together ([`TranspositionTable::clear_part`]), each its own part.

use super::Bound;
use super::score::{MATE, MATE_BOUND, TB_WIN, TB_WIN_BOUND};
use crate::types::Move;
use memmap2::MmapMut;
use std::sync::atomic::{AtomicU64, Ordering};

const ENTRIES_PER_BUCKET: usize = 4;
/// Writing one word per page is enough to bring a zeroed page in.
const PAGE_BYTES: usize = 4096;

struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Move,
    /// Score relative to the probing node (mate distances adjusted).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored bound settles a search with this window.
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        self.bound.settles(self.score, alpha, beta)
    }
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let bound_bits = match bound {
        Bound::Exact => 3,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    mv.raw() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | bound_bits << 56
        | ((generation & 63) as u64) << 58
}

fn unpack_bound(data: u64) -> Option<Bound> {
    match (data >> 56) & 3 {
        3 => Some(Bound::Exact),
        1 => Some(Bound::Lower),
        2 => Some(Bound::Upper),
        _ => None,
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

fn depth_of(data: u64) -> i32 {
    (data >> 48) as u8 as i32
}

/// Mate and tablebase scores are stored as distance from the node, not from the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored result back relative to the root. A mate or tablebase result further from the
/// node than the 50-move counter allows cannot be reached before the game is drawn: it comes
/// back as the best score short of a decided one, still a bound for the searches that use it.
fn score_from_tt(score: i32, ply: usize, halfmove_clock: u16) -> i32 {
    let plies_left = 100 - halfmove_clock.min(100) as i32;
    if score >= TB_WIN_BOUND {
        if distance_to_result(score) >= plies_left {
            TB_WIN_BOUND - 1
        } else {
            score - ply as i32
        }
    } else if score <= -TB_WIN_BOUND {
        if distance_to_result(-score) >= plies_left {
            -TB_WIN_BOUND + 1
        } else {
            score + ply as i32
        }
    } else {
        score
    }
}

/// Plies from the node to the mate or tablebase result of a decided, node-relative score.
fn distance_to_result(score: i32) -> i32 {
    if score >= MATE_BOUND {
        MATE - score
    } else {
        TB_WIN - score
    }
}

pub struct TranspositionTable {
    /// Holds `len` buckets; only ever read through [`TranspositionTable::buckets`].
    memory: MmapMut,
    len: usize,
    generation: u8,
    /// All zero since the last resize or clear, and no search since.
    fresh: bool,
}

impl TranspositionTable {
    pub const MAX_MB: usize = 1 << 20;

    /// An empty table of `mb` megabytes (at least one bucket).
    ///
    /// Panics when the system refuses the memory; [`TranspositionTable::resize`] reports it.
    pub fn new(mb: usize) -> TranspositionTable {
        let (memory, len) = Self::allocate(mb).expect("memory for the transposition table");
        TranspositionTable {
            memory,
            len,
            generation: 0,
            fresh: true,
        }
    }

    fn allocate(mb: usize) -> std::io::Result<(MmapMut, usize)> {
        let len = ((mb.clamp(1, Self::MAX_MB) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let memory = MmapMut::map_anon(len * std::mem::size_of::<Bucket>())?;
        // Transparent huge pages where the kernel gives them on request (`madvise` mode): a
        // probe is a cache miss, and with 4 KiB pages a TLB miss too (docs/speed.md: +11-14 %
        // `bench` nps at 16 MB). Only a hint: without them the table works as before.
        #[cfg(target_os = "linux")]
        let _ = memory.advise(memmap2::Advice::HugePage);
        Ok((memory, len))
    }

    /// Reallocates to `mb` megabytes, empty; on failure the table is kept as it was.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let (memory, len) = Self::allocate(mb)
            .map_err(|e| format!("cannot allocate a {mb} MB transposition table: {e}"))?;
        self.memory = memory;
        self.len = len;
        self.generation = 0;
        self.fresh = true;
        Ok(())
    }

    #[inline]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `memory` is page-aligned (more than `Bucket`'s 64), `len` buckets long, owned
        // by `self` (so it outlives the slice), and never accessed as bytes: every access goes
        // through this shared slice of atomics. All-zero bytes, what a fresh anonymous mapping
        // holds, are valid `AtomicU64`s.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr().cast::<Bucket>(), self.len) }
    }

    pub fn size_mb(&self) -> usize {
        (self.len * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets every entry's age; call before clearing all parts.
    pub fn restart_generations(&mut self) {
        self.generation = 0;
    }

    /// Empties part `part` of `parts`, so that all search threads clear the table together.
    /// A fresh table is zero already: there one word per page is written, bringing the pages
    /// in now rather than during the first search.
    pub fn clear_part(&self, part: usize, parts: usize) {
        let buckets = self.buckets();
        let chunk = buckets.len().div_ceil(parts.max(1));
        let start = (chunk * part).min(buckets.len());
        let end = (start + chunk).min(buckets.len());
        let step = if self.fresh {
            (PAGE_BYTES / std::mem::size_of::<Bucket>()).max(1)
        } else {
            1
        };
        for bucket in buckets[start..end].iter().step_by(step) {
            for entry in &bucket.entries {
                entry.key_xor_data.store(0, Ordering::Relaxed);
                entry.data.store(0, Ordering::Relaxed);
            }
        }
    }

    /// A new search: entries from earlier ones age and get replaced first.
    pub fn new_search(&mut self) {
        self.fresh = false;
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.len as u128) >> 64) as usize;
        &self.buckets()[index]
    }

    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; any address is allowed.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        // Elsewhere no stable prefetch intrinsic: nothing to do.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, its score relative to the root from a node at `ply` whose 50-move
    /// counter is `halfmove_clock`.
    pub fn probe(&self, key: u64, ply: usize, halfmove_clock: u16) -> Option<TtEntry> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                let bound = unpack_bound(data)?;
                return Some(TtEntry {
                    mv: Move::from_raw(data as u16).unwrap_or(Move::NULL),
                    score: score_from_tt((data >> 16) as u16 as i16 as i32, ply, halfmove_clock),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: depth_of(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result, replacing the same position's entry or else the least valuable one
    /// (shallowest, oldest). A move-less store keeps the move already known. The entry's score
    /// is relative to the node at `ply`, as a probe there returns it.
    pub fn store(&self, key: u64, ply: usize, entry: TtEntry) {
        let TtEntry {
            mut mv,
            score,
            eval,
            depth,
            bound,
        } = entry;
        let bucket = self.bucket(key);
        let mut target = &bucket.entries[0];
        let mut worst = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let stored_key = entry.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored_key == key || unpack_bound(data).is_none() {
                if stored_key == key {
                    // Keep a deeper exact entry of the same position unless this one is exact.
                    if bound != Bound::Exact
                        && depth + 3 < depth_of(data)
                        && generation_of(data) == self.generation
                    {
                        return;
                    }
                    if mv.is_null() {
                        mv = Move::from_raw(data as u16).unwrap_or(Move::NULL);
                    }
                }
                target = entry;
                break;
            }
            let age = (self.generation.wrapping_sub(generation_of(data))) & 63;
            let value = depth_of(data) - 8 * age as i32;
            if value < worst {
                worst = value;
                target = entry;
            }
        }
        let data = pack(
            mv,
            score_to_tt(score, ply),
            eval,
            depth,
            bound,
            self.generation,
        );
        target.key_xor_data.store(key ^ data, Ordering::Relaxed);
        target.data.store(data, Ordering::Relaxed);
    }

    /// Per-mille of the first thousand entries holding data of the current search.
    pub fn hashfull(&self) -> u32 {
        let mut used = 0;
        let mut seen = 0;
        for bucket in self.buckets().iter().take(1000 / ENTRIES_PER_BUCKET) {
            for entry in &bucket.entries {
                let data = entry.data.load(Ordering::Relaxed);
                seen += 1;
                if unpack_bound(data).is_some() && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / seen.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    #[test]
    fn stores_and_finds_with_mate_distance_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        tt.store(
            0xABCD,
            3,
            TtEntry {
                mv,
                score: super::super::MATE - 10,
                eval: 25,
                depth: 7,
                bound: Bound::Lower,
            },
        );
        let e = tt.probe(0xABCD, 5, 0).unwrap();
        assert_eq!(e.mv, mv);
        assert_eq!(e.score, super::super::MATE - 12);
        assert_eq!((e.eval, e.depth, e.bound), (25, 7, Bound::Lower));
        assert!(tt.probe(0xABCE, 5, 0).is_none());
    }

    #[test]
    fn a_mate_the_fifty_move_rule_forbids_comes_back_undecided() {
        let tt = TranspositionTable::new(1);
        let (mate, tb_bound) = (MATE, TB_WIN_BOUND);
        let entry = |score| TtEntry {
            mv: Move::NULL,
            score,
            eval: 0,
            depth: 9,
            bound: Bound::Lower,
        };
        // Mate in 10 plies from the node (stored from ply 2: mate - 12 from the root).
        tt.store(0x1111, 2, entry(mate - 12));
        assert_eq!(tt.probe(0x1111, 2, 89).unwrap().score, mate - 12);
        assert_eq!(tt.probe(0x1111, 2, 90).unwrap().score, tb_bound - 1);
        assert_eq!(tt.probe(0x1111, 2, 99).unwrap().score, tb_bound - 1);
        // Mated in 7 plies from the node, likewise.
        tt.store(0x2222, 3, entry(-mate + 10));
        assert_eq!(tt.probe(0x2222, 3, 92).unwrap().score, -mate + 10);
        assert_eq!(tt.probe(0x2222, 3, 93).unwrap().score, -tb_bound + 1);
        // A tablebase win 40 plies from the node.
        let win = super::super::score::TB_WIN;
        tt.store(0x3333, 0, entry(win - 40));
        assert_eq!(tt.probe(0x3333, 1, 59).unwrap().score, win - 41);
        assert_eq!(tt.probe(0x3333, 1, 60).unwrap().score, tb_bound - 1);
        // Evaluations do not depend on the counter.
        tt.store(0x4444, 0, entry(900));
        assert_eq!(tt.probe(0x4444, 4, 99).unwrap().score, 900);
    }

    #[test]
    fn tablebase_scores_are_stored_relative_to_the_node_like_mates() {
        let tt = TranspositionTable::new(1);
        let win = super::super::score::TB_WIN;
        tt.store(
            0x1234,
            3,
            TtEntry {
                mv: Move::NULL,
                score: win - 10,
                eval: 0,
                depth: 9,
                bound: Bound::Lower,
            },
        );
        assert_eq!(tt.probe(0x1234, 5, 0).unwrap().score, win - 12);
        tt.store(
            0x5678,
            4,
            TtEntry {
                mv: Move::NULL,
                score: -win + 6,
                eval: 0,
                depth: 9,
                bound: Bound::Upper,
            },
        );
        assert_eq!(tt.probe(0x5678, 1, 0).unwrap().score, -win + 3);
        // Evaluations are stored as they are.
        tt.store(
            0x9ABC,
            4,
            TtEntry {
                mv: Move::NULL,
                score: 2_500,
                eval: 0,
                depth: 9,
                bound: Bound::Exact,
            },
        );
        assert_eq!(tt.probe(0x9ABC, 1, 0).unwrap().score, 2_500);
    }

    #[test]
    fn empty_table_has_nothing_and_is_not_full() {
        let tt = TranspositionTable::new(1);
        assert!(tt.probe(0, 0, 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn clearing_in_parts_empties_every_bucket() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        let keys: Vec<u64> = (1..2000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            tt.store(
                key,
                0,
                TtEntry {
                    mv: Move::NULL,
                    score: 1,
                    eval: 2,
                    depth: 3,
                    bound: Bound::Exact,
                },
            );
        }
        assert!(
            keys.iter()
                .filter(|&&k| tt.probe(k, 0, 0).is_some())
                .count()
                > 1000
        );
        tt.restart_generations();
        for part in 0..3 {
            tt.clear_part(part, 3);
        }
        assert!(keys.iter().all(|&k| tt.probe(k, 0, 0).is_none()));
        assert!(tt.resize(2).is_ok());
        assert_eq!(tt.size_mb(), 2);
    }
}
