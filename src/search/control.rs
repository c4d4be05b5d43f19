//! The signals between the front-end and a search, by job id: `stop` (also `quit`) and
//! `ponderhit` one way, the answer so far the other. A signal names its job, so one sent
//! between the front-end's `go` and the engine thread arming the job is not lost, and one for
//! an earlier job never reaches a later one.

use super::SearchResult;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

#[derive(Debug)]
pub struct SearchControl {
    /// The job being searched (or last searched).
    job: AtomicU64,
    /// Every job up to this one is to stop.
    stopped_upto: AtomicU64,
    /// Every job up to this one has had its ponder move played.
    ponderhit_upto: AtomicU64,
    /// The current job began as `go ponder`.
    ponder: AtomicBool,
    /// The best move (low 16 bits) and the ponder move (high 16 bits); zero: none yet. The
    /// front-end can send it on `stop` without waiting for any search thread to be scheduled
    /// (with many more threads than cores, that can take seconds).
    answer: AtomicU32,
}

impl Default for SearchControl {
    fn default() -> SearchControl {
        SearchControl::new()
    }
}

impl SearchControl {
    /// Unstopped, for job 1 (job ids start at 1; a `stop` of job 0 stops nothing).
    pub fn new() -> SearchControl {
        SearchControl {
            job: AtomicU64::new(1),
            stopped_upto: AtomicU64::new(0),
            ponderhit_upto: AtomicU64::new(0),
            ponder: AtomicBool::new(false),
            answer: AtomicU32::new(0),
        }
    }

    /// Engine thread: arms the signals for job `id` (`pondering` for `go ponder`); a `stop` or
    /// `ponderhit` sent for it already counts.
    pub fn start(&self, id: u64, pondering: bool) {
        self.ponder.store(pondering, Ordering::SeqCst);
        self.answer.store(0, Ordering::SeqCst);
        self.job.store(id, Ordering::SeqCst);
    }

    /// A search of its own (bench, datagen, the command line): the job after the last one.
    pub fn start_next(&self, pondering: bool) {
        self.start(self.job.load(Ordering::SeqCst) + 1, pondering);
    }

    /// The search: `result` is the answer if it were stopped now.
    pub fn publish(&self, result: SearchResult) {
        let ponder = result.ponder.unwrap_or(Move::NULL);
        let packed = u32::from(result.best.raw()) | u32::from(ponder.raw()) << 16;
        self.answer.store(packed, Ordering::SeqCst);
    }

    /// The answer published since [`SearchControl::start`], if any.
    pub fn answer(&self) -> Option<SearchResult> {
        let packed = self.answer.load(Ordering::SeqCst);
        let best = Move::from_raw(packed as u16).filter(|m| !m.is_null())?;
        let ponder = Move::from_raw((packed >> 16) as u16).filter(|m| !m.is_null());
        Some(SearchResult { best, ponder })
    }

    /// Front-end: job `id` (and every earlier one) ends as soon as possible.
    pub fn stop(&self, id: u64) {
        self.stopped_upto.fetch_max(id, Ordering::SeqCst);
    }

    /// Whether job `id` was told to stop.
    pub fn is_job_stopped(&self, id: u64) -> bool {
        self.stopped_upto.load(Ordering::SeqCst) >= id
    }

    /// Whether the current job was told to stop (polled by the search).
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped_upto.load(Ordering::Relaxed) >= self.job.load(Ordering::Relaxed)
    }

    /// Front-end: the ponder move of job `id` was played; its search now runs on the clock.
    pub fn ponderhit(&self, id: u64) {
        self.ponderhit_upto.fetch_max(id, Ordering::SeqCst);
    }

    /// Whether job `id` had its ponder move played.
    pub fn is_ponderhit(&self, id: u64) -> bool {
        self.ponderhit_upto.load(Ordering::SeqCst) >= id
    }

    /// Whether the current job is a ponder search still waiting for its move.
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
            && self.ponderhit_upto.load(Ordering::Relaxed) < self.job.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_sent_before_its_search_starts_is_kept_and_never_reaches_a_later_one() {
        let c = SearchControl::new();
        // A search that never armed a job runs until told.
        c.stop(0);
        assert!(!c.is_stopped() && !c.is_pondering());
        c.stop(3);
        c.ponderhit(3);
        c.start(3, true);
        assert!(c.is_stopped() && !c.is_pondering());
        c.start(4, true);
        assert!(!c.is_stopped() && c.is_pondering());
        assert!(c.is_job_stopped(3) && !c.is_job_stopped(4));
        c.ponderhit(4);
        assert!(!c.is_pondering() && c.is_ponderhit(4));
        c.stop(4);
        assert!(c.is_stopped());
        c.start_next(false);
        assert!(!c.is_stopped() && !c.is_pondering());
    }

    #[test]
    fn the_answer_is_forgotten_when_a_job_starts() {
        let c = SearchControl::new();
        c.start(1, false);
        assert_eq!(c.answer(), None);
        let e2e4 = Move::from_raw(0x0C1C).unwrap();
        c.publish(SearchResult {
            best: e2e4,
            ponder: None,
        });
        assert_eq!(c.answer().map(|r| r.best), Some(e2e4));
        c.start(2, false);
        assert_eq!(c.answer(), None);
    }
}
