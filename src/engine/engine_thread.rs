//! The engine thread, between the front-end and the search threads: owns the [`Searcher`]
//! (transposition table, histories), runs one job at a time from the command channel, and sends
//! `info` and `bestmove` to the writer.
//!
//! The search threads do the searching; this thread watches, relays the `info` lines,
//! answers `isready` at once, and sends `bestmove` as soon as the search may answer (after
//! `stop` without waiting for the helper threads). Commands that change the searcher wait
//! for the search to end, and `isready` when idle comes after them: `readyok` means ready.
//!
//! `go infinite` and `go ponder` searches may finish before the GUI says `stop` or
//! `ponderhit`; their `bestmove` is then held, waiting on the channel, until it does. Every
//! `bestmove` is checked against the legal moves before it leaves ([`Answer`]): a search bug
//! costs strength, never an illegal move, and a search that panics is replaced by a fresh one
//! with the same settings. Every step that could panic runs under `catch_unwind`, so each `go`
//! gets exactly one `bestmove` whatever fails (the panic hook of the binary prints the message
//! on stderr).

use super::answer::Answer;
use super::command::Command;
use super::fault::inject;
use super::job::SearchJob;
use crate::attacks::{Backend, SliderAttacks};
use crate::board::Board;
use crate::protocol::format::info_string;
use crate::protocol::{Event, Output};
use crate::search::{
    Heard, Report, Running, SearchConfig, SearchControl, SearchResult, Searcher, bench_suite,
};
use crate::with_backend;
use crossbeam_channel::{Receiver, RecvError, bounded, select};
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

pub struct EngineThread {
    searcher: Searcher,
    /// The settings the searcher was given, for its replacement after a panic.
    hash_mb: usize,
    threads: usize,
    tablebase_paths: String,
    commands: Receiver<Command>,
    output: Arc<Output>,
    control: Arc<SearchControl>,
    answer: Arc<Answer>,
    /// Commands that arrived while a search ran; run after it.
    deferred: VecDeque<Command>,
}

impl EngineThread {
    pub fn new(
        hash_mb: usize,
        threads: usize,
        commands: Receiver<Command>,
        output: Arc<Output>,
        control: Arc<SearchControl>,
        answer: Arc<Answer>,
    ) -> EngineThread {
        let mut thread = EngineThread {
            searcher: Searcher::new(hash_mb),
            hash_mb,
            threads: 1,
            tablebase_paths: String::new(),
            commands,
            output,
            control,
            answer,
            deferred: VecDeque::new(),
        };
        thread.set_threads(threads);
        thread
    }

    /// Runs jobs until `Quit` or until the front-end is gone.
    pub fn run(mut self) {
        loop {
            let command = match self.deferred.pop_front() {
                Some(command) => command,
                None => match self.commands.recv() {
                    Ok(command) => command,
                    Err(_) => return,
                },
            };
            match command {
                Command::Go(job) => {
                    if !self.go(&job) {
                        return;
                    }
                }
                Command::Perft {
                    board,
                    depth,
                    backend,
                    chess960,
                } => self.perft(&board, depth, backend, chess960),
                Command::Bench { depth, config } => self.bench(depth, &config),
                Command::Ready => self.send(Event::Line("readyok".into())),
                Command::SetHash(mb) => self.set_hash(mb),
                Command::SetThreads(count) => self.set_threads(count),
                Command::SetTablebases(paths) => self.set_tablebases(&paths),
                Command::Clear => self.guarded("clearing the hash", Searcher::clear),
                // Wake-ups for a search that already ended: nothing to do.
                Command::Stop | Command::PonderHit => {}
                Command::Quit => return,
            }
        }
    }

    fn send(&self, event: Event) {
        self.output.send(event);
    }

    fn send_info_string(&self, text: &str) {
        self.send(Event::Line(info_string(text)));
    }

    /// Runs `f` on the searcher; a panic is reported and the searcher rebuilt.
    fn guarded(&mut self, what: &str, f: impl FnOnce(&mut Searcher)) {
        if catch_unwind(AssertUnwindSafe(|| f(&mut self.searcher))).is_err() {
            self.recover(what);
        }
    }

    fn set_hash(&mut self, mb: usize) {
        let mut answer = Ok(());
        self.guarded("resizing the hash", |s| answer = s.set_hash(mb));
        match answer {
            Ok(()) => self.hash_mb = mb,
            Err(e) => {
                self.send_info_string(&format!("{e}; keeping {} MB", self.searcher.hash_mb()))
            }
        }
    }

    fn set_threads(&mut self, count: usize) {
        let mut answer = Ok(());
        self.guarded("starting the search threads", |s| {
            answer = s.set_threads(count);
        });
        match answer {
            Ok(()) => self.threads = count,
            Err(e) => self.send_info_string(&format!("{e}; keeping {}", self.searcher.threads())),
        }
    }

    /// (The front-end has already told the user what the path holds.)
    fn set_tablebases(&mut self, paths: &str) {
        let mut answer = Ok(());
        self.guarded("opening the tablebases", |s| {
            answer = s.set_tablebases(paths);
        });
        match answer {
            Ok(()) => self.tablebase_paths = paths.to_string(),
            Err(e) => {
                self.tablebase_paths.clear();
                self.send_info_string(&format!("{e}; playing without tablebases"));
            }
        }
    }

    /// Replaces the searcher after a panic by a fresh one with the same settings (its table
    /// and histories are emptied).
    fn recover(&mut self, what: &str) {
        log::error!("the search panicked while {what}; starting a fresh one");
        self.send_info_string(&format!(
            "internal error while {what}: the search was reset"
        ));
        // The old one goes first: its table's memory, and its tables (the prober holds one set
        // at a time).
        self.searcher = Searcher::new(1);
        let rebuilt = [
            self.searcher.set_threads(self.threads),
            self.searcher.set_hash(self.hash_mb),
            self.searcher.set_tablebases(&self.tablebase_paths),
        ];
        for e in rebuilt.into_iter().filter_map(Result::err) {
            log::error!("after the panic: {e}");
        }
    }

    /// One `go`. Returns false when `quit` came during it.
    fn go(&mut self, job: &Arc<SearchJob>) -> bool {
        self.control.start(job.id, job.limits.ponder);
        self.answer.open(job);
        let mut watch = Watch {
            commands: &self.commands,
            output: &self.output,
            control: &self.control,
            answer: &self.answer,
            deferred: &mut self.deferred,
            quit: false,
        };
        let searcher = &mut self.searcher;
        let control = &*self.control;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            inject("search");
            let (game, limits, config) = (&job.game, &job.limits, &job.config);
            searcher.search_with(game, limits, config, control, job.received, |running| {
                watch.watch(job, running)
            })
        }));
        let quit = watch.quit;
        if outcome.is_err() {
            self.recover("searching");
        }
        // (Nothing when the answer has gone.)
        let null = SearchResult::NONE;
        self.answer.finish(&self.output, null);
        !quit
    }

    fn perft(&mut self, board: &Board, depth: u32, backend: Backend, chess960: bool) {
        let start = Instant::now();
        let outcome = self.aside("perft", || {
            catch_unwind(|| {
                inject("perft");
                with_backend!(backend, A => {
                    crate::perft::divide::<A>(&board.with_occupancy::<<A as SliderAttacks>::Occ>(), depth)
                })
            })
        });
        // Perft shares nothing with the search: no reset needed.
        let Some(Ok(counts)) = outcome else {
            return self.send_info_string("internal error while counting perft");
        };
        let mut text = String::new();
        for (mv, count) in &counts {
            text.push_str(&format!("{}: {count}\n", mv.to_uci(chess960)));
        }
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        text.push_str(&format!("\nNodes searched: {total}"));
        log::info!(
            "perft {depth} ({backend}): {total} nodes in {} ms",
            start.elapsed().as_millis()
        );
        self.send(Event::Line(text));
    }

    fn bench(&mut self, depth: u32, config: &SearchConfig) {
        let outcome = self.aside("bench", || {
            catch_unwind(AssertUnwindSafe(|| bench_suite::run(depth, config)))
        });
        // Bench searches with searchers of its own: no reset needed.
        match outcome {
            Some(Ok(result)) => self.send(Event::Line(format!(
                "{} nodes {} nps",
                result.nodes,
                result.nps()
            ))),
            _ => self.send_info_string("internal error while running bench"),
        }
    }

    /// Runs `work` (which cannot be stopped: `go perft`, `bench`) on a thread of its own, and
    /// meanwhile answers `isready` at once, as during a search, keeping other commands for
    /// afterwards. `None` when no thread could be started.
    fn aside<T: Send>(&mut self, name: &str, work: impl FnOnce() -> T + Send) -> Option<T> {
        let (done_tx, done) = bounded(1);
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name(name.to_string())
                .spawn_scoped(scope, move || {
                    let _ = done_tx.send(work());
                });
            if let Err(e) = spawned {
                log::error!("cannot start a thread for {name}: {e}");
                return None;
            }
            let mut listening = true;
            loop {
                if !listening {
                    return done.recv().ok();
                }
                select! {
                    recv(done) -> result => return result.ok(),
                    recv(self.commands) -> command => match command {
                        Ok(Command::Ready) => self.send(Event::Line("readyok".into())),
                        // Nothing to stop.
                        Ok(Command::Stop | Command::PonderHit) => {}
                        Ok(other) => self.deferred.push_back(other),
                        // The front-end is gone: `run` ends after this.
                        Err(_) => listening = false,
                    },
                }
            }
        })
    }
}

/// The engine thread while a search runs: relays its `info` lines, answers `isready`,
/// sends `bestmove` as soon as the search may answer, and keeps other commands for later.
struct Watch<'a> {
    commands: &'a Receiver<Command>,
    output: &'a Output,
    control: &'a SearchControl,
    answer: &'a Answer,
    deferred: &'a mut VecDeque<Command>,
    quit: bool,
}

impl Watch<'_> {
    fn send(&self, event: Event) {
        self.output.send(event);
    }

    /// Until the search may answer: its main thread has ended, or it was stopped and has a
    /// move (the last finished iteration's: the threads need not be waited for; the front-end
    /// may have sent it already; the first iteration is never interrupted).
    fn watch(&mut self, job: &SearchJob, running: &mut Running) {
        let (output, answer, control) = (self.output, self.answer, self.control);
        let mut relay = |report: Report| match report {
            Report::Info(info) => answer.info(output, info),
            Report::Beat(beat) => answer.heartbeat(output, beat),
        };
        let stopped = || control.is_job_stopped(job.id);
        loop {
            let commands = (!self.quit).then_some(self.commands);
            match running.wait(commands, stopped, &mut relay) {
                Heard::Answerable => break,
                Heard::Other(command) => self.during_search(command),
            }
        }
        let result = running.finish(&mut relay);
        if !self.hold(job) {
            self.quit = true;
        }
        answer.finish(output, result);
    }

    fn during_search(&mut self, command: Result<Command, RecvError>) {
        match command {
            // The flags say whether it concerns this search.
            Ok(Command::Stop | Command::PonderHit) => {}
            Ok(Command::Ready) => self.send(Event::Line("readyok".into())),
            // The front-end has raised the stop flag already.
            Ok(Command::Quit) | Err(_) => self.quit = true,
            Ok(other) => self.deferred.push_back(other),
        }
    }

    /// Holds a finished `go infinite` / `go ponder` until `stop` (or `ponderhit`). Returns
    /// false on `quit`.
    fn hold(&mut self, job: &SearchJob) -> bool {
        let limits = &job.limits;
        loop {
            let waiting = limits.infinite || (limits.ponder && !self.control.is_ponderhit(job.id));
            if self.quit {
                return false;
            }
            if !waiting || self.control.is_job_stopped(job.id) {
                return true;
            }
            let command = self.commands.recv();
            self.during_search(command);
        }
    }
}
