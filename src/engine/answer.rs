//! The `bestmove` of the search in progress, kept where the front-end's own thread can send it
//! on `stop`: with more search threads than cores, handing `stop` on to another thread can wait
//! many time slices before that thread runs. Whoever sends it first sends it; `info` lines go
//! through here too, so none can follow the `bestmove`.

use super::fault::inject;
use super::job::SearchJob;
use crate::attacks::Magic;
use crate::game::Game;
use crate::movegen::{legal_moves, legal_moves_directional};
use crate::protocol::{Event, Output};
use crate::search::{Heartbeat, Limits, SearchControl, SearchInfo, SearchResult};
use crate::types::Move;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[derive(Default)]
pub struct Answer {
    slot: Mutex<Option<Pending>>,
}

/// The search job whose `bestmove` is due.
struct Pending {
    job: Arc<SearchJob>,
    sent: bool,
}

impl Pending {
    /// Sends `result`, made legal (or, should the check panic, the other generator's first
    /// legal move).
    fn send(&mut self, output: &Output, result: SearchResult) {
        let job = &self.job;
        let (best, ponder) = safe_answer(&job.game, &job.limits, result);
        output.send(Event::BestMove {
            best,
            ponder: ponder.filter(|_| job.show_ponder),
            chess960: job.chess960(),
        });
        self.sent = true;
    }
}

impl Answer {
    /// Engine thread: `job` starts.
    pub fn open(&self, job: &Arc<SearchJob>) {
        *self.lock() = Some(Pending {
            job: Arc::clone(job),
            sent: false,
        });
    }

    /// Engine thread: an `info` line, unless the `bestmove` has gone.
    pub fn info(&self, output: &Output, info: &SearchInfo) {
        let slot = self.lock();
        if let Some(pending) = slot.as_ref().filter(|p| !p.sent) {
            output.send(Event::Info {
                info: Box::new(info.clone()),
                chess960: pending.job.chess960(),
            });
        }
    }

    /// Engine thread: a long search's line between iterations, unless the `bestmove` has gone.
    pub fn heartbeat(&self, output: &Output, beat: &Heartbeat) {
        let slot = self.lock();
        if let Some(pending) = slot.as_ref().filter(|p| !p.sent) {
            output.send(Event::Heartbeat {
                beat: *beat,
                chess960: pending.job.chess960(),
            });
        }
    }

    /// Engine thread: the final answer, unless the `bestmove` has gone.
    pub fn finish(&self, output: &Output, result: SearchResult) {
        if let Some(pending) = self.lock().as_mut().filter(|p| !p.sent) {
            pending.send(output, result);
        }
    }

    /// Front-end, on `stop` of job `id`: sends the answer so far when that job is the one
    /// running and has one (in `control`, where the search publishes it; a strength limit's
    /// only once chosen). Otherwise the engine thread answers.
    pub fn stop(&self, output: &Output, id: u64, control: &SearchControl) {
        if let Some(pending) = self.lock().as_mut().filter(|p| p.job.id == id && !p.sent)
            // Read under the lock, after `open`: the engine thread armed `control` for this
            // job before opening it, so the answer is not the previous job's.
            && let Some(best) = control.answer()
        {
            pending.send(output, best);
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Pending>> {
        // A panic while holding the lock leaves a slot that is still consistent.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The `bestmove` of a search: [`legal_answer`], or if that panics the first legal move of the
/// other move generator, or if that panics too the null move; it never panics itself.
fn safe_answer(game: &Game, limits: &Limits, result: SearchResult) -> (Move, Option<Move>) {
    catch_unwind(AssertUnwindSafe(|| {
        inject("answer");
        legal_answer(game, limits, result)
    }))
    .or_else(|_| {
        catch_unwind(|| {
            let moves = legal_moves_directional::<Magic>(game.board());
            (moves.first().copied().unwrap_or(Move::NULL), None)
        })
    })
    .unwrap_or((Move::NULL, None))
}

/// The search's answer, made safe: a legal best move (from `searchmoves` when given) unless
/// there is none, and a ponder move only when it is legal after it.
fn legal_answer(game: &Game, limits: &Limits, result: SearchResult) -> (Move, Option<Move>) {
    let board = game.board();
    let legal = legal_moves::<Magic>(board);
    let Some(&first) = legal.iter().next() else {
        return (Move::NULL, None);
    };
    let best = if legal.iter().any(|&m| m == result.best) {
        result.best
    } else {
        let fallback = limits
            .searchmoves
            .iter()
            .copied()
            .find(|m| legal.iter().any(|l| l == m))
            .unwrap_or(first);
        if result.best.is_null() {
            log::warn!(
                "the search returned no move in {}: playing {} instead",
                board.to_fen(),
                fallback.to_uci(true)
            );
        } else {
            log::error!(
                "the search returned {} in {}, which is not legal: playing {} instead",
                result.best.to_uci(true),
                board.to_fen(),
                fallback.to_uci(true)
            );
        }
        fallback
    };
    let ponder = result.ponder.filter(|&p| {
        let mut child = *board;
        child.play(best);
        legal_moves::<Magic>(&child).iter().any(|&m| m == p)
    });
    (best, ponder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::game::parse_uci_move;
    use crate::protocol::Captured;

    #[test]
    fn illegal_or_missing_moves_are_replaced_by_legal_ones() {
        let game = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let other = Board::startpos();
        let foreign = parse_uci_move(&other, "e2e4", false).unwrap();
        let (best, ponder) = legal_answer(
            &game,
            &Limits::default(),
            SearchResult {
                best: foreign,
                ponder: Some(foreign),
            },
        );
        assert!(
            legal_moves::<Magic>(game.board())
                .iter()
                .any(|&m| m == best)
        );
        assert_eq!(ponder, None);
        let (best, _) = legal_answer(&game, &Limits::default(), SearchResult::NONE);
        assert!(!best.is_null());
    }

    #[test]
    fn stop_sends_what_the_control_holds_once_and_only_for_its_own_job() {
        let captured = Captured::default();
        let output = Output::new(Box::new(captured.clone()));
        let game = Game::from_fen(crate::board::START_FEN).unwrap();
        let (answer, control) = (Answer::default(), SearchControl::new());
        control.start(7, false);
        answer.open(&Arc::new(SearchJob {
            id: 7,
            game: game.clone(),
            limits: Limits::default(),
            config: crate::search::SearchConfig::default(),
            show_ponder: false,
            received: std::time::Instant::now(),
        }));
        // Nothing published yet (or a strength limit still choosing): the engine thread answers.
        answer.stop(&output, 7, &control);
        assert_eq!(captured.text(), "");
        let e2e4 = parse_uci_move(game.board(), "e2e4", false).unwrap();
        control.publish(SearchResult {
            best: e2e4,
            ponder: None,
        });
        // A stop of an earlier job sends nothing.
        answer.stop(&output, 6, &control);
        assert_eq!(captured.text(), "");
        answer.stop(&output, 7, &control);
        assert_eq!(captured.text(), "bestmove e2e4\n");
        // Whoever is second sends nothing: one bestmove a go.
        answer.finish(&output, SearchResult::NONE);
        answer.stop(&output, 7, &control);
        assert_eq!(captured.text(), "bestmove e2e4\n");
    }

    #[test]
    fn no_legal_move_gives_the_null_move() {
        let mated = Game::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .unwrap();
        let result = SearchResult::NONE;
        assert_eq!(
            legal_answer(&mated, &Limits::default(), result),
            (Move::NULL, None)
        );
    }
}
