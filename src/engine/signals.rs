//! The flags the front-end raises and the search polls, tied to job ids so that a `stop` or
//! `ponderhit` can never be lost between the front-end sending `go` and the search thread
//! arming the flags for it, nor apply to a later search.

use crate::search::SearchControl;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct Signals {
    pub control: SearchControl,
    /// The newest job id that `stop` was sent for.
    stopped_upto: AtomicU64,
    /// The newest job id that `ponderhit` was sent for.
    ponderhit_upto: AtomicU64,
}

impl Signals {
    /// Front-end: stop job `id` (and any older one).
    pub fn stop(&self, id: u64) {
        self.stopped_upto.fetch_max(id, Ordering::SeqCst);
        self.control.stop();
    }

    /// Front-end: the ponder move of job `id` was played.
    pub fn ponderhit(&self, id: u64) {
        self.ponderhit_upto.fetch_max(id, Ordering::SeqCst);
        self.control.ponderhit();
    }

    /// Search thread: arm the flags for job `id`, honouring a `stop`/`ponderhit` that came
    /// before the search started.
    pub fn start(&self, id: u64, pondering: bool) {
        self.control.start(pondering);
        if self.ponderhit_upto.load(Ordering::SeqCst) >= id {
            self.control.ponderhit();
        }
        if self.is_stopped(id) {
            self.control.stop();
        }
    }

    pub fn is_stopped(&self, id: u64) -> bool {
        self.stopped_upto.load(Ordering::SeqCst) >= id
    }

    pub fn is_ponderhit(&self, id: u64) -> bool {
        self.ponderhit_upto.load(Ordering::SeqCst) >= id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_sent_before_the_search_starts_is_kept() {
        let s = Signals::default();
        s.stop(3);
        s.start(3, false);
        assert!(s.control.is_stopped());
        s.start(4, true);
        assert!(!s.control.is_stopped() && s.control.is_pondering());
        s.ponderhit(4);
        assert!(!s.control.is_pondering());
    }
}
