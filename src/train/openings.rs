//! Random openings, for self-play data (`datagen`) and for OpenBench's data-generation workloads
//! (`genfens`): random plies from the start position, from a random double Fischer random one
//! (a share of the games), or from a given position (a line of an opening book), kept only when
//! a depth-8 search scores the result within a bound.

use crate::attacks::Magic;
use crate::board::{Board, START_FEN};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::search::{Limits, Score, SearchConfig, SearchControl, Searcher};
use crate::types::Rng;
use std::path::Path;

/// Depth of the search that judges an opening.
pub const FILTER_DEPTH: u32 = 8;

/// How openings are made.
#[derive(Clone, Debug)]
pub struct Openings {
    /// Random moves: this many, or one more (half the openings); 0: none.
    pub random_plies: usize,
    /// Per cent of the openings that start from a random double Fischer random position.
    pub dfrc_percent: u32,
    /// Openings a depth-8 search scores beyond this (centipawns) are refused.
    pub max_score: i32,
    /// The evaluation of that search.
    pub evaluator: Evaluator,
}

impl Openings {
    /// A random opening from the start position or (the DFRC share) a random double Fischer
    /// random one; None when it is refused.
    pub fn random(&self, searcher: &mut Searcher, rng: &mut Rng) -> Option<Game> {
        let start = if rng.below(100) < self.dfrc_percent as usize {
            dfrc_start(rng)
        } else {
            Board::from_fen(START_FEN).expect("start position")
        };
        self.from_position(start, searcher, rng)
    }

    /// Random plies from `start`, then the evaluation filter; None when refused (a random
    /// move ended the game, or the search scores it out of bounds).
    pub fn from_position(
        &self,
        start: Board,
        searcher: &mut Searcher,
        rng: &mut Rng,
    ) -> Option<Game> {
        let mut game = Game::new(start);
        let plies = match self.random_plies {
            0 => 0,
            n => n + rng.below(2),
        };
        for _ in 0..plies {
            let moves = legal_moves::<Magic>(game.board());
            if moves.is_empty() {
                return None;
            }
            game.play(moves[rng.below(moves.len())]);
        }
        if legal_moves::<Magic>(game.board()).is_empty() {
            return None;
        }
        self.balanced(&game, searcher).then_some(game)
    }

    /// Whether a depth-8 search scores the game's position within `max_score` (a mate never).
    fn balanced(&self, game: &Game, searcher: &mut Searcher) -> bool {
        let control = SearchControl::new();
        control.start_next(false);
        let mut score = Score::Cp(0);
        let config = SearchConfig {
            evaluator: self.evaluator.clone(),
            ..SearchConfig::default()
        };
        searcher.search(
            game,
            &Limits::depth(FILTER_DEPTH),
            &config,
            &control,
            &mut |info| score = info.score,
        );
        matches!(score, Score::Cp(cp) if cp.abs() <= self.max_score)
    }
}

/// A random double Fischer random start: each side's back rank drawn on its own (bishops on
/// squares of both colours, the king between the rooks), castling with those rooks.
pub fn dfrc_start(rng: &mut Rng) -> Board {
    let ranks = [random_back_rank(rng), random_back_rank(rng)];
    let rooks = |rank: &[char; 8]| -> String {
        (0..8)
            .filter(|&f| rank[f] == 'r')
            .map(|f| char::from(b'a' + f as u8))
            .collect()
    };
    let black: String = ranks[1].iter().collect();
    let white: String = ranks[0].iter().collect::<String>().to_uppercase();
    let fen = format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{} - 0 1",
        rooks(&ranks[0]).to_uppercase(),
        rooks(&ranks[1])
    );
    Board::from_fen(&fen).expect("a double Fischer random position is valid")
}

/// One side's Fischer random back rank, as lower-case piece letters from the a-file.
fn random_back_rank(rng: &mut Rng) -> [char; 8] {
    let mut rank = [' '; 8];
    rank[2 * rng.below(4)] = 'b';
    rank[2 * rng.below(4) + 1] = 'b';
    for piece in ['q', 'n', 'n'] {
        let empty: Vec<usize> = (0..8).filter(|&f| rank[f] == ' ').collect();
        rank[empty[rng.below(empty.len())]] = piece;
    }
    let empty: Vec<usize> = (0..8).filter(|&f| rank[f] == ' ').collect();
    for (f, piece) in empty.into_iter().zip(['r', 'k', 'r']) {
        rank[f] = piece;
    }
    rank
}

/// The lines of an EPD opening book (empty lines and `#` comments left out), each with its
/// line number; read whole, parsed only when drawn ([`book_position`]).
pub fn read_book(path: &Path) -> Result<Vec<(usize, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim().to_string()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(format!("{}: no positions in the book", path.display()));
    }
    Ok(lines)
}

/// The position of an EPD line: the four FEN fields, then the move counters from its `hmvc`
/// and `fmvn` operations (or a FEN's own two counters; `0 1` when neither is there).
pub fn book_position(line: &str) -> Result<Board, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not an EPD or FEN line: '{line}'"));
    }
    let counter = |op: &str| {
        let at = fields.iter().position(|f| *f == op)?;
        fields
            .get(at + 1)?
            .trim_end_matches(';')
            .parse::<u32>()
            .ok()
    };
    let plain_fen = fields.len() == 6 && fields[4..].iter().all(|f| f.parse::<u32>().is_ok());
    let (halfmove, fullmove) = if plain_fen {
        (
            fields[4].parse().unwrap_or(0),
            fields[5].parse().unwrap_or(1),
        )
    } else {
        (counter("hmvc").unwrap_or(0), counter("fmvn").unwrap_or(1))
    };
    let fen = format!("{} {halfmove} {fullmove}", fields[..4].join(" "));
    Board::from_fen(&fen).map_err(|e| format!("'{line}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_lines_read_as_epd_or_fen() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ),
            (
                "r1bqkbnr/pp3ppp/2np4/2p1p3/2P5/1P3NP1/P2PPP1P/RNBQKB1R w KQkq - c0 \"x\";",
                "r1bqkbnr/pp3ppp/2np4/2p1p3/2P5/1P3NP1/P2PPP1P/RNBQKB1R w KQkq - 0 1",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
            ),
        ];
        for (line, fen) in cases {
            assert_eq!(book_position(line).unwrap().to_fen(), fen);
        }
        assert!(book_position("rnbqkbnr/pppppppp w").is_err());
        assert!(book_position("8/8/8/8/8/8/8/8 w - -").is_err());
    }

    #[test]
    fn dfrc_starts_put_the_king_between_the_rooks_and_bishops_on_both_colours() {
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            let rank = random_back_rank(&mut rng);
            let at = |c: char| (0..8).filter(|&f| rank[f] == c).collect::<Vec<_>>();
            let (bishops, rooks, king) = (at('b'), at('r'), at('k'));
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2);
            assert!(rooks[0] < king[0] && king[0] < rooks[1]);
            let fen = dfrc_start(&mut rng).to_fen();
            let castling = fen.split(' ').nth(2).unwrap();
            assert_eq!(castling.len(), 4, "{fen}");
        }
    }
}
