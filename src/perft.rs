//! Perft: counts the leaf nodes of the legal move tree, bulk-counting the last ply.

use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::movegen::{count_legal_moves, legal_moves};
use crate::types::Move;

pub fn perft<A: SliderAttacks>(board: &Board<A::Occ>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves::<A>(board),
        _ => {
            let mut nodes = 0;
            for &mv in legal_moves::<A>(board).iter() {
                let mut child = *board;
                child.play(mv);
                nodes += perft::<A>(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Node counts per root move ("divide").
pub fn divide<A: SliderAttacks>(board: &Board<A::Occ>, depth: u32) -> Vec<(Move, u64)> {
    legal_moves::<A>(board)
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(mv);
            (mv, perft::<A>(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// Perft with direction-wise generation: the same tree, counted from the target sets.
pub fn perft_directional<A: SliderAttacks>(board: &Board<A::Occ>, depth: u32) -> u64 {
    use crate::movegen::{GenType, directional::TargetSets, legal_moves_directional};
    match depth {
        0 => 1,
        1 => TargetSets::new::<A>(board, GenType::All).count(),
        _ => {
            let mut nodes = 0;
            for &mv in legal_moves_directional::<A>(board).iter() {
                let mut child = *board;
                child.play(mv);
                nodes += perft_directional::<A>(&child, depth - 1);
            }
            nodes
        }
    }
}
