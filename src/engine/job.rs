//! One `go`, built once when the front-end asks for it and shared, read-only, by the search
//! thread that runs it and by the [`Answer`](super::answer::Answer) that sends its `bestmove`.

use crate::game::Game;
use crate::search::{Limits, SearchConfig};
use std::time::Instant;

#[derive(Debug)]
pub struct SearchJob {
    /// What `stop` and `ponderhit` refer to.
    pub id: u64,
    pub game: Game,
    pub limits: Limits,
    pub config: SearchConfig,
    /// `Ponder` option: add `ponder <move>` to `bestmove`.
    pub show_ponder: bool,
    /// When the GUI sent `go`: the search's clock starts there.
    pub received: Instant,
}

impl SearchJob {
    /// Moves are written king-takes-rook.
    pub fn chess960(&self) -> bool {
        self.config.chess960
    }
}
