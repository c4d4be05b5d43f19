use super::SearchResult;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Flags the front-end sets and the search polls: `stop` (also `quit`) and `ponderhit`; and
/// the other way, the answer so far, which the front-end can send on `stop` without waiting
/// for any search thread to be scheduled (with many more threads than cores, that can take
/// seconds).
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// The best move (low 16 bits) and the ponder move (high 16 bits); zero: none yet.
    answer: AtomicU32,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Arms the flags for a new search (`pondering` for `go ponder`).
    pub fn start(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.answer.store(0, Ordering::SeqCst);
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

    /// Ends the search as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the search now runs on the clock.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}
