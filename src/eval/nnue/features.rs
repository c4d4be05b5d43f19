//! Input features: one per (piece relative to the perspective, square seen from it), in one
//! set of 768 per king bucket of the perspective's own king.

use crate::types::{Color, Piece, Square};

/// 2 colours × 6 piece types × 64 squares: the inputs of one king bucket.
pub const INPUTS: usize = 768;

/// How a perspective's inputs depend on where its own king stands: whether they are mirrored
/// left to right when it is on files e–h, and which king bucket's set they use. The network
/// file keeps it in its flags word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputLayout {
    pub mirroring: bool,
    pub king_buckets: KingBuckets,
}

/// The king-square maps a network may use (seen from the perspective, after mirroring).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KingBuckets {
    /// One set of inputs, wherever the king is.
    #[default]
    One,
    /// Four: the back rank's corner files (a–b, a castled king), the back rank's centre (c–d,
    /// a king at home), the second rank, and ranks 3–8 (an endgame king).
    Four,
}

/// The most king buckets of any map.
pub const MAX_KING_BUCKETS: usize = 4;

impl KingBuckets {
    /// The maps by their number in the file's flags (bits 1–2).
    const BY_CODE: [KingBuckets; 2] = [KingBuckets::One, KingBuckets::Four];

    pub const fn count(self) -> usize {
        match self {
            KingBuckets::One => 1,
            KingBuckets::Four => 4,
        }
    }

    /// The bucket of a king on `sq`, seen from its own side and mirrored to files a–d when
    /// the layout mirrors.
    #[inline(always)]
    fn of(self, sq: usize) -> u8 {
        match self {
            KingBuckets::One => 0,
            KingBuckets::Four => match (sq / 8, sq % 8) {
                (0, 0 | 1 | 6 | 7) => 0,
                (0, _) => 1,
                (1, _) => 2,
                _ => 3,
            },
        }
    }

    /// A map by its number of buckets (the trainer's `--king-buckets`).
    pub fn with_count(count: usize) -> Option<KingBuckets> {
        Self::BY_CODE.into_iter().find(|k| k.count() == count)
    }

    fn code(self) -> u32 {
        Self::BY_CODE.iter().position(|&k| k == self).unwrap() as u32
    }
}

/// What a perspective's features depend on besides the pieces: its king's mirroring and bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub mirror: bool,
    pub bucket: u8,
}

/// Flag bit: the features are mirrored left to right by the king's file.
const FLAG_MIRRORING: u32 = 1;
/// Flag bits holding the king-bucket map's number.
const FLAG_KING_BUCKETS: u32 = 0b110;

impl InputLayout {
    /// No mirroring and one king bucket: every view is the same.
    pub const PLAIN: InputLayout = InputLayout {
        mirroring: false,
        king_buckets: KingBuckets::One,
    };

    /// Mirrored left to right by the king's file, with `king_buckets` (the trainer's default
    /// shape with one bucket).
    pub const fn mirrored(king_buckets: KingBuckets) -> InputLayout {
        InputLayout {
            mirroring: true,
            king_buckets,
        }
    }

    /// The inputs of every king bucket together: the input layer's rows.
    pub const fn inputs(self) -> usize {
        INPUTS * self.king_buckets.count()
    }

    /// Whether the king's square matters at all (so a king move may need a rebuild).
    #[inline(always)]
    pub fn is_plain(self) -> bool {
        self == Self::PLAIN
    }

    /// How `perspective` sees the board with its king on `king`.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        let mirror = self.mirroring && king.file() as usize >= 4;
        let sq = relative(perspective, king.index()) ^ (7 * mirror as usize);
        View {
            mirror,
            bucket: self.king_buckets.of(sq),
        }
    }

    /// The flags word of the network file.
    pub fn flags(self) -> u32 {
        (self.mirroring as u32 * FLAG_MIRRORING) | (self.king_buckets.code() << 1)
    }

    /// The layout of a flags word; the word itself when it has bits no layout uses.
    pub fn from_flags(flags: u32) -> Result<InputLayout, u32> {
        let code = ((flags & FLAG_KING_BUCKETS) >> 1) as usize;
        match KingBuckets::BY_CODE.get(code) {
            Some(&king_buckets) if flags & !(FLAG_MIRRORING | FLAG_KING_BUCKETS) == 0 => {
                Ok(InputLayout {
                    mirroring: flags & FLAG_MIRRORING != 0,
                    king_buckets,
                })
            }
            _ => Err(flags),
        }
    }
}

/// The square index `sq` as `perspective` sees it: flipped top to bottom for Black.
#[inline(always)]
fn relative(perspective: Color, sq: usize) -> usize {
    match perspective {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// The input index of `piece` on `sq` seen by `perspective`: that side's own pieces first, and
/// the board flipped for Black so both sides see themselves moving up the board; mirrored
/// left to right and in the king bucket's set as `view` says ([`InputLayout::view`]).
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square, view: View) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = relative(perspective, sq.index()) ^ (7 * view.mirror as usize);
    usize::from(view.bucket) * INPUTS + own * 384 + piece.kind().index() * 64 + sq
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

    const MIRRORED: InputLayout = InputLayout::mirrored(KingBuckets::One);
    const FOUR: InputLayout = InputLayout::mirrored(KingBuckets::Four);

    #[test]
    fn mirrored_positions_see_the_same_features() {
        let white_knight = Piece::new(Color::White, PieceType::Knight);
        let black_knight = Piece::new(Color::Black, PieceType::Knight);
        let plain = View::default();
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1, plain),
            feature_index(Color::Black, black_knight, Square::G8, plain)
        );
        assert_eq!(
            feature_index(Color::White, black_knight, Square::G8, plain),
            feature_index(Color::Black, white_knight, Square::G1, plain)
        );
        // Mirrored left to right: g1 is seen as b1.
        let mirrored = MIRRORED.view(Color::White, Square::G1);
        assert!(mirrored.mirror);
        assert_eq!(
            feature_index(Color::White, white_knight, Square::G1, mirrored),
            feature_index(Color::White, white_knight, Square::B1, plain)
        );
        assert!(!MIRRORED.view(Color::White, Square::D1).mirror);
        assert!(MIRRORED.view(Color::Black, Square::E8).mirror);
        assert!(!InputLayout::PLAIN.view(Color::White, Square::H1).mirror);
        let all: std::collections::HashSet<usize> = Square::ALL
            .iter()
            .flat_map(|&sq| {
                (0..12).map(move |p| {
                    feature_index(
                        Color::Black,
                        Piece::new(Color::ALL[p / 6], PieceType::ALL[p % 6]),
                        sq,
                        plain,
                    )
                })
            })
            .collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&i| i < INPUTS));
    }

    #[test]
    fn king_buckets_split_the_kings_squares_by_rank_and_corner() {
        let bucket = |color, sq| FOUR.view(color, sq).bucket;
        // Castled either way, for either side (mirrored and flipped), is the corner bucket.
        for sq in [Square::G1, Square::B1, Square::H1, Square::A1] {
            assert_eq!(bucket(Color::White, sq), 0, "{sq:?}");
        }
        assert_eq!(bucket(Color::Black, Square::G8), 0);
        assert_eq!(bucket(Color::Black, Square::G1), 3);
        assert_eq!(bucket(Color::White, Square::E1), 1);
        assert_eq!(bucket(Color::Black, Square::D8), 1);
        assert_eq!(bucket(Color::White, Square::F2), 2);
        assert_eq!(bucket(Color::Black, Square::C7), 2);
        assert_eq!(bucket(Color::White, Square::E4), 3);
        // Every bucket is used, and each bucket's features are its own set of 768.
        let used: std::collections::HashSet<u8> = Square::ALL
            .iter()
            .map(|&sq| bucket(Color::White, sq))
            .collect();
        assert_eq!(used.len(), 4);
        let pawn = Piece::new(Color::White, PieceType::Pawn);
        let index = |king| {
            feature_index(
                Color::White,
                pawn,
                Square::E4,
                FOUR.view(Color::White, king),
            )
        };
        assert_eq!(index(Square::E2) - index(Square::E1), INPUTS);
        assert!(index(Square::E5) < FOUR.inputs());
        assert_eq!(FOUR.inputs(), 4 * INPUTS);
    }

    #[test]
    fn layouts_survive_their_flags_and_unknown_bits_are_refused() {
        for layout in [InputLayout::PLAIN, MIRRORED, FOUR] {
            assert_eq!(InputLayout::from_flags(layout.flags()), Ok(layout));
        }
        assert_eq!(MIRRORED.flags(), 1);
        assert_eq!(InputLayout::from_flags(0b100), Err(0b100));
        assert_eq!(InputLayout::from_flags(0b1000), Err(0b1000));
        assert_eq!(KingBuckets::with_count(4), Some(KingBuckets::Four));
        assert_eq!(KingBuckets::with_count(3), None);
    }
}
