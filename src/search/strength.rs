//! `UCI_LimitStrength`: a weaker player made of a small search (few nodes) and a deliberate
//! choice among the best few moves, weighted by how much worse each one scored.
//!
//! The mapping from `UCI_Elo` to nodes and noise is fitted to matches against reference engines
//! (the table in the README); the bounds are the range those matches cover.

use crate::types::Move;
use std::time::{SystemTime, UNIX_EPOCH};

pub const ELO_MIN: u32 = 1000;
pub const ELO_MAX: u32 = 2800;

/// How the search is held back at one `UCI_Elo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handicap {
    /// Nodes per move.
    pub nodes: u64,
    /// Lines searched to choose from.
    pub lines: usize,
    /// Centipawns of random preference added to each line (uniform in `0..noise`).
    pub noise: i32,
}

impl Handicap {
    pub fn for_elo(elo: u32) -> Handicap {
        // 0 at the weakest setting, 1 at the strongest.
        let t = f64::from(elo.clamp(ELO_MIN, ELO_MAX) - ELO_MIN) / f64::from(ELO_MAX - ELO_MIN);
        let nodes = (NODES_AT_MIN.ln() + t * (NODES_AT_MAX.ln() - NODES_AT_MIN.ln())).exp();
        let noise = NOISE_AT_MAX + (NOISE_AT_MIN - NOISE_AT_MAX) * (1.0 - t).powi(2);
        Handicap {
            nodes: nodes.round() as u64,
            lines: 4,
            noise: noise.round() as i32,
        }
    }

    /// Picks a move from `lines` (move, score) of the last finished iteration: the best score
    /// after each line gets its share of noise. Moves far behind the best are never chosen.
    pub fn choose(&self, lines: &[(Move, i32)], random: &mut Random) -> Option<Move> {
        let best = lines.iter().map(|&(_, s)| s).max()?;
        lines
            .iter()
            .filter(|&&(_, s)| best - s <= 2 * self.noise)
            .map(|&(mv, s)| (mv, s + random.below(self.noise.max(1) as u64) as i32))
            .max_by_key(|&(_, s)| s)
            .map(|(mv, _)| mv)
    }
}

const NODES_AT_MIN: f64 = 200.0;
const NODES_AT_MAX: f64 = 400_000.0;
const NOISE_AT_MIN: f64 = 300.0;
const NOISE_AT_MAX: f64 = 10.0;

/// A small xorshift generator, seeded from the clock: each game differs.
pub struct Random(u64);

impl Random {
    pub fn from_clock() -> Random {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Random::seeded(nanos)
    }

    pub fn seeded(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    #[test]
    fn weaker_settings_search_less_and_choose_more_freely() {
        let weak = Handicap::for_elo(ELO_MIN);
        let strong = Handicap::for_elo(ELO_MAX);
        assert!(weak.nodes < strong.nodes);
        assert!(weak.noise > strong.noise);
        assert_eq!(Handicap::for_elo(0), weak, "below the range is clamped");
    }

    #[test]
    fn never_picks_a_move_far_behind() {
        let good = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        let bad = Move::new(Square::G1, Square::H3, MoveKind::Quiet);
        let h = Handicap::for_elo(ELO_MIN);
        let mut random = Random::seeded(1);
        let lines = [(good, 50), (bad, 50 - 2 * h.noise - 1)];
        for _ in 0..1000 {
            assert_eq!(h.choose(&lines, &mut random), Some(good));
        }
        // Close moves are both played sometimes.
        let lines = [(good, 50), (bad, 40)];
        let picks: Vec<_> = (0..1000).map(|_| h.choose(&lines, &mut random)).collect();
        assert!(picks.contains(&Some(good)) && picks.contains(&Some(bad)));
    }
}
