//! The evaluation's correction by position keys, and the table's score in place of the
//! evaluation.

use super::*;

/// The keys the evaluation correction remembers a position by.
pub(super) fn correction_keys<O: crate::attacks::Occupancy>(board: &Board<O>) -> CorrectionKeys {
    let non_pawns = |color| {
        const KINDS: [(PieceType, u64); 5] = [
            (PieceType::Knight, 0x9E37_79B9_7F4A_7C15),
            (PieceType::Bishop, 0xC2B2_AE3D_27D4_EB4F),
            (PieceType::Rook, 0x1656_67B1_9E37_79F9),
            (PieceType::Queen, 0x85EB_CA77_C2B2_AE63),
            (PieceType::King, 0x27D4_EB2F_1656_67C5),
        ];
        let h = KINDS.iter().fold(0u64, |h, &(kind, mul)| {
            (h ^ board.pieces_of(color, kind).0.wrapping_mul(mul)).rotate_left(23)
        });
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20
    };
    CorrectionKeys {
        pawns: pawn_key(
            board.pieces_of(Color::White, PieceType::Pawn),
            board.pieces_of(Color::Black, PieceType::Pawn),
        ),
        non_pawns: [non_pawns(Color::White), non_pawns(Color::Black)],
    }
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
