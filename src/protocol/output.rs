//! The one writer of stdout: every protocol line, from the front-end and the engine thread
//! alike, is formatted and written here under one lock, so lines never interleave and each is
//! flushed at once. Writing on the sender's own thread (rather than handing the line to a
//! writer thread) saves a thread wake-up: with more search threads than cores, each wake-up
//! can wait for many time slices.

use super::event::Event;
use super::transcript::Transcript;
use std::io::Write;
use std::sync::{Mutex, MutexGuard, PoisonError};

pub struct Output {
    sink: Mutex<Sink>,
    transcript: Transcript,
}

struct Sink {
    out: Box<dyn Write + Send>,
    /// stdout is closed (the GUI went away): nothing more is written.
    broken: bool,
}

impl Output {
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(Sink { out, broken: false }),
            transcript: Transcript::default(),
        }
    }

    /// The `Debug Log File`.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Writes one event's lines. A closed stdout is logged once and later events are dropped:
    /// there is nobody left to tell.
    pub fn send(&self, event: Event) {
        let text = event.text();
        let mut sink = self.lock();
        self.transcript.sent(&text);
        if sink.broken {
            return;
        }
        let result = writeln!(sink.out, "{text}").and_then(|()| sink.out.flush());
        if let Err(e) = result {
            log::warn!("stdout is closed, output dropped from now on: {e}");
            sink.broken = true;
        }
    }

    fn lock(&self) -> MutexGuard<'_, Sink> {
        // A panic while writing leaves a writer that is still fine to use.
        self.sink.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Tests: a stdout that keeps what was written, to read back with [`Captured::text`].
#[cfg(test)]
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_become_lines_in_order() {
        let buffer = Captured::default();
        let output = Output::new(Box::new(buffer.clone()));
        output.send(Event::Line("readyok".into()));
        output.send(Event::BestMove {
            best: crate::types::Move::NULL,
            ponder: None,
            chess960: false,
        });
        assert_eq!(buffer.text(), "readyok\nbestmove 0000\n");
    }
}
