//! Search scores: centipawns, with mate scores at the top of the range.

use super::limits::MAX_PLY;

/// Larger than any evaluation; `MATE - n` is "mate in n plies".
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A tablebase win: above any evaluation, below every mate score. `TB_WIN - n` is a win
/// known from the tables n plies from the root.
pub const TB_WIN: i32 = MATE_BOUND - 500;
/// Scores beyond this are tablebase wins or mates: decided, distance-dependent results.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
pub const INFINITY: i32 = MATE + 1;
pub const DRAW: i32 = 0;

/// Whether a score is a tablebase result or a mate rather than an evaluation.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is being mated.
    Mate(i32),
}

impl Score {
    /// Back to the search's scale (mates at the ends).
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
            Score::Mate(n) => -MATE - 2 * n,
        }
    }

    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a reported score is exact or only a bound (a fail-high or fail-low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// Whether a `score` with this bound settles a search of the window (`alpha`, `beta`).
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether a `score` with this bound tells more than `estimate`: it is exact, or a bound
    /// on the far side of the estimate.
    #[inline]
    pub fn refines_estimate(self, score: i32, estimate: i32) -> bool {
        self.settles(score, estimate - 1, estimate + 1)
    }
}
