//! `position startpos|fen <FEN> [moves ...]`, parsed here rather than by vampirc-uci, which
//! loses Shredder-FEN castling (`HFhf`), FENs without the two counters, and cuts a move list at
//! `0000`. Any error leaves the caller's game untouched: a new game is built and returned whole.

use crate::board::Board;
use crate::game::Game;
use crate::protocol::format::shorten;

/// Builds the game a `position` command describes (`tokens` follow the word `position`).
pub fn parse_position(tokens: &[&str], chess960: bool) -> Result<Game, String> {
    let (mut game, rest) = match tokens.first().copied() {
        Some("startpos") => (Game::new(Board::startpos()), &tokens[1..]),
        Some("fen") => {
            let fen_len = tokens[1..]
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(tokens.len() - 1);
            let fen = tokens[1..=fen_len].join(" ");
            if fen.is_empty() {
                return Err("position fen: the FEN is missing".to_string());
            }
            let game = Game::from_fen(&fen).map_err(|e| format!("position fen: {e}"))?;
            (game, &tokens[1 + fen_len..])
        }
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', got '{}'",
                shorten(other)
            ));
        }
        None => return Err("position: expected 'startpos' or 'fen'".to_string()),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", moves)) => moves,
        Some((other, _)) => {
            return Err(format!(
                "position: expected 'moves' after the position, got '{}'",
                shorten(other)
            ));
        }
    };
    for (i, text) in moves.iter().enumerate() {
        if *text == "0000" {
            return Err(format!(
                "position: move {} is the null move 0000, which cannot be played",
                i + 1
            ));
        }
        game.play_uci(text, chess960)
            .map_err(|e| format!("position: move {} ({}): {}", i + 1, shorten(text), e))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen_of(command: &str, chess960: bool) -> Result<String, String> {
        let tokens: Vec<&str> = command.split_whitespace().collect();
        parse_position(&tokens, chess960).map(|g| g.board().to_fen())
    }

    #[test]
    fn startpos_with_moves() {
        assert_eq!(
            fen_of("startpos moves e2e4 e7e5 g1f3", false).unwrap(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        assert_eq!(
            fen_of("startpos moves", false).unwrap(),
            crate::board::START_FEN
        );
    }

    #[test]
    fn fen_without_counters_and_shredder_castling() {
        let fen = fen_of("fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1", false).unwrap();
        assert!(fen.starts_with("4k3/8/8/8/8/8/8/5RK1 b - -"), "{fen}");
        let fen = fen_of(
            "fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves a3a4",
            true,
        )
        .unwrap();
        assert!(
            fen.starts_with("bqnb1rkr/pp3ppp/3ppn2/2p5/P4P2/3P4/NPP1P1PP/BQ1BNRKR b"),
            "{fen}"
        );
    }

    #[test]
    fn errors_name_the_problem() {
        for (command, needle) in [
            ("", "expected 'startpos' or 'fen'"),
            ("startpos e2e4", "expected 'moves'"),
            ("fen", "FEN is missing"),
            ("fen 8/8/8/8 w - - 0 1", "position fen"),
            ("startpos moves e2e4 0000", "null move"),
            ("startpos moves e2e5", "move 1"),
            ("startpos moves e2e4 e7e5 e1e8", "move 3"),
            ("startpos moves e2", "move 1"),
        ] {
            let err = fen_of(command, false).unwrap_err();
            assert!(err.contains(needle), "{command:?}: {err}");
        }
    }
}
