use crate::types::Move;
use arrayvec::ArrayVec;

/// More than any position the FEN reader accepts can have (reachable positions have at most
/// 218). It refuses more promoted pieces than missing pawns (`Board::check_material`), and legal
/// moves keep that true, so a side has at most 9 queens, 2 rooks, 2 bishops, 2 knights and a
/// king, or fewer with pawns instead of queens. Each piece at its most mobile (the `tests`
/// below measure these from the attack tables), a queen beating the pawn it replaces (12:
/// three promotion squares, four pieces each), plus two castlings, gives this bound.
pub const MAX_MOVES: usize = 9 * QUEEN + 2 * ROOK + 2 * BISHOP + 2 * KNIGHT + KING + 2;

const QUEEN: usize = 27;
const ROOK: usize = 14;
const BISHOP: usize = 13;
const KNIGHT: usize = 8;
const KING: usize = 8;

/// A fixed-capacity move list on the stack, left uninitialised beyond its length (arrayvec),
/// so creating one per node costs nothing.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            // `new`, not `new_const`, as in the move picker (docs/speed.md).
            moves: ArrayVec::new(),
        }
    }

    /// Legal positions never exceed `MAX_MOVES`; a push beyond it panics.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.moves.contains(&mv)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        self.moves.retain(|mv| keep(mv));
    }

    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{Magic, SliderAttacks, king_attacks, knight_attacks};
    use crate::types::{Bitboard, Square};

    fn most(attacks: impl Fn(Square) -> Bitboard) -> usize {
        Square::ALL
            .iter()
            .map(|&sq| attacks(sq).count() as usize)
            .max()
            .unwrap()
    }

    #[test]
    fn the_capacity_bound_uses_the_real_mobilities() {
        let empty = Bitboard::EMPTY;
        assert_eq!(most(|sq| Magic::queen(sq, &empty)), QUEEN);
        assert_eq!(most(|sq| Magic::rook(sq, &empty)), ROOK);
        assert_eq!(most(|sq| Magic::bishop(sq, &empty)), BISHOP);
        assert_eq!(most(knight_attacks), KNIGHT);
        assert_eq!(most(king_attacks), KING);
    }
}
