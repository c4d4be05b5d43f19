//! The search thread: owns the [`Searcher`] (transposition table, histories), runs one job at a
//! time from the command channel, and sends `info` and `bestmove` to the writer.
//!
//! `go infinite` and `go ponder` searches may finish before the GUI says `stop` or
//! `ponderhit`; their `bestmove` is then held, waiting on the channel, until it does. Every
//! `bestmove` is checked against the legal moves before it leaves: a search bug costs strength,
//! never an illegal move, and a search that panics is replaced by a fresh one. Every step that
//! could panic runs under `catch_unwind`, so each `go` gets exactly one `bestmove` whatever
//! fails (the panic hook of the binary prints the message on stderr).

use super::command::Command;
use super::event::Event;
use super::fault::inject;
use super::signals::Signals;
use crate::attacks::{Backend, Magic, SliderAttacks};
use crate::board::{Board, Game};
use crate::movegen::{legal_moves, legal_moves_directional};
use crate::search::{Limits, SearchConfig, SearchResult, Searcher, bench};
use crate::types::Move;
use crate::uci::format::info_string;
use crate::with_backend;
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

pub struct SearchThread {
    searcher: Searcher,
    hash_mb: usize,
    commands: Receiver<Command>,
    events: Sender<Event>,
    signals: Arc<Signals>,
    /// Commands that arrived while a finished search waited for `stop`; run after it.
    deferred: VecDeque<Command>,
}

impl SearchThread {
    pub fn new(
        hash_mb: usize,
        commands: Receiver<Command>,
        events: Sender<Event>,
        signals: Arc<Signals>,
    ) -> SearchThread {
        SearchThread {
            searcher: Searcher::new(hash_mb),
            hash_mb,
            commands,
            events,
            signals,
            deferred: VecDeque::new(),
        }
    }

    /// Runs jobs until `Quit` or until the front-end is gone.
    pub fn run(mut self) {
        loop {
            let command = match self.deferred.pop_front() {
                Some(command) => command,
                None => match self.commands.recv() {
                    Ok(command) => command,
                    Err(_) => return,
                },
            };
            match command {
                Command::Go {
                    id,
                    game,
                    limits,
                    config,
                    show_ponder,
                } => {
                    if !self.go(id, &game, &limits, &config, show_ponder) {
                        return;
                    }
                }
                Command::Perft {
                    board,
                    depth,
                    backend,
                    chess960,
                } => self.perft(&board, depth, backend, chess960),
                Command::Bench { depth, config } => self.bench(depth, &config),
                Command::SetHash(mb) => {
                    self.hash_mb = mb;
                    self.guarded("resizing the hash", |s| s.set_hash(mb));
                }
                Command::SetTablebases(paths) => self.set_tablebases(&paths),
                Command::Clear => self.guarded("clearing the hash", Searcher::clear),
                // Wake-ups for a search that already ended: nothing to do.
                Command::Stop | Command::PonderHit => {}
                Command::Quit => return,
            }
        }
    }

    fn send(&self, event: Event) {
        // The writer only goes away when the program ends.
        let _ = self.events.send(event);
    }

    /// Runs `f` on the searcher; a panic is reported and the searcher rebuilt.
    fn guarded(&mut self, what: &str, f: impl FnOnce(&mut Searcher)) {
        if catch_unwind(AssertUnwindSafe(|| f(&mut self.searcher))).is_err() {
            self.recover(what);
        }
    }

    /// (The front-end has already told the user what the path holds.)
    fn set_tablebases(&mut self, paths: &str) {
        let mut answer = Ok(());
        self.guarded("opening the tablebases", |s| {
            answer = s.set_tablebases(paths);
        });
        if let Err(e) = answer {
            let message = format!("{e}; playing without tablebases");
            self.send(Event::Line(info_string(&message)));
        }
    }

    fn recover(&mut self, what: &str) {
        log::error!("the search panicked while {what}; starting a fresh one");
        self.send(Event::Line(info_string(&format!(
            "internal error while {what}: the search was reset"
        ))));
        self.searcher = Searcher::new(self.hash_mb);
    }

    /// One `go`. Returns false when `quit` came while the result was held.
    fn go(
        &mut self,
        id: u64,
        game: &Game,
        limits: &Limits,
        config: &SearchConfig,
        show_ponder: bool,
    ) -> bool {
        self.signals.start(id, limits.ponder);
        let events = self.events.clone();
        let chess960 = config.chess960;
        let signals = Arc::clone(&self.signals);
        let searcher = &mut self.searcher;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            inject("search");
            searcher.search(game, limits, config, &signals.control, &mut |info| {
                let _ = events.send(Event::Info {
                    info: Box::new(info.clone()),
                    chess960,
                });
            })
        }));
        let result = outcome.unwrap_or_else(|_| {
            self.recover("searching");
            SearchResult {
                best: Move::NULL,
                ponder: None,
            }
        });
        let keep_running = self.hold(id, limits);
        let (best, ponder) = answer(game, limits, result);
        self.send(Event::BestMove {
            best,
            ponder: ponder.filter(|_| show_ponder),
            chess960,
        });
        keep_running
    }

    /// Holds a finished `go infinite` / `go ponder` until `stop` (or `ponderhit`). Returns
    /// false on `quit`.
    fn hold(&mut self, id: u64, limits: &Limits) -> bool {
        loop {
            let waiting = limits.infinite || (limits.ponder && !self.signals.is_ponderhit(id));
            if !waiting || self.signals.is_stopped(id) {
                return true;
            }
            match self.commands.recv() {
                Ok(Command::Stop | Command::PonderHit) => {}
                Ok(Command::Quit) | Err(_) => return false,
                Ok(other) => self.deferred.push_back(other),
            }
        }
    }

    fn perft(&mut self, board: &Board, depth: u32, backend: Backend, chess960: bool) {
        let start = Instant::now();
        let outcome = catch_unwind(|| {
            inject("perft");
            with_backend!(backend, A => {
                crate::perft::divide::<A>(&board.with_occupancy::<<A as SliderAttacks>::Occ>(), depth)
            })
        });
        let Ok(counts) = outcome else {
            // Perft shares nothing with the search: no reset needed.
            return self.send(Event::Line(info_string(
                "internal error while counting perft",
            )));
        };
        let mut text = String::new();
        for (mv, count) in &counts {
            text.push_str(&format!("{}: {count}\n", mv.to_uci(chess960)));
        }
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        text.push_str(&format!("\nNodes searched: {total}"));
        log::info!(
            "perft {depth} ({backend}): {total} nodes in {} ms",
            start.elapsed().as_millis()
        );
        self.send(Event::Line(text));
    }

    fn bench(&mut self, depth: u32, config: &SearchConfig) {
        match catch_unwind(AssertUnwindSafe(|| bench::run(depth, config))) {
            Ok(result) => self.send(Event::Line(format!(
                "{} nodes {} nps",
                result.nodes,
                result.nps()
            ))),
            Err(_) => self.recover("running bench"),
        }
    }
}

/// The `bestmove` of a search: [`checked`], or if that panics the first legal move of the
/// other move generator, or if that panics too the null move; it never panics itself.
fn answer(game: &Game, limits: &Limits, result: SearchResult) -> (Move, Option<Move>) {
    catch_unwind(AssertUnwindSafe(|| {
        inject("answer");
        checked(game, limits, result)
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
fn checked(game: &Game, limits: &Limits, result: SearchResult) -> (Move, Option<Move>) {
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
    use crate::board::parse_uci_move;

    #[test]
    fn illegal_or_missing_moves_are_replaced_by_legal_ones() {
        let game = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let other = Board::startpos();
        let foreign = parse_uci_move(&other, "e2e4", false).unwrap();
        let (best, ponder) = checked(
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
        let (best, _) = checked(
            &game,
            &Limits::default(),
            SearchResult {
                best: Move::NULL,
                ponder: None,
            },
        );
        assert!(!best.is_null());
    }

    #[test]
    fn no_legal_move_gives_the_null_move() {
        let mated = Game::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .unwrap();
        let result = SearchResult {
            best: Move::NULL,
            ponder: None,
        };
        assert_eq!(
            checked(&mated, &Limits::default(), result),
            (Move::NULL, None)
        );
    }
}
