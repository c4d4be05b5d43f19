//! The evaluation's correction by position keys, and the table's score in place of the
//! evaluation.

use super::*;
use crate::types::Bitboard;

/// The keys the evaluation correction remembers a position by.
pub(super) fn correction_keys<O: crate::attacks::Occupancy>(board: &Board<O>) -> CorrectionKeys {
    let non_pawns = |color| non_pawn_key(NON_PAWNS.map(|kind| board.pieces_of(color, kind)));
    CorrectionKeys {
        pawns: pawn_key(
            board.pieces_of(Color::White, PieceType::Pawn),
            board.pieces_of(Color::Black, PieceType::Pawn),
        ),
        non_pawns: [non_pawns(Color::White), non_pawns(Color::Black)],
    }
}

const NON_PAWNS: [PieceType; 5] = [
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
    PieceType::King,
];

/// A key of one side's knights, bishops, rooks, queens and king (in that order).
fn non_pawn_key(sets: [Bitboard; 5]) -> u64 {
    const MULTIPLIERS: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
    ];
    let h = sets.iter().zip(MULTIPLIERS).fold(0u64, |h, (set, mul)| {
        (h ^ set.0.wrapping_mul(mul)).rotate_left(23)
    });
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The table's score in place of the evaluation when its bound says the true value lies
/// beyond it (mate and tablebase scores excepted).
pub(super) fn refined(entry: Option<TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match entry {
        Some(e)
            if !in_check
                && !is_decisive(e.score)
                && e.bound.refines_estimate(e.score, static_eval) =>
        {
            e.score
        }
        _ => static_eval,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Rng;

    fn pawn_slot(white: u64, black: u64) -> usize {
        let keys = CorrectionKeys {
            pawns: pawn_key(Bitboard(white), Bitboard(black)),
            non_pawns: [0; 2],
        };
        keys.slots()[0]
    }

    fn non_pawn_slot(sets: [Bitboard; 5]) -> usize {
        let keys = CorrectionKeys {
            pawns: 0,
            non_pawns: [non_pawn_key(sets), 0],
        };
        keys.slots()[1]
    }

    const RANK_7: u64 = 0x00FF_0000_0000_0000;

    #[test]
    fn pawns_on_the_seventh_rank_change_the_pawn_slot() {
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let white = rng.next_u64() & 0x0000_00FF_FF00 & !RANK_7;
            let black = rng.next_u64() & 0x0000_FFFF_0000_0000;
            let slots: std::collections::HashSet<usize> = (0..256u64)
                .map(|pattern| pawn_slot(white, black | pattern << 48))
                .collect();
            // 256 keys in 16 384 slots share about 2.
            assert!(slots.len() >= 250, "{} slots", slots.len());
        }
    }

    #[test]
    fn every_piece_on_every_square_changes_the_non_pawn_slot() {
        let mut rng = Rng::new(11);
        let mut same = 0;
        let mut pairs = 0;
        for _ in 0..20 {
            let sets: [Bitboard; 5] =
                std::array::from_fn(|_| Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64()));
            let base = non_pawn_slot(sets);
            for kind in 0..5 {
                for square in 0..64 {
                    let mut changed = sets;
                    changed[kind].0 ^= 1 << square;
                    pairs += 1;
                    same += usize::from(non_pawn_slot(changed) == base);
                }
            }
        }
        // 6 400 pairs at 1/16 384 each share a slot about 0.4 times.
        assert!(same <= 4, "{same} of {pairs} pairs share a slot");
    }

    #[test]
    fn a_queen_on_d8_is_told_from_none() {
        let mut rng = Rng::new(13);
        let d8 = 1u64 << 59;
        let same = (0..4000)
            .filter(|_| {
                let mut sets: [Bitboard; 5] = std::array::from_fn(|_| {
                    Bitboard(rng.next_u64() & rng.next_u64() & rng.next_u64())
                });
                sets[3].0 &= !d8;
                let without = non_pawn_slot(sets);
                sets[3].0 |= d8;
                non_pawn_slot(sets) == without
            })
            .count();
        assert!(same <= 3, "{same} of 4000");
    }
}
