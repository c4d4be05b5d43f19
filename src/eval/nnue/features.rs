//! Input features: one per (piece relative to the perspective, square seen from it).

use crate::types::{Color, Piece, Square};

/// 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;

/// The input index of `piece` on `sq` seen by `perspective`: that side's own pieces first, and
/// the board flipped for Black so both sides see themselves moving up the board.
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    own * 384 + piece.kind().index() * 64 + sq
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn mirrored_positions_see_the_same_features() {
        let white_knight = Piece::new(Color::White, PieceType::Knight);
        let black_knight = Piece::new(Color::Black, PieceType::Knight);
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1),
            feature_index(Color::Black, black_knight, Square::G8)
        );
        assert_eq!(
            feature_index(Color::White, black_knight, Square::G8),
            feature_index(Color::Black, white_knight, Square::G1)
        );
        let all: std::collections::HashSet<usize> = Square::ALL
            .iter()
            .flat_map(|&sq| {
                (0..12).map(move |p| {
                    feature_index(
                        Color::Black,
                        Piece::new(Color::ALL[p / 6], PieceType::ALL[p % 6]),
                        sq,
                    )
                })
            })
            .collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&i| i < INPUTS));
    }
}
