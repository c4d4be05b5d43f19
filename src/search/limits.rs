use crate::types::Move;

/// Plies from the root the search's stacks (killers, principal variations, mate scores) have
/// room for.
pub const MAX_PLY: usize = 128;

/// What `go` asked for. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes are searched (self-play data generation).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }
}
