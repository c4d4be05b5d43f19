//! The engine behind the front-end: a search thread fed by a [`Command`] channel, and one
//! stdout writer fed by an [`Event`] channel.
//!
//! ```text
//! front-end ──Command──▶ search thread ──Event──▶ writer ──▶ stdout
//!     └──────────────────────Event───────────────────┘
//! ```
//!
//! The front-end never waits for the search: `stop` and `ponderhit` raise [`Signals`] flags the
//! search polls, and send a wake-up through the channel for a search already finished and
//! holding its `bestmove`.

mod command;
mod event;
mod fault;
mod search_thread;
mod signals;
mod transcript;
mod writer;

pub use command::Command;
pub use event::Event;
pub use signals::Signals;
pub use transcript::Transcript;

use crate::attacks::Backend;
use crate::board::{Board, Game};
use crate::search::{Limits, SearchConfig};
use crossbeam_channel::{Receiver, Sender, unbounded};
use search_thread::SearchThread;
use std::io::Write;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// How long `quit` waits for the search thread (a `go perft` cannot be interrupted).
const QUIT_WAIT: Duration = Duration::from_millis(500);

pub struct Engine {
    commands: Sender<Command>,
    events: Sender<Event>,
    signals: Arc<Signals>,
    transcript: Arc<Transcript>,
    /// The newest job sent; `stop` and `ponderhit` refer to it.
    job: u64,
    search_thread: Option<JoinHandle<()>>,
    /// Disconnected when the search thread has ended.
    search_done: Receiver<()>,
    writer: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the search thread (with a `hash_mb` table) and the writer of `out`.
    pub fn start(hash_mb: usize, out: Box<dyn Write + Send>) -> Engine {
        let (commands, command_rx) = unbounded();
        let (events, event_rx) = unbounded();
        let (done_tx, search_done) = unbounded::<()>();
        let signals = Arc::new(Signals::default());
        let transcript = Arc::new(Transcript::default());
        let search = SearchThread::new(hash_mb, command_rx, events.clone(), Arc::clone(&signals));
        let search_thread = thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let _done = done_tx;
                search.run();
            })
            .expect("cannot start the search thread");
        let writer_transcript = Arc::clone(&transcript);
        let writer = thread::Builder::new()
            .name("stdout".into())
            .spawn(move || writer::run(event_rx, out, writer_transcript))
            .expect("cannot start the stdout writer thread");
        Engine {
            commands,
            events,
            signals,
            transcript,
            job: 0,
            search_thread: Some(search_thread),
            search_done,
            writer: Some(writer),
        }
    }

    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Sends a protocol line (or several) to stdout, in order with the search's output.
    pub fn say(&self, text: impl Into<String>) {
        let _ = self.events.send(Event::Line(text.into()));
    }

    fn command(&self, command: Command) {
        if self.commands.send(command).is_err() {
            log::error!("the search thread is gone");
        }
    }

    fn next_job(&mut self) -> u64 {
        // A job still running (a protocol slip: `go` without `stop`) ends first.
        self.stop();
        self.job += 1;
        self.job
    }

    /// Starts a search; its `info` and `bestmove` go to stdout.
    pub fn go(&mut self, game: Game, limits: Limits, config: SearchConfig, show_ponder: bool) {
        let id = self.next_job();
        self.command(Command::Go {
            id,
            game: Box::new(game),
            limits,
            config,
            show_ponder,
        });
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

    /// `stop`: the current search ends within milliseconds and sends its `bestmove`.
    pub fn stop(&self) {
        self.signals.stop(self.job);
        self.command(Command::Stop);
    }

    /// `ponderhit`: the current ponder search now runs on its clock.
    pub fn ponderhit(&self) {
        self.signals.ponderhit(self.job);
        self.command(Command::PonderHit);
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

    /// Stops everything and waits (briefly) for the output to be written.
    pub fn quit(mut self) {
        self.signals.stop(u64::MAX);
        self.command(Command::Quit);
        let finished = matches!(
            self.search_done.recv_timeout(QUIT_WAIT),
            Err(crossbeam_channel::RecvTimeoutError::Disconnected)
        );
        if !finished {
            log::warn!("the search thread did not finish in time; exiting anyway");
            return;
        }
        if let Some(handle) = self.search_thread.take() {
            let _ = handle.join();
        }
        let writer = self.writer.take();
        drop(self);
        if let Some(handle) = writer {
            let _ = handle.join();
        }
    }
}
