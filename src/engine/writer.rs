//! The one writer of stdout: every protocol line, from the front-end and the search thread
//! alike, goes through one channel to here, so lines never interleave and each is flushed
//! at once.

use super::event::Event;
use super::transcript::Transcript;
use crate::uci::format::{bestmove_line, info_line};
use crossbeam_channel::Receiver;
use std::io::Write;
use std::sync::Arc;

/// Writes events until every sender is gone. A closed stdout (the GUI went away) is logged once
/// and the remaining events are dropped: there is nobody left to tell.
pub fn run(events: Receiver<Event>, mut out: Box<dyn Write + Send>, transcript: Arc<Transcript>) {
    let mut broken = false;
    for event in events {
        let text = match event {
            Event::Line(text) => text,
            Event::Info { info, chess960 } => info_line(&info, chess960),
            Event::BestMove {
                best,
                ponder,
                chess960,
            } => bestmove_line(best, ponder, chess960),
        };
        transcript.sent(&text);
        if broken {
            continue;
        }
        let result = writeln!(out, "{text}").and_then(|()| out.flush());
        if let Err(e) = result {
            log::warn!("stdout is closed, output dropped from now on: {e}");
            broken = true;
        }
    }
}
