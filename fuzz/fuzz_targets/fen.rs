//! Feeds arbitrary bytes to the FEN reader. A position it accepts must be sound and read back
//! from its own FEN; every sliding-attack back-end must count the same perft(2); both move
//! generators must give the same legal moves, each leaving a sound board; and both evaluations
//! must run. A FEN it refuses must only be refused. Any panic aborts and is reported by
//! libFuzzer.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quintessence::Board;
use quintessence::attacks::{Backend, Magic, SliderAttacks};
use quintessence::eval::nnue::{Accumulator, default_network};
use quintessence::eval::hce::{PawnCache, evaluate, evaluate_uncached};
use quintessence::movegen::{legal_moves, legal_moves_directional};
use quintessence::perft::perft;
use quintessence::with_backend;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(board) = Board::from_fen(text) else {
        return;
    };
    if let Err(e) = board.validate() {
        panic!("{text:?} was accepted but is not sound: {e}");
    }
    let written = board.to_fen();
    let again = Board::from_fen(&written)
        .unwrap_or_else(|e| panic!("{text:?} wrote {written:?}, which does not read: {e}"));
    assert!(
        again == board,
        "{text:?} and its own FEN {written:?} differ"
    );

    let reference = perft::<Magic>(&board, 2);
    for backend in Backend::available() {
        let count = with_backend!(backend, A => {
            perft::<A>(&board.with_occupancy::<<A as SliderAttacks>::Occ>(), 2)
        });
        assert_eq!(count, reference, "{written}: perft(2) by {backend}");
    }

    let mut piecewise: Vec<_> = legal_moves::<Magic>(&board).iter().copied().collect();
    let mut directional: Vec<_> = legal_moves_directional::<Magic>(&board)
        .iter()
        .copied()
        .collect();
    piecewise.sort_by_key(|m| m.raw());
    directional.sort_by_key(|m| m.raw());
    assert_eq!(piecewise, directional, "{written}: the two generators");
    for mv in piecewise {
        let mut child = board;
        child.play(mv);
        if let Err(e) = child.validate() {
            panic!("{written}: after {mv} the board is not sound: {e}");
        }
    }

    let mut cache = PawnCache::default();
    assert_eq!(
        evaluate::<Magic>(&board, &mut cache),
        evaluate_uncached::<Magic>(&board),
        "{written}: the pawn cache changed the evaluation"
    );
    let net = default_network();
    let _ = Accumulator::from_board(&net, &board).evaluate(&net, &board);
});
