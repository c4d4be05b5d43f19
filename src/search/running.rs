//! A search in progress as the thread that started it sees it: the main search thread's
//! reports, the answer (kept in the job's [`SearchControl`](super::SearchControl), the one
//! place the front-end reads it from too), and the heartbeat lines of a long search.

use super::node::{RootMove, Shared};
use super::strength::Handicap;
use super::{Heartbeat, SearchInfo, SearchResult};
use crate::types::{Move, Rng};
use crossbeam_channel::{Receiver, RecvError, select};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A search this long says nothing between iterations (fast games stay quiet)...
const QUIET: Duration = Duration::from_secs(3);
/// ...after that, the counters at least this often, and each new root move when it starts
/// (looked for this often).
const COUNTERS_EVERY: Duration = Duration::from_secs(1);
const CURRMOVE_EVERY: Duration = Duration::from_millis(200);

/// What the main search thread reports to the thread watching the search.
#[derive(Debug)]
pub struct Progress(pub(super) Message);

#[derive(Debug)]
pub(super) enum Message {
    Info(Box<SearchInfo>),
    /// The main thread has ended with this answer (published in the control already, unless a
    /// strength limit is to choose).
    Done(SearchResult),
}

/// What the thread watching a search hears from [`Running::wait`].
pub enum Heard<T> {
    /// The search may answer now: [`Running::finish`].
    Answerable,
    /// A message on the watching thread's own channel.
    Other(Result<T, RecvError>),
}

/// A line the search owes the GUI: an iteration's, or a long search's between iterations.
pub enum Report<'r> {
    Info(&'r SearchInfo),
    Beat(&'r Heartbeat),
}

/// A search in progress, as the thread that started it sees it. Its interface is two calls:
/// [`Running::wait`] until the search may answer, then [`Running::finish`].
pub struct Running<'a> {
    progress: Receiver<Progress>,
    shared: &'a Shared<'a>,
    /// The main thread's final answer, which a strength limit falls back on.
    last: SearchResult,
    /// The main thread has ended.
    ended: bool,
    handicap: Option<Handicap>,
    /// MultiPV lines asked for (a strength limit searches more).
    shown: usize,
    /// The newest report of each line (with a strength limit).
    lines: Vec<Option<SearchInfo>>,
    random: &'a mut Rng,
    /// When the last line was shown (an iteration's or a heartbeat's).
    last_line: Instant,
    /// The root move last announced, packed.
    announced: u64,
}

impl<'a> Running<'a> {
    pub(super) fn new(
        progress: Receiver<Progress>,
        shared: &'a Shared<'a>,
        handicap: Option<Handicap>,
        shown: usize,
        random: &'a mut Rng,
    ) -> Running<'a> {
        Running {
            progress,
            shared,
            last: SearchResult::NONE,
            ended: false,
            handicap,
            shown,
            lines: Vec::new(),
            random,
            last_line: Instant::now(),
            announced: 0,
        }
    }

    /// Waits until the search may answer or a message arrives on `other`, passing the lines
    /// the GUI is owed to `report` meanwhile. The search may answer once its main thread has
    /// ended, or once `stopped()` and there is a move (the last finished iteration's: the
    /// helpers need not be waited for). Without `other` (quitting), waits for the search only.
    pub fn wait<T>(
        &mut self,
        other: Option<&Receiver<T>>,
        stopped: impl Fn() -> bool,
        report: &mut dyn FnMut(Report),
    ) -> Heard<T> {
        loop {
            if self.ended || (stopped() && self.has_move()) {
                return Heard::Answerable;
            }
            let Some(other) = other else {
                let next = self.progress.recv();
                self.take(next, &mut |info| report(Report::Info(info)));
                continue;
            };
            select! {
                recv(self.progress) -> next => {
                    self.take(next, &mut |info| report(Report::Info(info)));
                }
                recv(other) -> message => return Heard::Other(message),
                default(self.next_heartbeat()) => {
                    self.heartbeat(&mut |beat| report(Report::Beat(beat)));
                }
            }
        }
    }

    /// The answer, possible at any time (see [`Running::answer`]); the search's remaining
    /// threads then end as at a limit.
    pub fn finish(&mut self, report: &mut dyn FnMut(Report)) -> SearchResult {
        let result = self.answer(&mut |info| report(Report::Info(info)));
        self.abort();
        result
    }

    /// The main thread's reports; pass each to [`Running::take`].
    pub(super) fn progress(&self) -> &Receiver<Progress> {
        &self.progress
    }

    /// Takes one report, passing the `info` lines to show to `on_info`; true once the main
    /// thread has ended (its final answer taken, or gone without one).
    pub(super) fn take(
        &mut self,
        report: Result<Progress, RecvError>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> bool {
        match report {
            Ok(Progress(Message::Info(info))) => {
                if self.handicap.is_some() {
                    let index = info.multipv - 1;
                    if self.lines.len() <= index {
                        self.lines.resize(index + 1, None);
                    }
                    self.lines[index] = Some((*info).clone());
                }
                if info.multipv <= self.shown {
                    on_info(&info);
                    self.last_line = Instant::now();
                }
            }
            Ok(Progress(Message::Done(result))) => {
                self.last = result;
                self.ended = true;
            }
            Err(RecvError) => self.ended = true,
        }
        self.ended
    }

    /// There is a move to answer with (from an iteration, or the table's); never with a
    /// strength limit before it has chosen.
    fn has_move(&self) -> bool {
        self.shared.control.answer().is_some()
    }

    /// Ends the search now (the helpers too), as at a limit.
    fn abort(&self) {
        self.shared.abort.store(true, Ordering::Relaxed);
    }

    /// The answer, possible at any time: the best move so far (`Move::NULL` when there is
    /// none); with a strength limit, chosen among the best lines (and published in the
    /// control), and the line of the move played shown last.
    pub(super) fn answer(&mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let Some(chosen) = self.choose(on_info) else {
            return self.shared.control.answer().unwrap_or(SearchResult::NONE);
        };
        if !chosen.best.is_null() {
            self.shared.control.publish(chosen);
        }
        chosen
    }

    /// A strength limit's choice among the lines (the main thread's answer when it has none);
    /// `None` without a strength limit.
    fn choose(&mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> Option<SearchResult> {
        let handicap = self.handicap.as_ref()?;
        let result = self.last;
        let candidates: Vec<(Move, i32)> = self
            .lines
            .iter()
            .flatten()
            .filter_map(|info| info.pv.first().map(|&mv| (mv, info.score.to_internal())))
            .collect();
        let Some(chosen) = handicap.choose(&candidates, self.random) else {
            return Some(result);
        };
        let Some(line) = self
            .lines
            .iter()
            .flatten()
            .find(|info| info.pv.first() == Some(&chosen))
        else {
            return Some(result);
        };
        if chosen != result.best {
            // The last line shown is the move played, as GUIs expect.
            on_info(&SearchInfo {
                multipv: 1,
                ..line.clone()
            });
        }
        Some(SearchResult {
            best: chosen,
            ponder: line.pv.get(1).copied(),
        })
    }

    /// How long the engine thread may wait for a report before [`Running::heartbeat`] is due.
    fn next_heartbeat(&self) -> Duration {
        let elapsed = self.shared.time.elapsed();
        if elapsed < QUIET {
            QUIET - elapsed
        } else {
            CURRMOVE_EVERY
        }
    }

    /// The lines a long search owes a GUI between iterations: the root move the main thread
    /// has started on, when new, and the counters when nothing was shown for a second. None
    /// in the first seconds, nor with a strength limit (whose lines are its choices).
    fn heartbeat(&mut self, on_beat: &mut dyn FnMut(&Heartbeat)) {
        let shared = self.shared;
        let elapsed = shared.time.elapsed();
        if elapsed < QUIET || self.handicap.is_some() || self.ended {
            return;
        }
        let packed = shared.root_move.load(Ordering::Relaxed);
        let Some(root) = RootMove::unpack(packed) else {
            return;
        };
        if packed != self.announced {
            self.announced = packed;
            on_beat(&Heartbeat::CurrMove {
                depth: root.depth,
                mv: root.mv,
                number: root.number,
            });
        }
        if self.last_line.elapsed() >= COUNTERS_EVERY {
            let nodes = shared.total_nodes();
            let time_ms = elapsed.as_millis() as u64;
            on_beat(&Heartbeat::Counters {
                depth: root.depth,
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                hashfull: shared.tt.hashfull(),
                tbhits: shared.tbhits.load(Ordering::Relaxed),
                time_ms,
            });
            self.last_line = Instant::now();
        }
    }
}
