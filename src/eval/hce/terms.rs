//! What the evaluation looks at. Every term goes through a [`TermSink`]: the engine sums
//! parameter values, the tuner records how often each term occurs (its coefficient), so one piece
//! of code defines both the evaluation and what the tuner fits.

use super::layout::*;
use super::masks::{adjacent_files, file_of, front_span, passed_span, support_span};
use super::{MAX_PHASE, Taper};
use crate::attacks::{SliderAttacks, king_attacks, knight_attacks, pawn_attacks_set};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

pub trait TermSink {
    /// Term `term` occurs `count` times for the side with `sign` (+1 White, -1 Black).
    fn add(&mut self, term: usize, sign: i32, count: i32);
}

/// Coefficients of every term (White minus Black): what the tuner fits the weights to.
pub struct Trace {
    pub coefficients: Vec<i32>,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            coefficients: vec![0; COUNT],
        }
    }
}

impl TermSink for Trace {
    fn add(&mut self, term: usize, sign: i32, count: i32) {
        self.coefficients[term] += sign * count;
    }
}

/// Attack information gathered while evaluating pieces, used by threats and king safety.
#[derive(Default)]
struct Attacks {
    by_pawns: [Bitboard; 2],
    by_minors: [Bitboard; 2],
    by_rooks: [Bitboard; 2],
    all: [Bitboard; 2],
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Adds every term of `board` to `acc`; returns how to blend middlegame and endgame.
pub fn evaluate_terms<A: SliderAttacks, T: TermSink>(board: &Board<A::Occ>, acc: &mut T) -> Taper {
    let passed = pawn_terms(board, acc);
    piece_terms::<A, T>(board, acc, passed)
}

/// The terms that depend on the pawns alone (the engine caches them); returns the passed pawns.
pub fn pawn_terms<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    acc: &mut T,
) -> Bitboard {
    let mut passed = Bitboard::EMPTY;
    for color in Color::ALL {
        passed |= pawn_structure(board, color, acc);
    }
    passed
}

/// Everything but the pawn-only terms, given the passed pawns.
pub fn piece_terms<A: SliderAttacks, T: TermSink>(
    board: &Board<A::Occ>,
    acc: &mut T,
    passed: Bitboard,
) -> Taper {
    let mut attacks = Attacks::default();
    for color in Color::ALL {
        attacks.by_pawns[color as usize] =
            pawn_attacks_set(color, board.pieces_of(color, PieceType::Pawn));
    }
    for color in Color::ALL {
        material_and_squares(board, color, acc);
        pieces::<A, T>(board, color, &mut attacks, acc);
    }
    for color in Color::ALL {
        king_safety(board, color, acc);
        threats(board, color, &attacks, acc);
        passed_pawns(board, color, passed & board.colored(color), acc);
    }
    acc.add(TEMPO, board.side_to_move().sign(), 1);
    Taper {
        phase: phase(board),
        scale: [
            endgame_scale(board, Color::White),
            endgame_scale(board, Color::Black),
        ],
    }
}

fn phase<O: crate::attacks::Occupancy>(board: &Board<O>) -> i32 {
    let minors = (board.pieces(PieceType::Knight) | board.pieces(PieceType::Bishop)).count() as i32;
    let rooks = board.pieces(PieceType::Rook).count() as i32;
    let queens = board.pieces(PieceType::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(MAX_PHASE)
}

/// When `winner` is ahead: without pawns and at most a minor piece up it rarely wins, so the
/// endgame score shrinks (of 128).
fn endgame_scale<O: crate::attacks::Occupancy>(board: &Board<O>, winner: Color) -> i32 {
    let value = |c: Color| {
        3 * (board.pieces_of(c, PieceType::Knight) | board.pieces_of(c, PieceType::Bishop)).count()
            as i32
            + 5 * board.pieces_of(c, PieceType::Rook).count() as i32
            + 9 * board.pieces_of(c, PieceType::Queen).count() as i32
    };
    let lead = value(winner) - value(!winner);
    if board.pieces_of(winner, PieceType::Pawn).is_empty() && lead <= 3 {
        return if value(winner) <= 3 { 0 } else { 16 };
    }
    128
}

fn material_and_squares<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    color: Color,
    acc: &mut T,
) {
    let sign = color.sign();
    for kind in PieceType::ALL {
        let pieces = board.pieces_of(color, kind);
        acc.add(MATERIAL + kind as usize, sign, pieces.count() as i32);
        for sq in pieces {
            acc.add(
                PST + kind as usize * 64 + sq.relative_to(color) as usize,
                sign,
                1,
            );
        }
    }
    if board.pieces_of(color, PieceType::Bishop).more_than_one() {
        acc.add(BISHOP_PAIR, sign, 1);
    }
}

fn pawn_structure<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    color: Color,
    acc: &mut T,
) -> Bitboard {
    let mut passed = Bitboard::EMPTY;
    let sign = color.sign();
    let ours = board.pieces_of(color, PieceType::Pawn);
    let theirs = board.pieces_of(!color, PieceType::Pawn);
    let our_attacks = pawn_attacks_set(color, ours);
    let their_attacks = pawn_attacks_set(!color, theirs);
    for sq in ours {
        let rank = sq.rank().relative_to(color) as usize;
        if (ours & adjacent_files(sq)).is_empty() {
            acc.add(ISOLATED_PAWN, sign, 1);
        }
        if (ours & front_span(color, sq)).any() {
            acc.add(DOUBLED_PAWN, sign, 1);
        }
        let phalanx = (ours & adjacent_files(sq) & Bitboard::rank(sq.rank())).any();
        let supported = our_attacks.contains(sq);
        if phalanx || supported {
            acc.add(CONNECTED_PAWN + rank, sign, 1);
        }
        // Backward: no pawn beside or behind can support it, and its stop square is guarded.
        let stop =
            Square::from_index((sq as i32 + if color == Color::White { 8 } else { -8 }) as usize);
        if (ours & support_span(color, sq)).is_empty()
            && (ours & adjacent_files(sq)).any()
            && their_attacks.contains(stop)
        {
            acc.add(BACKWARD_PAWN, sign, 1);
        }
        if (theirs & passed_span(color, sq)).is_empty() && (ours & front_span(color, sq)).is_empty()
        {
            acc.add(PASSED_PAWN + rank, sign, 1);
            passed |= sq;
        }
    }
    passed
}

/// What a passed pawn's worth depends on beyond the pawns: its path and the kings.
fn passed_pawns<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    color: Color,
    passed: Bitboard,
    acc: &mut T,
) {
    let sign = color.sign();
    let our_king = board.king(color);
    let their_king = board.king(!color);
    for sq in passed {
        let rank = sq.rank().relative_to(color) as usize;
        if (board.occupied() & front_span(color, sq)).is_empty() {
            acc.add(PASSED_FREE_PATH + rank, sign, 1);
        }
        let stop =
            Square::from_index((sq as i32 + if color == Color::White { 8 } else { -8 }) as usize);
        acc.add(
            PASSED_OWN_KING_DISTANCE + rank,
            sign,
            distance(our_king, stop),
        );
        acc.add(
            PASSED_ENEMY_KING_DISTANCE + rank,
            sign,
            distance(their_king, stop),
        );
    }
}

fn pieces<A: SliderAttacks, T: TermSink>(
    board: &Board<A::Occ>,
    color: Color,
    attacks: &mut Attacks,
    acc: &mut T,
) {
    let sign = color.sign();
    let occ = board.occupancy();
    let them = !color;
    let c = color as usize;
    let mobility_area = !(board.pieces_of(color, PieceType::Pawn)
        | board.pieces_of(color, PieceType::King))
        & !attacks.by_pawns[them as usize];
    let enemy_zone = king_attacks(board.king(them)) | board.king(them);
    let our_pawns = board.pieces_of(color, PieceType::Pawn);
    let all_pawns = board.pieces(PieceType::Pawn);
    let mut attackers = 0;
    attacks.all[c] |= attacks.by_pawns[c] | king_attacks(board.king(color));

    for (kind, table) in [
        (PieceType::Knight, KNIGHT_MOBILITY),
        (PieceType::Bishop, BISHOP_MOBILITY),
        (PieceType::Rook, ROOK_MOBILITY),
        (PieceType::Queen, QUEEN_MOBILITY),
    ] {
        for sq in board.pieces_of(color, kind) {
            let reach = match kind {
                PieceType::Knight => knight_attacks(sq),
                PieceType::Bishop => A::bishop(sq, occ),
                PieceType::Rook => A::rook(sq, occ),
                _ => A::queen(sq, occ),
            };
            acc.add(table + (reach & mobility_area).count() as usize, sign, 1);
            attacks.all[c] |= reach;
            match kind {
                PieceType::Knight | PieceType::Bishop => attacks.by_minors[c] |= reach,
                PieceType::Rook => attacks.by_rooks[c] |= reach,
                _ => {}
            }
            let zone_hits = (reach & enemy_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                // A penalty for the side whose king is attacked.
                acc.add(KING_ZONE_ATTACKS + kind as usize, -sign, zone_hits);
            }
            if kind == PieceType::Rook {
                let file = file_of(sq);
                if (file & all_pawns).is_empty() {
                    acc.add(ROOK_OPEN_FILE, sign, 1);
                } else if (file & our_pawns).is_empty() {
                    acc.add(ROOK_SEMI_OPEN_FILE, sign, 1);
                }
            }
        }
    }
    acc.add(KING_ATTACKERS + attackers.min(7), -sign, 1);
}

fn king_safety<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    color: Color,
    acc: &mut T,
) {
    let sign = color.sign();
    let king = board.king(color);
    let our_pawns = board.pieces_of(color, PieceType::Pawn);
    let all_pawns = board.pieces(PieceType::Pawn);
    let files = file_of(king) | adjacent_files(king);
    let forward = if color == Color::White { 8 } else { -8 };
    for file_sq in (files & Bitboard::rank(king.rank())).into_iter() {
        let one = file_sq.offset(0, forward / 8);
        let two = file_sq.offset(0, 2 * forward / 8);
        if one.is_some_and(|s| our_pawns.contains(s)) {
            acc.add(KING_SHIELD, sign, 1);
        } else if two.is_some_and(|s| our_pawns.contains(s)) {
            acc.add(KING_SHIELD + 1, sign, 1);
        } else if (our_pawns & front_span(color, file_sq)).is_empty() {
            acc.add(KING_SHIELD + 2, sign, 1);
        }
        if (all_pawns & file_of(file_sq)).is_empty() {
            acc.add(KING_OPEN_FILE, sign, 1);
        }
    }
}

fn threats<O: crate::attacks::Occupancy, T: TermSink>(
    board: &Board<O>,
    color: Color,
    attacks: &Attacks,
    acc: &mut T,
) {
    let sign = color.sign();
    let c = color as usize;
    let them = !color;
    for kind in PieceType::ALL {
        let victims = board.pieces_of(them, kind);
        if victims.is_empty() {
            continue;
        }
        let by_pawn = (victims & attacks.by_pawns[c]).count() as i32;
        let by_minor = (victims & attacks.by_minors[c]).count() as i32;
        let by_rook = (victims & attacks.by_rooks[c]).count() as i32;
        if by_pawn > 0 {
            acc.add(THREAT_BY_PAWN + kind as usize, sign, by_pawn);
        }
        if by_minor > 0 {
            acc.add(THREAT_BY_MINOR + kind as usize, sign, by_minor);
        }
        if by_rook > 0 {
            acc.add(THREAT_BY_ROOK + kind as usize, sign, by_rook);
        }
    }
    let targets =
        board.colored(them) & !board.pieces(PieceType::Pawn) & !board.pieces(PieceType::King);
    let hanging = (targets & attacks.all[c] & !attacks.all[them as usize]).count() as i32;
    if hanging > 0 {
        acc.add(HANGING, sign, hanging);
    }
}
