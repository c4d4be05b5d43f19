//! `UCI_LimitStrength`: a weaker player made of a small search (few nodes) and a deliberate
//! choice among the best few moves, weighted by how much worse each one scored.
//!
//! The mapping from `UCI_Elo` to nodes and noise comes from matches against Stockfish's own
//! strength limit (the tables in docs/strength.md); the bounds are the range those matches cover.

use crate::types::{Move, Rng};

/// Measured strength of the handicap levels: (level, Elo on the scale of Stockfish 15.1's own
/// `UCI_Elo`, at 5+0.05), from `scripts/calibrate-strength` (games and error bars in
/// docs/strength.md). Level 1 is no handicap at all.
const CALIBRATION: [(f64, f64); 6] = [
    (0.0, 1012.0),
    (2.0 / 9.0, 1292.0),
    (4.0 / 9.0, 1572.0),
    (6.0 / 9.0, 1841.0),
    (8.0 / 9.0, 2262.0),
    (1.0, 2635.0),
];

pub const ELO_MIN: u32 = CALIBRATION[0].1 as u32;
pub const ELO_MAX: u32 = CALIBRATION[CALIBRATION.len() - 1].1 as u32;

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
    /// The handicap that plays at about `elo`; none at the top of the range.
    pub fn for_elo(elo: u32) -> Option<Handicap> {
        let level = level_for_elo(f64::from(elo.clamp(ELO_MIN, ELO_MAX)));
        (level < 1.0).then(|| Handicap::at_level(level))
    }

    /// Level 0 is the weakest; towards 1 the search gets more nodes and less noise.
    pub fn at_level(level: f64) -> Handicap {
        let t = level.clamp(0.0, 1.0);
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
    pub fn choose(&self, lines: &[(Move, i32)], random: &mut Rng) -> Option<Move> {
        let best = lines.iter().map(|&(_, s)| s).max()?;
        lines
            .iter()
            .filter(|&&(_, s)| best - s <= 2 * self.noise)
            .map(|&(mv, s)| (mv, s + random.below(self.noise.max(1) as usize) as i32))
            .max_by_key(|&(_, s)| s)
            .map(|(mv, _)| mv)
    }
}

/// The level measured to play at `elo`, interpolated between the calibration points.
fn level_for_elo(elo: f64) -> f64 {
    for pair in CALIBRATION.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * ((elo - e0) / (e1 - e0)).clamp(0.0, 1.0);
        }
    }
    1.0
}

const NODES_AT_MIN: f64 = 200.0;
const NODES_AT_MAX: f64 = 400_000.0;
const NOISE_AT_MIN: f64 = 300.0;
const NOISE_AT_MAX: f64 = 10.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    #[test]
    fn weaker_settings_search_less_and_choose_more_freely() {
        let weak = Handicap::for_elo(ELO_MIN).unwrap();
        let strong = Handicap::for_elo(ELO_MAX - 1).unwrap();
        assert!(weak.nodes < strong.nodes);
        assert!(weak.noise > strong.noise);
        assert_eq!(
            Handicap::for_elo(0),
            Some(weak),
            "below the range is clamped"
        );
        assert_eq!(Handicap::for_elo(ELO_MAX), None, "the top is full strength");
    }

    #[test]
    fn calibration_points_map_back_to_their_levels() {
        for (level, elo) in CALIBRATION {
            assert!((level_for_elo(elo) - level).abs() < 1e-9);
        }
        assert!(level_for_elo(1400.0) > level_for_elo(1300.0));
    }

    #[test]
    fn never_picks_a_move_far_behind() {
        let good = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        let bad = Move::new(Square::G1, Square::H3, MoveKind::Quiet);
        let h = Handicap::for_elo(ELO_MIN).unwrap();
        let mut random = Rng::new(1);
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
