//! The search: iterative deepening over alpha-beta, reporting each finished iteration.
//!
//! The engine thread owns a [`Searcher`] (transposition table and histories that live
//! across moves), starts each search with [`Searcher::search_with`] and watches it through
//! [`Running`]; the front-end stops it through [`SearchControl`].

pub mod bench_suite;
mod control;
mod gate;
mod history;
mod iterate;
mod limits;
mod node;
pub mod params;
mod picker;
mod pool;
mod running;
mod score;
mod searcher;
mod see;
pub mod slices;
pub mod strength;
mod time;
mod tt;
mod wdl;

pub use control::SearchControl;
pub use history::{History, PieceMove, QuietContext};
pub use limits::Limits;
pub use picker::MovePicker;
pub use running::{Heard, Progress, Report, Running};
pub use score::{Bound, MATE, MATE_BOUND, Score};
pub use searcher::Searcher;
pub use time::TimeManager;

use crate::attacks::Backend;
use crate::eval::Evaluator;
use crate::types::Move;

/// Settings from the UCI options that the search reads.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub multipv: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    pub show_wdl: bool,
    pub backend: Backend,
    /// Probe Syzygy tables with at most this many pieces (0: never).
    pub syzygy_probe_limit: u32,
    /// With as many pieces as the largest tables probed, probe only from this depth.
    pub syzygy_probe_depth: i32,
    /// Whether the 50-move rule counts: when not, cursed wins and blessed losses are wins and
    /// losses.
    pub syzygy_50_move_rule: bool,
    /// `UCI_LimitStrength`: play at about this Elo.
    pub strength: Option<u32>,
    pub evaluator: Evaluator,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            multipv: 1,
            threads: 1,
            move_overhead_ms: 10,
            chess960: false,
            show_wdl: false,
            backend: Backend::fastest(),
            syzygy_probe_limit: 7,
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            strength: None,
            evaluator: Evaluator::default(),
        }
    }
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number for MultiPV.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    /// Win/draw/loss per mille, when `UCI_ShowWDL` is on.
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// What a long search says between iterations, so a GUI is not left showing nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heartbeat {
    /// The root move the main thread has just started on, 1-based.
    CurrMove { depth: u32, mv: Move, number: u32 },
    /// The counters, at least once a second.
    Counters {
        depth: u32,
        nodes: u64,
        nps: u64,
        hashfull: u32,
        tbhits: u64,
        time_ms: u64,
    },
}

/// What the search decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `Move::NULL` when there is no legal move.
    pub best: Move,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
}

impl SearchResult {
    /// No move: there is no legal one, or none is known yet.
    pub const NONE: SearchResult = SearchResult {
        best: Move::NULL,
        ponder: None,
    };
}
