//! Static exchange evaluation: does a capture sequence on one square, each side recapturing with
//! its least valuable piece and free to stop, win at least `threshold` for the mover?

use crate::attacks::{Occupancy, SliderAttacks};
use crate::board::Board;
use crate::types::{Bitboard, Move, PieceType, Square};

pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

#[inline]
fn value(kind: PieceType) -> i32 {
    SEE_VALUES[kind as usize]
}

/// True if `mv` wins at least `threshold` centipawns of material in the exchange it starts.
pub fn see_ge<A: SliderAttacks>(board: &Board<A::Occ>, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return threshold <= 0;
    }
    let from = mv.from();
    let to = mv.to();
    let captured_value = if mv.is_en_passant() {
        value(PieceType::Pawn)
    } else {
        board.piece_type_on(to).map_or(0, value)
    };
    let promotion_gain = mv
        .promotion()
        .map_or(0, |p| value(p) - value(PieceType::Pawn));

    // `swap` tracks the exchange's running balance, seen from the side about to recapture.
    let mut swap = captured_value + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    let moved = mv
        .promotion()
        .unwrap_or_else(|| board.piece_type_on(from).unwrap_or(PieceType::Pawn));
    // Even if the moved piece is lost, are we still above the threshold?
    swap = value(moved) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = board.occupancy().toggled(from);
    if mv.is_en_passant() {
        occ.toggle(mv.captured_square());
    }
    if !board.occupied().contains(to) {
        occ.toggle(to);
    }
    let diagonal = board.pieces(PieceType::Bishop) | board.pieces(PieceType::Queen);
    let orthogonal = board.pieces(PieceType::Rook) | board.pieces(PieceType::Queen);
    let mut attackers = board.attackers_to::<A>(to, &occ);
    let mut side = board.side_to_move();
    // 1 while the exchange so far favours the mover.
    let mut result = 1;

    loop {
        side = !side;
        attackers &= occ.bitboard();
        let ours = attackers & board.colored(side);
        if ours.is_empty() {
            break;
        }
        result ^= 1;
        let (kind, sq) = least_valuable(board, ours);
        if kind == PieceType::King {
            // The king may only capture last: if the square is still defended, it cannot.
            return if (attackers & !board.colored(side)).any() {
                result ^ 1 == 1
            } else {
                result == 1
            };
        }
        swap = value(kind) - swap;
        if swap < result {
            break;
        }
        occ.toggle(sq);
        // Sliders behind the recapturing piece join in.
        match kind {
            PieceType::Pawn | PieceType::Bishop => attackers |= A::bishop(to, &occ) & diagonal,
            PieceType::Rook => attackers |= A::rook(to, &occ) & orthogonal,
            PieceType::Queen => {
                attackers |= (A::bishop(to, &occ) & diagonal) | (A::rook(to, &occ) & orthogonal)
            }
            _ => {}
        }
    }
    result == 1
}

fn least_valuable<O: Occupancy>(board: &Board<O>, set: Bitboard) -> (PieceType, Square) {
    for kind in PieceType::ALL {
        let pieces = set & board.pieces(kind);
        if pieces.any() {
            return (kind, pieces.lsb());
        }
    }
    unreachable!("the set is not empty")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::board::Board;
    use crate::game::parse_uci_move;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let board = Board::from_fen(fen).unwrap();
        let mv = parse_uci_move(&board, mv, false).unwrap();
        see_ge::<Magic>(&board, mv, threshold)
    }

    #[test]
    fn undefended_pawn_wins_a_pawn() {
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
    }

    #[test]
    fn defended_pawn_costs_the_rook() {
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", -300));
    }

    #[test]
    fn quiet_move_to_an_attacked_square_loses_the_piece() {
        let fen = "k7/8/8/3p4/8/8/8/4RK2 w - - 0 1";
        assert!(!see(fen, "e1e4", 0));
        assert!(see(fen, "e1e4", -500));
        assert!(see(fen, "e1e3", 0));
    }

    #[test]
    fn king_cannot_recapture_a_defended_piece() {
        // Qxe2+ is defended by the rook on e8: Kxe2 is illegal, so the queen wins the pawn.
        let fen = "4r1k1/8/8/8/8/3q4/4P3/4K3 b - - 0 1";
        assert!(see(fen, "d3e2", 100));
        // Without the rook the king recaptures: queen for pawn.
        let fen = "6k1/8/8/8/8/3q4/4P3/4K3 b - - 0 1";
        assert!(!see(fen, "d3e2", 0));
    }
}
