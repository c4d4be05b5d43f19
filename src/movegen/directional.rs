//! Legal move generation direction by direction ("pieces versus directions"): instead of one
//! attack set per piece, one target set per direction — 8 ray directions (sliders and the
//! king), 8 knight jumps, and the pawn pushes and captures. A target square and its direction
//! identify the move: the mover is the nearest piece looking back along the ray, or the square
//! one step back for knights and pawns.
//!
//! Moves are taken out of the sets by bitscan, and a move already tried elsewhere (the hash move
//! or a killer in the search) is removed with test-and-reset, so it is never produced twice.

use super::special::{castling, en_passant};
use super::{Constraints, GenType, MoveList, MoveSink, PROMOTION_PIECES, PawnMoves};
use crate::attacks::{Direction, KNIGHT_STEPS, SliderAttacks, ray};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceType, Rank, Square};

/// The pawn move sets, each with the square delta that leads back to the pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PawnSet {
    Push,
    DoublePush,
    CaptureWest,
    CaptureEast,
}

impl PawnSet {
    pub const ALL: [PawnSet; 4] = [
        PawnSet::Push,
        PawnSet::DoublePush,
        PawnSet::CaptureWest,
        PawnSet::CaptureEast,
    ];

    /// Square delta from the pawn to its target for `color`.
    #[inline(always)]
    pub const fn delta(self, color: Color) -> i32 {
        let step = self.direction(color).delta();
        match self {
            PawnSet::DoublePush => 2 * step,
            _ => step,
        }
    }

    /// The ray direction a move of this set goes in, for pin lines.
    const fn direction(self, color: Color) -> Direction {
        match (self, color) {
            (PawnSet::Push | PawnSet::DoublePush, Color::White) => Direction::North,
            (PawnSet::Push | PawnSet::DoublePush, Color::Black) => Direction::South,
            (PawnSet::CaptureWest, Color::White) => Direction::NorthWest,
            (PawnSet::CaptureEast, Color::White) => Direction::NorthEast,
            (PawnSet::CaptureWest, Color::Black) => Direction::SouthWest,
            (PawnSet::CaptureEast, Color::Black) => Direction::SouthEast,
        }
    }
}

/// Bitboard shift for one knight jump, with the files it would wrap from masked off.
#[inline(always)]
fn knight_jump(knights: Bitboard, step: (i32, i32)) -> Bitboard {
    let (df, dr) = step;
    let keep = match df {
        2 => !(Bitboard::FILE_H | Bitboard::FILE_H.west()),
        1 => !Bitboard::FILE_H,
        -1 => !Bitboard::FILE_A,
        _ => !(Bitboard::FILE_A | Bitboard::FILE_A.east()),
    };
    (knights & keep).shift(dr * 8 + df)
}

/// The squares of the line through `sq` along `dir` (both ways), `sq` included.
#[inline(always)]
fn axis(dir: Direction, sq: Square) -> Bitboard {
    ray(dir, sq) | ray(dir.opposite(), sq) | sq
}

/// The legal moves of one position as per-direction target sets.
#[derive(Clone, Debug)]
pub struct TargetSets {
    /// Slider and king targets, by [`Direction`].
    pub rays: [Bitboard; 8],
    /// Knight targets, by jump (the order of [`KNIGHT_STEPS`]).
    pub knights: [Bitboard; 8],
    /// Pawn targets by [`PawnSet`], promotions excluded.
    pub pawns: [Bitboard; 4],
    /// Promotion targets by [`PawnSet`] and new piece (the order of [`PROMOTION_PIECES`]): one
    /// set per piece, so each of the four moves to one square can be taken out on its own.
    pub promotions: [[Bitboard; 4]; 4],
    /// Castling and en passant, generated one by one.
    specials: MoveList,
    us: Color,
    occupied: Bitboard,
    enemies: Bitboard,
}

impl TargetSets {
    /// Builds the target sets of the legal moves of `kind` in `board`.
    #[inline]
    pub fn new<A: SliderAttacks>(board: &Board<A::Occ>, kind: GenType) -> TargetSets {
        let info = Constraints::new(board);
        let us = info.us;
        let last_rank = Bitboard::rank(Rank::R8.relative_to(us));
        let mut sets = TargetSets {
            rays: [Bitboard::EMPTY; 8],
            knights: [Bitboard::EMPTY; 8],
            pawns: [Bitboard::EMPTY; 4],
            promotions: [[Bitboard::EMPTY; 4]; 4],
            specials: MoveList::new(),
            us,
            occupied: info.occupied,
            enemies: info.theirs,
        };
        let gen_mask = match kind {
            GenType::All => !info.ours,
            GenType::Noisy => info.theirs,
            GenType::Quiet => !info.occupied,
        };

        let king = Bitboard::from(info.king);
        let mut king_candidates = Bitboard::EMPTY;
        for dir in Direction::ALL {
            king_candidates |= dir.shift(king);
        }
        let king_targets = info.king_targets::<A>(board, king_candidates & gen_mask);
        for dir in Direction::ALL {
            sets.rays[dir as usize] = dir.shift(king) & king_targets;
        }
        if info.checkers.more_than_one() {
            return sets;
        }

        let targets = info.targets & gen_mask;
        let occ = board.occupancy();
        // A pinned piece may move only along the line through its king.
        let movers =
            |pieces: Bitboard, dir: Direction| pieces & (!info.pinned | axis(dir, info.king));
        for dir in Direction::ALL {
            let sliders = if dir.is_diagonal() {
                board.diagonal_sliders(us)
            } else {
                board.orthogonal_sliders(us)
            };
            sets.rays[dir as usize] |= A::ray_set(dir, movers(sliders, dir), occ) & targets;
        }
        let knights = board.pieces_of(us, PieceType::Knight) & !info.pinned;
        for (k, &step) in KNIGHT_STEPS.iter().enumerate() {
            sets.knights[k] = knight_jump(knights, step) & targets;
        }

        let pawns = board.pieces_of(us, PieceType::Pawn);
        let empty = !info.occupied;
        let push_dir = PawnSet::Push.direction(us);
        let pushers = movers(pawns, push_dir);
        let single = push_dir.shift(pushers) & empty;
        let double = push_dir.shift(single & Bitboard::rank(Rank::R3.relative_to(us))) & empty;
        // Pushes to the last rank are promotions: noisy.
        let push_mask = match kind {
            GenType::All => info.targets,
            GenType::Noisy => info.targets & last_rank,
            GenType::Quiet => info.targets & !last_rank,
        };
        sets.pawns[PawnSet::Push as usize] = single & push_mask;
        if kind.quiet() {
            sets.pawns[PawnSet::DoublePush as usize] = double & info.targets;
        }
        for set in [PawnSet::CaptureWest, PawnSet::CaptureEast] {
            let dir = set.direction(us);
            let captures = dir.shift(movers(pawns, dir)) & info.theirs & info.targets;
            // Captures are noisy; promotion captures too.
            sets.pawns[set as usize] = if kind.noisy() {
                captures
            } else {
                Bitboard::EMPTY
            };
        }
        for set in PawnSet::ALL {
            let promotions = sets.pawns[set as usize] & last_rank;
            if promotions.any() {
                sets.pawns[set as usize] ^= promotions;
                sets.promotions[set as usize] = [promotions; 4];
            }
        }

        if kind.noisy() {
            en_passant::<A, _>(board, &info, &mut sets.specials);
        }
        if kind.quiet() {
            castling::<A, _>(board, &info, &mut sets.specials);
        }
        sets
    }

    /// The number of moves in the sets (perft's bulk count).
    #[inline]
    pub fn count(&self) -> u64 {
        let rays: u32 = self.rays.iter().map(|b| b.count()).sum();
        let knights: u32 = self.knights.iter().map(|b| b.count()).sum();
        let pawns: u32 = self.pawns.iter().map(|b| b.count()).sum();
        let promotions: u32 = self.promotions.iter().flatten().map(|b| b.count()).sum();
        (rays + knights + pawns + promotions) as u64 + self.specials.len() as u64
    }

    /// The mover of a ray move to `to` in `dir`: the nearest piece looking back.
    #[inline(always)]
    fn ray_origin(&self, dir: Direction, to: Square) -> Square {
        let back = dir.opposite();
        let blockers = ray(back, to) & self.occupied;
        if back.is_positive() {
            blockers.lsb()
        } else {
            blockers.msb()
        }
    }

    /// Serialises every set into `sink`, emptying them.
    pub fn drain<S: MoveSink>(&mut self, sink: &mut S) {
        for dir in Direction::ALL {
            let mut set = self.rays[dir as usize];
            while set.any() {
                let to = set.pop_lsb();
                let from = self.ray_origin(dir, to);
                sink.piece_moves(from, Bitboard::from(to), self.enemies);
            }
            self.rays[dir as usize] = Bitboard::EMPTY;
        }
        for (k, &(df, dr)) in KNIGHT_STEPS.iter().enumerate() {
            let mut set = self.knights[k];
            while set.any() {
                let to = set.pop_lsb();
                let from = Square::from_index((to as i32 - (dr * 8 + df)) as usize);
                sink.piece_moves(from, Bitboard::from(to), self.enemies);
            }
            self.knights[k] = Bitboard::EMPTY;
        }
        for set in PawnSet::ALL {
            let delta = set.delta(self.us);
            let kind = match set {
                PawnSet::Push => PawnMoves::Push,
                PawnSet::DoublePush => PawnMoves::DoublePush,
                _ => PawnMoves::Capture,
            };
            sink.pawn_moves(self.pawns[set as usize], delta, kind);
            self.pawns[set as usize] = Bitboard::EMPTY;
            self.drain_promotions(set, sink);
        }
        for &mv in self.specials.iter() {
            sink.single(mv);
        }
        self.specials.clear();
    }

    /// The promotions of one pawn set, per target square the new pieces in the order of
    /// [`PROMOTION_PIECES`] (as [`MoveSink::pawn_moves`] writes them), skipping removed ones.
    fn drain_promotions<S: MoveSink>(&mut self, set: PawnSet, sink: &mut S) {
        let pieces = &mut self.promotions[set as usize];
        let capture = matches!(set, PawnSet::CaptureWest | PawnSet::CaptureEast);
        let delta = set.delta(self.us);
        for to in pieces[0] | pieces[1] | pieces[2] | pieces[3] {
            let from = Square::from_index((to as i32 - delta) as usize);
            for (i, piece) in PROMOTION_PIECES.into_iter().enumerate() {
                if pieces[i].contains(to) {
                    sink.single(Move::new(from, to, MoveKind::promotion(piece, capture)));
                }
            }
        }
        *pieces = [Bitboard::EMPTY; 4];
    }

    /// Removes a legal move from its set (test-and-reset), so a later [`TargetSets::drain`]
    /// does not produce it again; true if it was there. The move must be legal here: for an
    /// illegal one the bit may stand for another piece's move.
    pub fn remove<O: crate::attacks::Occupancy>(&mut self, board: &Board<O>, mv: Move) -> bool {
        if mv.is_castle() || mv.is_en_passant() {
            let before = self.specials.len();
            self.specials.retain(|&m| m != mv);
            return self.specials.len() != before;
        }
        let (from, to) = (mv.from(), mv.to());
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        match board.piece_type_on(from) {
            Some(PieceType::Pawn) => {
                let set = match df {
                    0 if mv.is_double_push() => PawnSet::DoublePush,
                    0 => PawnSet::Push,
                    -1 => PawnSet::CaptureWest,
                    _ => PawnSet::CaptureEast,
                };
                match mv.promotion() {
                    Some(piece) => PROMOTION_PIECES
                        .iter()
                        .position(|&p| p == piece)
                        .is_some_and(|i| self.promotions[set as usize][i].test_and_reset(to)),
                    None => self.pawns[set as usize].test_and_reset(to),
                }
            }
            Some(PieceType::Knight) => match KNIGHT_STEPS.iter().position(|&s| s == (df, dr)) {
                Some(k) => self.knights[k].test_and_reset(to),
                None => false,
            },
            Some(_) => {
                let step = (df.signum(), dr.signum());
                match Direction::ALL.iter().find(|d| d.step() == step) {
                    Some(&dir) => self.rays[dir as usize].test_and_reset(to),
                    None => false,
                }
            }
            None => false,
        }
    }
}
