//! Constraints checks with an independent move generator (shakmaty).

use shakmaty::fen::{Epd, Fen};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

pub fn mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// A position from a FEN, or an EPD (no move counters).
pub fn position(fen: &str, chess960: bool) -> Chess {
    match Fen::from_ascii(fen.as_bytes()) {
        Ok(f) => f.into_position(mode(chess960)).expect("legal position"),
        Err(_) => Epd::from_ascii(fen.as_bytes())
            .expect("FEN or EPD")
            .into_position(mode(chess960))
            .expect("legal position"),
    }
}

/// Plays `text` if it is legal in `pos`.
pub fn play(pos: &Chess, text: &str) -> Result<Chess, String> {
    let uci: UciMove = text
        .parse()
        .map_err(|e| format!("'{text}' is not UCI: {e:?}"))?;
    let mv = uci
        .to_move(pos)
        .map_err(|_| format!("'{text}' is illegal in {}", fen_of(pos)))?;
    pos.clone().play(mv).map_err(|e| format!("{e:?}"))
}

pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The start position after some moves (all legal).
pub fn after(moves: &[&str]) -> Chess {
    moves
        .iter()
        .fold(Chess::default(), |pos, m| play(&pos, m).unwrap())
}
