//! The staged move picker: hash move, good captures, killers, counter move, quiets by history,
//! bad captures. Each stage generates only when it is reached, so a cut-off by the hash move
//! costs no generation at all. Every stage's moves come from the direction-wise target sets; the
//! hash move, killers and counter move already tried are taken out of those sets by
//! test-and-reset, so no move is searched twice.

use super::history::{History, QuietContext};
use super::params::{PICKER_PROMOTION_SEE, PICKER_SEE_DIVISOR};
use super::see::{SEE_VALUES, see_ge};
use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::movegen::{GenType, MAX_MOVES, MoveList, directional::TargetSets, is_legal};
use crate::types::{Move, PieceType};
use arrayvec::ArrayVec;

/// A capture's ordering score: its victim's SEE value times this, plus its capture history
/// (within ±16,384).
const VICTIM_WEIGHT: i32 = 16;
/// Added to a queen promotion's score: a quiet one comes before captures of minor pieces.
const QUEEN_PROMOTION_BONUS: i32 = 8_000;
/// Taken from an under-promotion's score: after the other noisy moves.
const UNDER_PROMOTION_MALUS: i32 = 8_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiet,
    Quiets,
    BadNoisy,
    Done,
}

#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    score: i32,
}

/// Moves with ordering scores, uninitialised beyond their length (arrayvec) so a picker per
/// node is cheap.
struct ScoredMoves {
    entries: ArrayVec<Scored, MAX_MOVES>,
}

impl ScoredMoves {
    fn new() -> Self {
        ScoredMoves {
            // `new`, not `new_const`: the const one's uninitialised array was compiled to a
            // 5 KB memset in every node (docs/speed.md).
            entries: ArrayVec::new(),
        }
    }

    fn push(&mut self, mv: Move, score: i32) {
        self.entries.push(Scored { mv, score });
    }

    fn as_slice(&self) -> &[Scored] {
        &self.entries
    }

    fn as_mut_slice(&mut self) -> &mut [Scored] {
        &mut self.entries
    }

    /// The entry at `index`; panics beyond `len`.
    fn get(&self, index: usize) -> Scored {
        self.as_slice()[index]
    }

    /// Swaps the best-scored move from `index` on into `index` (a lazy selection sort).
    fn select_best(&mut self, index: usize) -> Scored {
        let entries = &mut self.as_mut_slice()[index..];
        let (mut best, mut best_score) = (0, entries[0].score);
        for (i, entry) in entries.iter().enumerate().skip(1) {
            if entry.score > best_score {
                best = i;
                best_score = entry.score;
            }
        }
        entries.swap(0, best);
        entries[0]
    }
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Moves already returned by the hash-move/killer/counter stages.
    tried_specials: [Move; 4],
    noisy: ScoredMoves,
    noisy_index: usize,
    bad_noisy: ScoredMoves,
    bad_index: usize,
    quiets: ScoredMoves,
    quiet_index: usize,
    /// Quiescence search: captures (and promotions) only, bad ones dropped.
    noisy_only: bool,
    /// Set by the search once late-move pruning would drop every remaining quiet move.
    skip_quiets: bool,
}

impl MovePicker {
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            tried_specials: [Move::NULL; 4],
            noisy: ScoredMoves::new(),
            noisy_index: 0,
            bad_noisy: ScoredMoves::new(),
            bad_index: 0,
            quiets: ScoredMoves::new(),
            quiet_index: 0,
            noisy_only: false,
            skip_quiets: false,
        }
    }

    /// For quiescence: the hash move if it is noisy, then the captures that do not lose material.
    pub fn quiescence(tt_move: Move) -> MovePicker {
        let tt_move = if tt_move.is_quiet() {
            Move::NULL
        } else {
            tt_move
        };
        let mut picker = MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL);
        picker.noisy_only = true;
        picker
    }

    /// From now on no quiet moves: the killer, counter and quiet stages are passed by.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn already_tried(&self, mv: Move) -> bool {
        self.tried_specials.contains(&mv)
    }

    fn remember(&mut self, mv: Move) {
        if let Some(slot) = self.tried_specials.iter_mut().find(|m| m.is_null()) {
            *slot = mv;
        }
    }

    /// The moves of `kind` into `list`, less those already returned (test-and-reset on the
    /// target sets).
    #[inline]
    fn generate<A: SliderAttacks>(
        &self,
        board: &Board<A::Occ>,
        kind: GenType,
        list: &mut MoveList,
    ) {
        let mut sets = TargetSets::new::<A>(board, kind);
        // Only legal moves are remembered, as `remove` requires.
        for mv in self.tried_specials {
            if !mv.is_null() {
                sets.remove(board, mv);
            }
        }
        sets.drain(list);
    }

    /// The next move to search, or `None` when all are done.
    pub fn next<A: SliderAttacks>(
        &mut self,
        board: &Board<A::Occ>,
        history: &History,
        context: &QuietContext,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Killer1
                | Stage::Killer2
                | Stage::Counter
                | Stage::GenerateQuiet
                | Stage::Quiets
                    if self.skip_quiets =>
                {
                    self.stage = Stage::BadNoisy;
                }
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if is_legal::<A>(board, self.tt_move) {
                        self.remember(self.tt_move);
                        return Some(self.tt_move);
                    }
                }
                Stage::GenerateNoisy => {
                    let mut list = MoveList::new();
                    self.generate::<A>(board, GenType::Noisy, &mut list);
                    for &mv in list.iter() {
                        self.noisy.push(mv, noisy_score(board, history, mv));
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if self.noisy_index < self.noisy.entries.len() {
                        let Scored { mv, score } = self.noisy.select_best(self.noisy_index);
                        self.noisy_index += 1;
                        // Losing captures wait until after the quiet moves.
                        let threshold = if mv.promotion() == Some(PieceType::Queen) {
                            -PICKER_PROMOTION_SEE.get()
                        } else {
                            -score / PICKER_SEE_DIVISOR.get()
                        };
                        if see_ge::<A>(board, mv, threshold.min(0)) {
                            return Some(mv);
                        }
                        self.bad_noisy.push(mv, score);
                        continue;
                    }
                    self.stage = if self.noisy_only {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let mv = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenerateQuiet,
                    };
                    if mv.is_quiet() && !self.already_tried(mv) && is_legal::<A>(board, mv) {
                        self.remember(mv);
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiet => {
                    let mut list = MoveList::new();
                    self.generate::<A>(board, GenType::Quiet, &mut list);
                    let us = board.side_to_move();
                    for &mv in list.iter() {
                        let piece = board.piece_on(mv.from()).expect("a mover");
                        self.quiets
                            .push(mv, history.quiet_score(us, mv, piece, context));
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.quiet_index < self.quiets.entries.len() {
                        let mv = self.quiets.select_best(self.quiet_index).mv;
                        self.quiet_index += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad_noisy.entries.len() {
                        let mv = self.bad_noisy.get(self.bad_index).mv;
                        self.bad_index += 1;
                        return Some(mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Most valuable victim first, then capture history; promotions by the new piece.
fn noisy_score<O: crate::attacks::Occupancy>(board: &Board<O>, history: &History, mv: Move) -> i32 {
    let piece = board.piece_on(mv.from()).expect("a mover");
    let victim = if mv.is_en_passant() {
        PieceType::Pawn
    } else {
        board.piece_type_on(mv.to()).unwrap_or(PieceType::Pawn)
    };
    let mut score = if mv.is_capture() {
        SEE_VALUES[victim as usize] * VICTIM_WEIGHT + history.capture_score(piece, mv.to(), victim)
    } else {
        0
    };
    if let Some(promo) = mv.promotion() {
        score += if promo == PieceType::Queen {
            QUEEN_PROMOTION_BONUS
        } else {
            -UNDER_PROMOTION_MALUS
        };
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::game::parse_uci_move;

    fn picked(picker: &mut MovePicker, board: &Board, skip_after: usize) -> Vec<Move> {
        let history = History::default();
        let mut moves = Vec::new();
        while let Some(mv) = picker.next::<Magic>(board, &history, &QuietContext::default()) {
            moves.push(mv);
            if moves.len() == skip_after {
                picker.skip_quiets();
            }
        }
        moves
    }

    #[test]
    fn skipping_quiets_leaves_only_the_captures() {
        // Qxd5 loses the queen to cxd5 (a bad capture), Nxa5 wins a pawn (a good one).
        let board = Board::from_fen("k7/8/2p5/p2p4/8/1N6/8/3QK3 w - - 0 1").unwrap();
        let mv = |text| parse_uci_move(&board, text, false).unwrap();
        let killers = [mv("e1f2"), Move::NULL];
        let all = picked(
            &mut MovePicker::new(Move::NULL, killers, Move::NULL),
            &board,
            0,
        );
        assert!(all.contains(&mv("e1f2")) && all.iter().filter(|m| m.is_quiet()).count() > 10);
        // Skipped after the first move (the good capture): the killer and quiets never come.
        let some = picked(
            &mut MovePicker::new(Move::NULL, killers, Move::NULL),
            &board,
            1,
        );
        assert_eq!(some, vec![mv("b3a5"), mv("d1d5")]);
    }
}
