use super::Board;
use crate::attacks::Occupancy;
use crate::types::{File, Rank, Square};
use std::fmt;

impl<O: Occupancy> fmt::Display for Board<O> {
    /// The board as text, White at the bottom, followed by the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_on(Square::new(file, *rank))
                    .map_or(' ', |p| p.char());
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank.char())?;
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.hash)
    }
}

impl<O: Occupancy> fmt::Debug for Board<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}
