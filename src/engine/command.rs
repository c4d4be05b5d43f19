//! What the front-end asks of the engine thread.

use super::job::SearchJob;
use crate::attacks::Backend;
use crate::board::Board;
use crate::search::SearchConfig;
use std::sync::Arc;

/// A job or a setting for the engine thread, in the order the GUI gave them.
#[derive(Debug)]
pub enum Command {
    /// Run this search.
    Go(Arc<SearchJob>),
    /// `go perft <depth>`: divide for every root move, then the total.
    Perft {
        board: Box<Board>,
        depth: u32,
        backend: Backend,
        chess960: bool,
    },
    /// `bench [depth]` typed at the UCI prompt.
    Bench {
        depth: u32,
        config: SearchConfig,
    },
    /// `isready`: answer `readyok` once every earlier command has taken effect (at once while
    /// a search, `go perft` or `bench` runs).
    Ready,
    /// Resize the transposition table (MB).
    SetHash(usize),
    /// Start this many search threads.
    SetThreads(usize),
    /// Open the Syzygy tables in these folders (empty: close them).
    SetTablebases(String),
    /// `ucinewgame` / `Clear Hash`: forget everything learned.
    Clear,
    /// Wakes a finished infinite or ponder search waiting for `stop` (the flags say why).
    Stop,
    /// Wakes a finished ponder search waiting for `ponderhit`.
    PonderHit,
    Quit,
}
