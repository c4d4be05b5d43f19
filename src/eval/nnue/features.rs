//! Input features: one per (piece relative to the perspective, square seen from it).

use crate::types::{Color, Piece, Square};

/// 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;

/// Whether a perspective sees the board mirrored left to right: in a network with horizontal
/// mirroring, when that side's `king` stands on files e–h, so that every king sits on a–d and
/// the two halves of the board share their weights.
#[inline(always)]
pub fn mirrors(mirroring: bool, king: Square) -> bool {
    mirroring && king.file() as usize >= 4
}

/// The input index of `piece` on `sq` seen by `perspective`: that side's own pieces first, and
/// the board flipped for Black so both sides see themselves moving up the board; mirrored
/// left to right when `mirror` ([`mirrors`]).
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square, mirror: bool) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    } ^ (7 * mirror as usize);
    own * 384 + piece.kind().index() * 64 + sq
}

/// The most output buckets a network file may have.
pub const MAX_BUCKETS: usize = 16;

/// The output layer used for a position with `pieces` pieces on the board (kings included),
/// out of `buckets`: the piece counts 2–32 split into `buckets` ranges as even as can be,
/// fewest pieces first. One function for the engine and the trainer.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn output_buckets_split_the_piece_counts_evenly_and_in_order() {
        assert!((2..=32).all(|n| output_bucket(n, 1) == 0));
        let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!((eight[0], eight[30]), (0, 7));
        assert!(eight.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        for bucket in 0..8 {
            let size = eight.iter().filter(|&&b| b == bucket).count();
            assert!(
                (3..=5).contains(&size),
                "bucket {bucket}: {size} piece counts"
            );
        }
        // Promotions cannot add pieces, but a bad count must not leave the table.
        assert_eq!(output_bucket(40, 8), 7);
        assert_eq!(output_bucket(0, 8), 0);
    }

    #[test]
    fn mirrored_positions_see_the_same_features() {
        let white_knight = Piece::new(Color::White, PieceType::Knight);
        let black_knight = Piece::new(Color::Black, PieceType::Knight);
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1, false),
            feature_index(Color::Black, black_knight, Square::G8, false)
        );
        assert_eq!(
            feature_index(Color::White, black_knight, Square::G8, false),
            feature_index(Color::Black, white_knight, Square::G1, false)
        );
        // Mirrored left to right: g1 is seen as b1.
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1, true),
            feature_index(Color::White, white_knight, Square::B1, false)
        );
        assert!(!mirrors(true, Square::D1) && mirrors(true, Square::E8));
        assert!(!mirrors(false, Square::H1));
        let all: std::collections::HashSet<usize> = Square::ALL
            .iter()
            .flat_map(|&sq| {
                (0..12).map(move |p| {
                    feature_index(
                        Color::Black,
                        Piece::new(Color::ALL[p / 6], PieceType::ALL[p % 6]),
                        sq,
                        false,
                    )
                })
            })
            .collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&i| i < INPUTS));
    }
}
