use crate::types::Move;
use std::mem::MaybeUninit;

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

/// A fixed-capacity move list on the stack, left uninitialised beyond `len` so creating one
/// per node costs nothing.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        // Legal positions never exceed MAX_MOVES; the bound check stays for safety.
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.as_slice()[i];
            if keep(&mv) {
                self.as_mut_slice()[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    pub fn clear(&mut self) {
        self.len = 0;
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
