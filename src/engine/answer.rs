//! The `bestmove` of the search in progress, kept where the front-end's own thread can send it
//! on `stop`: with more search threads than cores, handing `stop` on to another thread can wait
//! many time slices before that thread runs. Whoever sends it first sends it; `info` lines go
//! through here too, so none can follow the `bestmove`.

use super::search_thread::safe_answer;
use crate::game::Game;
use crate::protocol::{Event, Output};
use crate::search::{Heartbeat, Limits, SearchControl, SearchInfo, SearchResult};
use std::sync::{Mutex, MutexGuard, PoisonError};

#[derive(Default)]
pub struct Answer {
    slot: Mutex<Option<Pending>>,
}

/// The search job whose `bestmove` is due.
struct Pending {
    id: u64,
    game: Game,
    limits: Limits,
    show_ponder: bool,
    chess960: bool,
    /// The answer so far; `None` while only the search thread can decide (strength limit).
    best: Option<SearchResult>,
    sent: bool,
}

impl Pending {
    /// Sends `result`, made legal (or, should the check panic, the other generator's first
    /// legal move).
    fn send(&mut self, output: &Output, result: SearchResult) {
        let (best, ponder) = safe_answer(&self.game, &self.limits, result);
        output.send(Event::BestMove {
            best,
            ponder: ponder.filter(|_| self.show_ponder),
            chess960: self.chess960,
        });
        self.sent = true;
    }
}

impl Answer {
    /// Search thread: job `id` starts.
    pub fn open(&self, id: u64, game: &Game, limits: &Limits, show_ponder: bool, chess960: bool) {
        *self.lock() = Some(Pending {
            id,
            game: game.clone(),
            limits: limits.clone(),
            show_ponder,
            chess960,
            best: None,
            sent: false,
        });
    }

    /// Search thread: the answer so far (`None`: only the search thread decides).
    pub fn update(&self, best: Option<SearchResult>) {
        if let Some(pending) = self.lock().as_mut() {
            pending.best = best;
        }
    }

    /// Search thread: an `info` line, unless the `bestmove` has gone.
    pub fn info(&self, output: &Output, info: &SearchInfo) {
        let slot = self.lock();
        if let Some(pending) = slot.as_ref().filter(|p| !p.sent) {
            output.send(Event::Info {
                info: Box::new(info.clone()),
                chess960: pending.chess960,
            });
        }
    }

    /// Search thread: a long search's line between iterations, unless the `bestmove` has gone.
    pub fn heartbeat(&self, output: &Output, beat: &Heartbeat) {
        let slot = self.lock();
        if let Some(pending) = slot.as_ref().filter(|p| !p.sent) {
            output.send(Event::Heartbeat {
                beat: *beat,
                chess960: pending.chess960,
            });
        }
    }

    /// Search thread: the final answer, unless the `bestmove` has gone.
    pub fn finish(&self, output: &Output, result: SearchResult) {
        if let Some(pending) = self.lock().as_mut().filter(|p| !p.sent) {
            pending.send(output, result);
        }
    }

    /// Front-end, on `stop` of job `id`: sends the answer so far when that job is the one
    /// running and has one (published by the search in `control`, or taken by the search
    /// thread). Otherwise the search thread answers.
    pub fn stop(&self, output: &Output, id: u64, control: &SearchControl) {
        if let Some(pending) = self.lock().as_mut().filter(|p| p.id == id && !p.sent)
            // Read under the lock, after `open`: the search thread armed `control` for this
            // job before opening it, so the answer is not the previous job's.
            && let Some(best) = control.answer().or(pending.best)
        {
            pending.send(output, best);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Pending>> {
        // A panic while holding the lock leaves a slot that is still consistent.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
