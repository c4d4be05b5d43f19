//! Iterative deepening with aspiration windows and MultiPV, and the `info` reports of each
//! finished iteration.

use super::node::{Node, Shared, Worker};
use super::params::{ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH};
use super::running::{Message, Progress};
use super::score::{INFINITY, MATE_BOUND, is_decisive};
use super::time::Effort;
use super::wdl;
use super::{Bound, Score, SearchConfig, SearchInfo, SearchResult};
use crate::attacks::SliderAttacks;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::Move;
use crossbeam_channel::Sender;
use std::sync::atomic::Ordering;

/// The deepest iteration the search starts.
const MAX_DEPTH: i32 = 120;

/// Iterative deepening for one thread; only the main thread (id 0) reports and decides.
pub(super) fn iterate<A: SliderAttacks>(
    worker: &mut Worker<A>,
    board: &Board<A::Occ>,
    config: &SearchConfig,
    report: Option<&Sender<Progress>>,
) -> SearchResult {
    let on_info = |info: SearchInfo| {
        if let Some(report) = report {
            let _ = report.send(Progress(Message::Info(Box::new(info))));
        }
    };
    let shared = worker.shared;
    let limits = shared.limits;
    let main = worker.id == 0;
    worker.set_root(board);
    let mut root_moves: Vec<Move> = legal_moves::<A>(board).iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        let allowed: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if !allowed.is_empty() {
            root_moves = allowed;
        }
    }
    if let Some(tb) = &shared.tb_root
        && root_moves.iter().any(|m| tb.moves.contains(m))
    {
        root_moves.retain(|m| tb.moves.contains(m));
    }
    if root_moves.is_empty() {
        if main {
            let score = if board.in_check::<A>() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            on_info(SearchInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                wdl: config.show_wdl.then_some(if score == Score::Mate(0) {
                    (0, 0, 1000)
                } else {
                    (0, 1000, 0)
                }),
                nodes: 0,
                nps: 0,
                hashfull: 0,
                time_ms: 0,
                tbhits: 0,
                pv: Vec::new(),
            });
        }
        return SearchResult::NONE;
    }

    let in_check = board.in_check::<A>();
    let lines = config.multipv.clamp(1, root_moves.len());
    let max_depth = limits
        .depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
    let mut result = SearchResult {
        best: root_moves[0],
        ponder: None,
    };
    let mut scores = vec![0i32; lines];
    let mut best_changes = 0;
    let mut previous_best = None;

    for depth in 1..=max_depth {
        // Helpers skip some depths so the threads spread over different iterations.
        if !main && depth > 1 && (depth + worker.id as i32) % 3 == 0 {
            continue;
        }
        let mut taken: Vec<Move> = Vec::new();
        for (line, line_score) in scores.iter_mut().enumerate() {
            worker.root_moves = root_moves
                .iter()
                .copied()
                .filter(|m| !taken.contains(m))
                .collect();
            worker.seldepth = 0;
            let previous = *line_score;
            let mut delta = ASPIRATION_DELTA.get();
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH.get() && !is_decisive(previous) {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITY, INFINITY)
                };
            // A fail high is re-searched one ply shallower each time (the move that failed high
            // is likely good anyway); a fail low at the iteration's depth.
            let mut search_depth = depth;
            worker.must_finish = main && depth == 1 && line == 0;
            let score = loop {
                let score = worker.negamax(board, alpha, beta, search_depth, Node::root(in_check));
                if worker.stopped {
                    break score;
                }
                // A full window cannot be widened further.
                if (score <= alpha && alpha <= -INFINITY) || (score >= beta && beta >= INFINITY) {
                    break score;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                    search_depth = depth;
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                    if !is_decisive(score) {
                        search_depth = (search_depth - 1).max(1);
                    }
                } else {
                    break score;
                }
                delta += delta / 2;
                if delta > ASPIRATION_MAX_DELTA.get() {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            // An interrupted iteration's move is kept only if its PV is complete, or if it beat
            // the previous best move, searched first and finished: then it is shown and played,
            // its score a lower bound when it failed high.
            let mut score = score;
            let mut bound = Bound::Exact;
            if worker.stopped && (depth > 1 || worker.pv_len[0] == 0) {
                let beat_previous = line == 0
                    && worker.pv_len[0] > 0
                    && worker.root_first == result.best
                    && worker.pv[0][0] != result.best;
                if !beat_previous {
                    return result;
                }
                score = worker.root_score;
                if score >= beta {
                    bound = Bound::Lower;
                }
            }
            let pv = worker.pv_line();
            if pv.is_empty() {
                return result;
            }
            *line_score = score;
            taken.push(pv[0]);
            if line == 0 {
                if pv[0] != result.best {
                    best_changes += 1;
                }
                result = SearchResult {
                    best: pv[0],
                    ponder: pv.get(1).copied(),
                };
                if main && shared.publish {
                    shared.control.publish(result);
                }
                if main && depth == 1 {
                    shared.first_iteration.open();
                }
            }
            if main {
                let elapsed = shared.time.elapsed().as_millis() as u64;
                let nodes = worker.nodes + helper_nodes(shared);
                on_info(SearchInfo {
                    depth: depth as u32,
                    seldepth: worker.seldepth.max(depth as usize) as u32,
                    multipv: line + 1,
                    score: Score::from_internal(shown_score(shared, score)),
                    bound,
                    wdl: config
                        .show_wdl
                        .then(|| wdl::wdl(shown_score(shared, score), wdl::material(board))),
                    nodes,
                    nps: nodes * 1000 / elapsed.max(1),
                    hashfull: shared.tt.hashfull(),
                    time_ms: elapsed,
                    tbhits: shared.tbhits.load(Ordering::Relaxed),
                    pv,
                });
            }
            if worker.stopped {
                return result;
            }
        }
        if !main {
            continue;
        }
        if let Some(mate) = limits.mate
            && matches!(Score::from_internal(scores[0]), Score::Mate(n) if n > 0 && n <= mate as i32)
        {
            break;
        }
        let effort = Effort {
            best_changes,
            best_move_share: worker.node_share(result.best),
            score_drop: previous_best.map_or(0, |previous| previous - scores[0]),
        };
        previous_best = Some(scores[0]);
        if !shared.control.is_pondering() && stop_after_iteration(shared, &effort) {
            break;
        }
        best_changes = best_changes * 2 / 3;
    }
    result
}

/// The score to report: the tablebase value when the root is in the tables and the search has
/// not found a mate (its own scores there only see the evaluation).
fn shown_score(shared: &Shared, score: i32) -> i32 {
    match &shared.tb_root {
        Some(tb) if score.abs() < MATE_BOUND => tb.score,
        _ => score,
    }
}

fn helper_nodes(shared: &Shared) -> u64 {
    shared
        .nodes
        .iter()
        .skip(1)
        .map(|n| n.load(Ordering::Relaxed))
        .sum()
}

/// After an iteration: is there time for another?
fn stop_after_iteration(shared: &Shared, effort: &Effort) -> bool {
    if shared
        .limits
        .soft_nodes
        .is_some_and(|n| shared.total_nodes() >= n)
    {
        return true;
    }
    let Some(soft) = shared.time.soft_limit() else {
        return false;
    };
    shared.time.elapsed().as_secs_f64() >= soft.as_secs_f64() * effort.time_scale()
}
