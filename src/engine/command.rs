//! What the front-end asks of the search thread.

use crate::attacks::Backend;
use crate::board::Board;
use crate::game::Game;
use crate::search::{Limits, SearchConfig};
use std::time::Instant;

/// A job or a setting for the search thread, in the order the GUI gave them.
#[derive(Debug)]
pub enum Command {
    /// Search `game`; job `id` is what `stop` and `ponderhit` refer to.
    Go {
        id: u64,
        game: Box<Game>,
        limits: Limits,
        config: SearchConfig,
        /// `Ponder` option: add `ponder <move>` to `bestmove`.
        show_ponder: bool,
        /// When the GUI sent `go`: the search's clock starts there.
        received: Instant,
    },
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
