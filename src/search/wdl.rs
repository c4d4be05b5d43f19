//! Win/draw/loss odds (per mille) from a search score and the material on the board, for
//! `UCI_ShowWDL`: Stockfish's model, win = sigmoid((score − a(m)) / b(m)), loss = the same for
//! −score, draw = the rest, with a and b cubic in the material m. The constants are a maximum
//! likelihood fit to our own games (matches of g3h64l0, the default network, against itself)
//! by `scripts/wdl-fit.py` (docs/evaluation.md, "Win/draw/loss"); refit them whenever the
//! evaluation changes.

use super::score::MATE_BOUND;
use crate::attacks::Occupancy;
use crate::board::Board;
use crate::types::PieceType;

const M_MIN: i32 = 4;
const M_MAX: i32 = 78;
const M_SCALE: f64 = 58.0;
const A: [f64; 4] = [-1991.93, 5440.49, -4414.3, 1211.79];
const B: [f64; 4] = [-91.1561, 709.079, -761.236, 266.811];

/// Win, draw and loss per mille for the side whose `score` (centipawns) it is, with `material`
/// as [`material`] counts it.
pub fn wdl(score: i32, material: i32) -> (u32, u32, u32) {
    if score >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let x = material.clamp(M_MIN, M_MAX) as f64 / M_SCALE;
    let poly = |c: [f64; 4]| ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
    let (a, b) = (poly(A), poly(B));
    let per_mille = |s: f64| (1000.0 / (1.0 + (-(s - a) / b).exp())).round() as u32;
    let s = score.clamp(-4000, 4000) as f64;
    let (mut w, mut l) = (per_mille(s), per_mille(-s));
    // With a > 0 the odds sum to at most 1, but both can round up; take the excess from the
    // larger so that the result stays symmetric.
    if w + l > 1000 {
        if w > l {
            w -= w + l - 1000;
        } else {
            l -= w + l - 1000;
        }
    }
    (w, 1000 - w - l, l)
}

/// The material the model reads: 1 per pawn, 3 per knight or bishop, 5 per rook, 9 per queen,
/// both sides (78 at the start).
pub fn material<O: Occupancy>(board: &Board<O>) -> i32 {
    [
        (PieceType::Pawn, 1),
        (PieceType::Knight, 3),
        (PieceType::Bishop, 3),
        (PieceType::Rook, 5),
        (PieceType::Queen, 9),
    ]
    .iter()
    .map(|&(kind, value)| board.pieces(kind).count() as i32 * value)
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{TB_WIN, mate_in, mated_in};

    const MATERIALS: std::ops::RangeInclusive<i32> = 0..=90;

    #[test]
    fn odds_sum_to_a_thousand() {
        for m in MATERIALS {
            for s in (-5000..=5000).step_by(7) {
                let (w, d, l) = wdl(s, m);
                assert_eq!(w + d + l, 1000, "score {s}, material {m}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        for m in MATERIALS {
            let mut last = wdl(-5000, m);
            for s in -4999..=5000 {
                let now = wdl(s, m);
                assert!(
                    now.0 >= last.0 && now.2 <= last.2,
                    "score {s}, material {m}"
                );
                last = now;
            }
        }
    }

    #[test]
    fn the_other_side_sees_the_same_odds_reversed() {
        for m in MATERIALS {
            for s in 0..=5000 {
                let (w, d, l) = wdl(s, m);
                assert_eq!(wdl(-s, m), (l, d, w), "score {s}, material {m}");
            }
        }
    }

    #[test]
    fn mates_and_tablebase_wins_are_certain() {
        for m in MATERIALS {
            for s in [mate_in(1), mate_in(40), MATE_BOUND, TB_WIN] {
                assert_eq!(wdl(s, m), (1000, 0, 0), "score {s}, material {m}");
                assert_eq!(wdl(-s, m), (0, 0, 1000), "score {s}, material {m}");
            }
            assert_eq!(wdl(mated_in(2), m), (0, 0, 1000));
        }
    }

    #[test]
    fn level_endgames_are_drawn_more_often_than_level_middlegames() {
        let (_, endgame, _) = wdl(0, 10);
        let (_, full_board, _) = wdl(0, 78);
        assert!(endgame > full_board, "{endgame} vs {full_board}");
    }

    #[test]
    fn material_counts_pieces_of_both_sides() {
        assert_eq!(material(&Board::startpos()), 78);
        let board = Board::from_fen("4k3/pp6/8/8/8/8/3N4/R3K2Q w - - 0 1").unwrap();
        assert_eq!(material(&board), 2 + 3 + 5 + 9);
    }
}
