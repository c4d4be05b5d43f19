//! Time management: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the search), from the clock, increment, moves to go and the move overhead.

use super::Limits;
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
        // Keep the overhead (and a little more for very short clocks) in reserve.
        let available = time.saturating_sub(overhead).max(1);
        let moves_left = limits.movestogo.map_or(30, |m| m.clamp(1, 50) as u64);
        // Once the clock is low, spend less than the increment, so the clock settles well above
        // the overhead instead of draining to where any lag flags.
        let inc_share = if available > 10 * inc {
            inc * 3 / 4
        } else {
            inc / 2
        };
        let soft = (available / moves_left + inc_share).min(available / 2);
        let hard = if limits.movestogo == Some(1) {
            available * 9 / 10
        } else {
            // A search that often runs to the hard limit must not drain the clock either.
            (soft * 4)
                .min(available * 4 / 10)
                .min(available / 10 + inc / 2)
                .max(soft)
        };
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard.max(1))),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the soft limit: do not start another iteration.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|soft| self.elapsed() >= soft)
    }

    /// Past the hard limit: stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Scales the soft limit (more time when the best move is unstable, less when clear).
    pub fn soft_limit(&self) -> Option<Duration> {
        self.soft
    }
}
