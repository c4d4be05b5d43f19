//! What the engine says, typed: the front-end and the engine thread build these, and
//! [`Event::text`] is the only place they become UCI text.

use super::format::{bestmove_line, heartbeat_line, info_line};
use crate::search::{Heartbeat, SearchInfo};
use crate::types::Move;

#[derive(Debug)]
pub enum Event {
    /// Ready-made protocol text (one or more lines): `uciok`, `readyok`, `info string ...`.
    Line(String),
    /// One finished iteration (or MultiPV line) of the search.
    Info {
        info: Box<SearchInfo>,
        chess960: bool,
    },
    /// A long search's line between iterations: `currmove`, or the counters.
    Heartbeat { beat: Heartbeat, chess960: bool },
    /// The search's decision; `Move::NULL` when there is no legal move.
    BestMove {
        best: Move,
        ponder: Option<Move>,
        chess960: bool,
    },
}

impl Event {
    /// The protocol text (one or more lines, without the final newline).
    pub fn text(self) -> String {
        match self {
            Event::Line(text) => text,
            Event::Info { info, chess960 } => info_line(&info, chess960),
            Event::Heartbeat { beat, chess960 } => heartbeat_line(&beat, chess960),
            Event::BestMove {
                best,
                ponder,
                chess960,
            } => bestmove_line(best, ponder, chess960),
        }
    }
}
