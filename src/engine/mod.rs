//! The engine behind the front-end: an engine thread fed by a [`Command`] channel; both write
//! their [`Event`]s through the one [`Output`].
//!
//! ```text
//! front-end ──Command──▶ engine thread ──▶ search threads (pool)
//!     │                        │
//!     └──────Event──▶ Output ◀─┘──▶ stdout
//! ```
//!
//! The front-end never waits for the search: `stop` and `ponderhit` raise the job's signals in
//! the [`SearchControl`] the search polls, and send a wake-up through the channel to the engine thread, which answers
//! at once. `isready` goes through the same channel, so `readyok` follows every earlier
//! command (a resized or cleared table, new search threads, opened tablebases).

mod answer;
mod command;
mod engine_thread;
mod fault;
mod job;

pub use command::Command;
pub use job::SearchJob;

use crate::attacks::Backend;
use crate::board::Board;
use crate::game::Game;
use crate::protocol::{Event, Output, Transcript};
use crate::search::{Limits, SearchConfig, SearchControl, slices};
use answer::Answer;
use crossbeam_channel::{Receiver, Sender, unbounded};
use engine_thread::EngineThread;
use std::io::Write;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long `quit` waits for the engine thread (a `go perft` cannot be interrupted).
const QUIT_WAIT: Duration = Duration::from_millis(500);

pub struct Engine {
    commands: Sender<Command>,
    output: Arc<Output>,
    control: Arc<SearchControl>,
    answer: Arc<Answer>,
    /// The newest job sent; `stop` and `ponderhit` refer to it.
    job: u64,
    engine_thread: Option<JoinHandle<()>>,
    /// Disconnected when the engine thread has ended.
    search_done: Receiver<()>,
}

impl Engine {
    /// Starts the engine thread (with a `hash_mb` table and `threads` search threads), writing
    /// to `out`.
    pub fn start(hash_mb: usize, threads: usize, out: Box<dyn Write + Send>) -> Engine {
        // The caller is the front-end's thread.
        slices::prefer_short();
        let (commands, command_rx) = unbounded();
        let (done_tx, search_done) = unbounded::<()>();
        let control = Arc::new(SearchControl::new());
        let output = Arc::new(Output::new(out));
        let thread_output = Arc::clone(&output);
        let thread_control = Arc::clone(&control);
        let answer = Arc::new(Answer::default());
        let thread_answer = Arc::clone(&answer);
        let engine_thread = thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                let _done = done_tx;
                slices::prefer_short();
                EngineThread::new(
                    hash_mb,
                    threads,
                    command_rx,
                    thread_output,
                    thread_control,
                    thread_answer,
                )
                .run();
            })
            .expect("cannot start the engine thread");
        Engine {
            commands,
            output,
            control,
            answer,
            job: 0,
            engine_thread: Some(engine_thread),
            search_done,
        }
    }

    pub fn transcript(&self) -> &Transcript {
        self.output.transcript()
    }

    /// Sends a protocol line (or several) to stdout, in order with the search's output.
    pub fn send_line(&self, text: impl Into<String>) {
        self.output.send(Event::Line(text.into()));
    }

    fn command(&self, command: Command) {
        if self.commands.send(command).is_err() {
            log::error!("the engine thread is gone");
        }
    }

    fn next_job(&mut self) -> u64 {
        // A job still running (a protocol slip: `go` without `stop`) ends first.
        self.stop();
        self.job += 1;
        self.job
    }

    /// Starts a search whose clock started at `received` (when the GUI sent `go`); its `info`
    /// and `bestmove` go to stdout.
    pub fn go(
        &mut self,
        game: Game,
        limits: Limits,
        config: SearchConfig,
        show_ponder: bool,
        received: Instant,
    ) {
        let id = self.next_job();
        self.command(Command::Go(Arc::new(SearchJob {
            id,
            game,
            limits,
            config,
            show_ponder,
            received,
        })));
    }

    pub fn perft(&mut self, board: Board, depth: u32, backend: Backend, chess960: bool) {
        self.next_job();
        self.command(Command::Perft {
            board: Box::new(board),
            depth,
            backend,
            chess960,
        });
    }

    pub fn bench(&mut self, depth: u32, config: SearchConfig) {
        self.next_job();
        self.command(Command::Bench { depth, config });
    }

    /// `stop`: the current search ends within milliseconds; its `bestmove` goes at once (from
    /// this thread when the search has an answer ready).
    pub fn stop(&self) {
        self.control.stop(self.job);
        self.answer.stop(&self.output, self.job, &self.control);
        self.command(Command::Stop);
    }

    /// `ponderhit`: the current ponder search now runs on its clock.
    pub fn ponderhit(&self) {
        self.control.ponderhit(self.job);
        self.command(Command::PonderHit);
    }

    /// `isready`: `readyok` comes once every earlier command has taken effect.
    pub fn ready(&self) {
        self.command(Command::Ready);
    }

    pub fn set_threads(&self, count: usize) {
        self.command(Command::SetThreads(count));
    }

    pub fn set_hash(&self, mb: usize) {
        self.command(Command::SetHash(mb));
    }

    pub fn set_tablebases(&self, paths: String) {
        self.command(Command::SetTablebases(paths));
    }

    pub fn clear(&self) {
        self.command(Command::Clear);
    }

    /// Stops everything and waits (briefly) for the engine thread's last words.
    pub fn quit(mut self) {
        self.control.stop(u64::MAX);
        self.command(Command::Quit);
        let finished = matches!(
            self.search_done.recv_timeout(QUIT_WAIT),
            Err(crossbeam_channel::RecvTimeoutError::Disconnected)
        );
        if !finished {
            log::warn!("the engine thread did not finish in time; exiting anyway");
            return;
        }
        if let Some(handle) = self.engine_thread.take() {
            let _ = handle.join();
        }
    }
}
