//! What goes to the one stdout writer.

use crate::search::SearchInfo;
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
    /// The search's decision; `Move::NULL` when there is no legal move.
    BestMove {
        best: Move,
        ponder: Option<Move>,
        chess960: bool,
    },
}
