//! The staged move picker and the target sets it rests on, over the perft suites and random
//! games from them: drained with random hash moves, killers and counter moves (legal ones,
//! moves of other positions and garbage bit patterns), the picker returns every legal move
//! exactly once, never an illegal one, and the hash move first; `TargetSets::remove` takes out
//! exactly the move asked for.

mod common;

use common::{Rng, load_epd};
use quintessence::attacks::{Magic, Rotated, SliderAttacks};
use quintessence::board::Board;
use quintessence::movegen::{GenType, MoveList, directional::TargetSets, legal_moves};
use quintessence::search::{History, MovePicker, PieceMove, QuietContext};
use quintessence::types::{Move, Piece, Square};
use std::collections::HashSet;

/// Positions: every suite position, and the positions of a short random game from each.
fn positions(rng: &mut Rng) -> Vec<Board> {
    let mut cases = load_epd("perft/standard.epd");
    cases.extend(load_epd("perft/chess960.epd").into_iter().step_by(3));
    let mut boards = Vec::new();
    for case in &cases {
        let mut board = Board::from_fen(&case.fen).unwrap();
        for _ in 0..12 {
            boards.push(board);
            let moves = legal_moves::<Magic>(&board);
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(boards.len() > 5_000, "only {} positions", boards.len());
    boards
}

/// A hash move, killer or counter move as the search might hand one over: none, a legal move,
/// a move of another position (usually illegal here), or any bit pattern a move can have.
fn candidate(rng: &mut Rng, legal: &MoveList, foreign: &[Move]) -> Move {
    match rng.below(4) {
        0 => Move::NULL,
        1 if !legal.is_empty() => legal[rng.below(legal.len())],
        2 if !foreign.is_empty() => foreign[rng.below(foreign.len())],
        _ => loop {
            if let Some(mv) = Move::from_raw(rng.next_u64() as u16) {
                break mv;
            }
        },
    }
}

/// Histories with some random cut-offs recorded, so the ordering scores differ.
fn trained_history(rng: &mut Rng, boards: &[Board]) -> History {
    let mut history = History::default();
    for _ in 0..2_000 {
        let board = &boards[rng.below(boards.len())];
        let quiets: Vec<Move> = legal_moves::<Magic>(board)
            .iter()
            .copied()
            .filter(|m| m.is_quiet())
            .collect();
        if quiets.len() < 2 {
            continue;
        }
        let with_piece = |mv: Move| (mv, board.piece_on(mv.from()).unwrap());
        let tried: Vec<(Move, Piece)> = quiets[1..].iter().map(|&m| with_piece(m)).collect();
        let context = QuietContext::default();
        let depth = 1 + rng.below(12) as i32;
        let best = with_piece(quiets[0]);
        history.reward_quiet(board.side_to_move(), 0, best, &tried, &context, depth);
    }
    history
}

fn random_previous_moves(rng: &mut Rng) -> [Option<PieceMove>; 2] {
    let mut one = || {
        (rng.below(3) != 0).then(|| PieceMove {
            piece: Piece::from_char("PNBRQKpnbrqk".as_bytes()[rng.below(12)] as char).unwrap(),
            to: Square::from_index(rng.below(64)),
        })
    };
    [one(), one()]
}

/// Drains `picker` in `board`, checking each move as it comes: legal, never twice.
fn drain<A: SliderAttacks>(
    mut picker: MovePicker,
    board: &Board<A::Occ>,
    history: &History,
    context: &QuietContext,
    legal: &HashSet<Move>,
    what: &str,
) -> Vec<Move> {
    let mut returned = Vec::new();
    let mut seen = HashSet::new();
    while let Some(mv) = picker.next::<A>(board, history, context) {
        assert!(legal.contains(&mv), "{what}: illegal {mv:?}");
        assert!(seen.insert(mv), "{what}: {mv:?} twice");
        returned.push(mv);
        assert!(
            returned.len() <= legal.len(),
            "{what}: more moves than legal"
        );
    }
    returned
}

fn check_picker<A: SliderAttacks>(
    board: &Board,
    rng: &mut Rng,
    history: &History,
    foreign: &[Move],
) {
    let occ_board = board.with_occupancy::<A::Occ>();
    let list = legal_moves::<Magic>(board);
    let legal: HashSet<Move> = list.iter().copied().collect();
    let tt = candidate(rng, &list, foreign);
    let killers = [
        candidate(rng, &list, foreign),
        candidate(rng, &list, foreign),
    ];
    let counter = candidate(rng, &list, foreign);
    let context = QuietContext {
        previous: random_previous_moves(rng),
        threats: occ_board.attacked_by::<A>(!board.side_to_move()),
    };
    let what = format!(
        "{} in {} (hash {tt:?}, killers {killers:?}, counter {counter:?})",
        A::NAME,
        board.to_fen()
    );

    let picker = MovePicker::new(tt, killers, counter);
    let all = drain::<A>(picker, &occ_board, history, &context, &legal, &what);
    assert_eq!(all.len(), legal.len(), "{what}: missing moves");
    if legal.contains(&tt) {
        assert_eq!(all[0], tt, "{what}: the hash move comes first");
    }

    // Quiescence: noisy moves only, the hash move first when it is a legal noisy move.
    let picker = MovePicker::quiescence(tt);
    let noisy = drain::<A>(picker, &occ_board, history, &context, &legal, &what);
    assert!(
        noisy.iter().all(|m| !m.is_quiet()),
        "{what}: quiet move in quiescence"
    );
    if legal.contains(&tt) && !tt.is_quiet() {
        assert_eq!(noisy[0], tt, "{what}: the noisy hash move comes first");
    }
}

#[test]
fn the_picker_returns_every_legal_move_once_and_the_hash_move_first() {
    let mut rng = Rng::new(0x00C0_FFEE_1234_5678);
    let boards = positions(&mut rng);
    let history = trained_history(&mut rng, &boards);
    let mut foreign: Vec<Move> = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        check_picker::<Magic>(board, &mut rng, &history, &foreign);
        if i % 4 == 0 {
            // Another occupancy representation, as the `Attacks` option can choose.
            check_picker::<Rotated>(board, &mut rng, &history, &foreign);
        }
        foreign = legal_moves::<Magic>(board).iter().copied().collect();
    }
}

/// Every legal move of `kind`, taken out of fresh sets, is reported there once and is then
/// missing, alone, from what the sets produce.
fn check_remove(board: &Board, kind: GenType) {
    let mut all = MoveList::new();
    TargetSets::new::<Magic>(board, kind).drain(&mut all);
    for &mv in all.iter() {
        let mut sets = TargetSets::new::<Magic>(board, kind);
        assert!(
            sets.remove(board, mv),
            "{mv:?} ({kind:?}) not found in {}",
            board.to_fen()
        );
        assert!(!sets.remove(board, mv), "{mv:?} removed twice");
        let mut rest = MoveList::new();
        sets.drain(&mut rest);
        let expected: Vec<Move> = all.iter().copied().filter(|&m| m != mv).collect();
        assert_eq!(
            rest.as_slice(),
            expected.as_slice(),
            "after removing {mv:?} ({kind:?}) in {}",
            board.to_fen()
        );
    }
}

#[test]
fn removing_a_move_from_the_target_sets_takes_out_that_move_only() {
    let mut rng = Rng::new(0x7E57_A2D5_E7E5_0001);
    let boards = positions(&mut rng);
    let mut promotions = 0;
    for board in &boards {
        for kind in [GenType::All, GenType::Noisy, GenType::Quiet] {
            check_remove(board, kind);
        }
        promotions += legal_moves::<Magic>(board)
            .iter()
            .filter(|m| m.is_promotion())
            .count();
    }
    assert!(promotions > 100, "only {promotions} promotions tried");
}
