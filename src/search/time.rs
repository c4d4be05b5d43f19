//! Time management: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the search), from the clock, increment, moves to go and the move overhead.

use super::Limits;
use super::params::{
    TM_CHANGE_BASE, TM_CHANGE_MAX, TM_CHANGE_STEP, TM_DROP_MAX, TM_DROP_MIN, TM_DROP_PER_CP,
    TM_SCALE_MAX, TM_SHARE_BASE, TM_SHARE_MIN, TM_SHARE_SCALE,
};
use crate::types::Color;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, us: Color, move_overhead_ms: u64, start: Instant) -> TimeManager {
        let overhead = move_overhead_ms;
        if let Some(movetime) = limits.movetime {
            let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or(0);
        // Keep the overhead in reserve.
        let available = time.saturating_sub(overhead).max(1);
        let moves_left = limits.movestogo.map_or(30, |m| m.clamp(1, 50) as u64);
        let soft = (available / moves_left + inc * 3 / 4).min(available / 2);
        let hard = if limits.movestogo == Some(1) {
            available * 9 / 10
        } else {
            (soft * 4).min(available * 4 / 10)
        };
        // Whatever the search does, leave a floor on the clock: three overheads and five
        // increments (at most half the clock). At increment controls the clock then settles
        // above the floor, spending less than the increment, instead of draining to where any
        // lag flags.
        let floor = overhead
            .saturating_mul(3)
            .saturating_add(inc.saturating_mul(5).min(time / 2));
        let cap = time.saturating_sub(overhead.saturating_add(floor)).max(1);
        let (soft, hard) = if limits.movestogo == Some(1) {
            (soft, hard)
        } else {
            (soft.min(cap), hard.min(cap))
        };
        let soft = soft.min(hard);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard.max(1))),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard limit: stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// The soft limit: no new iteration after it (the caller scales it by [`Effort`]).
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }
}

/// What the last iterations say about how hard the move is.
pub struct Effort {
    /// Best-move changes, recent ones counting more.
    pub best_changes: u32,
    /// The share of the main thread's nodes spent below the best move.
    pub best_move_share: f64,
    /// How far the score fell in the last iteration (negative: it rose).
    pub score_drop: i32,
}

impl Effort {
    /// The factor applied to the soft limit: more time when the best move is unstable, has
    /// taken few of the nodes, or its score fell; less when all three say the move is clear.
    pub fn time_scale(&self) -> f64 {
        let hundredths = |p: i32| p as f64 / 100.0;
        let changes = hundredths(
            TM_CHANGE_BASE.get() + TM_CHANGE_STEP.get() * self.best_changes.min(5) as i32,
        )
        .min(hundredths(TM_CHANGE_MAX.get()));
        let share = ((hundredths(TM_SHARE_BASE.get()) - self.best_move_share)
            * hundredths(TM_SHARE_SCALE.get()))
        .max(hundredths(TM_SHARE_MIN.get()));
        let drop = (1.0 + self.score_drop as f64 * hundredths(TM_DROP_PER_CP.get()) / 100.0)
            .clamp(hundredths(TM_DROP_MIN.get()), hundredths(TM_DROP_MAX.get()));
        (changes * share * drop).min(hundredths(TM_SCALE_MAX.get()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, inc: u64) -> Limits {
        Limits {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            ..Limits::default()
        }
    }

    fn hard_ms(limits: &Limits, overhead: u64) -> u64 {
        let tm = TimeManager::new(limits, Color::White, overhead, Instant::now());
        let hard = tm.hard.unwrap().as_millis() as u64;
        assert!(tm.soft.unwrap().as_millis() as u64 <= hard.max(1));
        hard
    }

    #[test]
    fn the_clock_settles_above_a_floor_at_increment_controls() {
        // 1+0.01, always spending the hard limit plus 3 ms of lag: the clock never gets low.
        let mut clock: i64 = 1000;
        let mut lowest = clock;
        for _ in 0..300 {
            let spent = hard_ms(&limits(clock as u64, 10), 10) as i64 + 3;
            clock -= spent;
            lowest = lowest.min(clock);
            clock += 10;
        }
        assert!(lowest >= 60, "the clock fell to {lowest} ms");
    }

    #[test]
    fn large_increments_are_still_used() {
        // 2 s + 2 s: most of the clock may go into one move.
        assert!(hard_ms(&limits(2000, 2000), 10) >= 700);
        // Sudden death keeps spending a share of what is left.
        assert!(hard_ms(&limits(60_000, 0), 10) >= 2000);
    }

    #[test]
    fn movetime_and_moves_to_go() {
        assert_eq!(hard_ms(&Limits::movetime(500), 10), 490);
        let last_move = Limits {
            movestogo: Some(1),
            ..limits(1000, 0)
        };
        assert_eq!(hard_ms(&last_move, 10), 891);
    }

    fn scale(best_changes: u32, best_move_share: f64, score_drop: i32) -> f64 {
        Effort {
            best_changes,
            best_move_share,
            score_drop,
        }
        .time_scale()
    }

    #[test]
    fn a_clear_move_stops_early_and_a_hard_one_takes_longer() {
        let clear = scale(0, 0.95, 0);
        assert!((0.4..0.7).contains(&clear), "clear move: {clear}");
        // Each sign of difficulty alone earns more time than the clear move gets.
        assert!(scale(2, 0.95, 0) > clear);
        assert!(scale(0, 0.4, 0) > clear);
        assert!(scale(0, 0.95, 30) > clear);
        // A rising score saves a little time, within limits.
        assert!(scale(0, 0.95, -30) < clear);
        assert!(scale(0, 0.95, -10_000) >= clear * 0.8);
    }

    #[test]
    fn the_scale_is_capped() {
        // Everything at its worst, a mate score lost included: at most 2.5 soft limits.
        let worst = scale(100, 0.0, 60_000);
        assert!((worst - 2.5).abs() < 1e-9, "worst: {worst}");
    }
}
