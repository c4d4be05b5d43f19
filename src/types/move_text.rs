//! A move as UCI text writes it (`e2e4`, `e7e8q`): from, to and a promotion, before a position
//! says which move that is (castling, en passant and captures need the board).

use super::{PieceType, Square, SquareParseError};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<PieceType>,
}

/// Why a text is not a move in UCI notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not 4 or 5 characters.
    Length(usize),
    From(SquareParseError),
    To(SquareParseError),
    /// The fifth character is not `n`, `b`, `r` or `q`.
    Promotion(char),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Length(n) => write!(f, "a move is 4 or 5 characters, not {n}"),
            MoveParseError::From(e) => write!(f, "bad from-square: {e}"),
            MoveParseError::To(e) => write!(f, "bad to-square: {e}"),
            MoveParseError::Promotion(c) => write!(f, "'{c}' is not a promotion (n, b, r or q)"),
        }
    }
}

impl std::error::Error for MoveParseError {}

impl FromStr for MoveText {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<MoveText, MoveParseError> {
        let chars: Vec<char> = s.chars().collect();
        if !(4..=5).contains(&chars.len()) {
            return Err(MoveParseError::Length(chars.len()));
        }
        let square = |pair: &[char]| pair.iter().collect::<String>().parse::<Square>();
        let from = square(&chars[0..2]).map_err(MoveParseError::From)?;
        let to = square(&chars[2..4]).map_err(MoveParseError::To)?;
        let promotion = match chars.get(4) {
            None => None,
            Some(&c) => Some(
                PieceType::from_char(c)
                    .filter(|p| !matches!(p, PieceType::Pawn | PieceType::King))
                    .ok_or(MoveParseError::Promotion(c))?,
            ),
        };
        Ok(MoveText {
            from,
            to,
            promotion,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_from_text_with_typed_errors() {
        let text: MoveText = "e7e8q".parse().unwrap();
        assert_eq!(
            text,
            MoveText {
                from: Square::E7,
                to: Square::E8,
                promotion: Some(PieceType::Queen)
            }
        );
        assert_eq!("e2e4".parse::<MoveText>().unwrap().promotion, None);
        for (text, error) in [
            ("e2", MoveParseError::Length(2)),
            ("e2e4qq", MoveParseError::Length(6)),
            ("z2e4", MoveParseError::From(SquareParseError::File('z'))),
            ("e2e0", MoveParseError::To(SquareParseError::Rank('0'))),
            ("e7e8k", MoveParseError::Promotion('k')),
            ("0000", MoveParseError::From(SquareParseError::File('0'))),
        ] {
            assert_eq!(text.parse::<MoveText>(), Err(error), "{text}");
        }
    }
}
