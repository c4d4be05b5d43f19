//! FEN in and out: standard FEN, X-FEN (`KQkq` meaning the outermost rook) and Shredder-FEN
//! (`HAha`, the castling rooks' files). Bad input is an error naming the field, never a panic.

use super::Board;
use crate::attacks::Occupancy;
use crate::types::{Bitboard, CastleSide, Color, File, Piece, PieceType, Rank, Square};
use std::fmt;
use std::str::FromStr;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was refused: the field at fault, with a message that names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than 4 or more than 6 fields.
    Fields(String),
    Placement(String),
    SideToMove(String),
    Castling(String),
    EnPassant(String),
    HalfmoveClock(String),
    FullmoveNumber(String),
    /// Well-formed, but no game reaches it (kings, material, pawns on a back rank, checks).
    IllegalPosition(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (FenError::Fields(message)
        | FenError::Placement(message)
        | FenError::SideToMove(message)
        | FenError::Castling(message)
        | FenError::EnPassant(message)
        | FenError::HalfmoveClock(message)
        | FenError::FullmoveNumber(message)
        | FenError::IllegalPosition(message)) = self;
        f.write_str(message)
    }
}

impl std::error::Error for FenError {}

impl FromStr for Board {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Board, FenError> {
        Board::from_fen(fen)
    }
}

impl Board {
    /// Parses a FEN. The two move counters may be left out (they default to `0 1`).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::Fields(format!(
                "FEN needs at least 4 fields (placement, side, castling, en passant), got {}: '{}'",
                fields.len(),
                fen.trim()
            )));
        }
        if fields.len() > 6 {
            return Err(FenError::Fields(format!(
                "FEN has {} fields, at most 6 expected: '{}'",
                fields.len(),
                fen.trim()
            )));
        }
        let mut board = Board::empty();
        board.parse_placement(fields[0])?;
        board.side = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => {
                return Err(FenError::SideToMove(format!(
                    "bad side to move '{other}' (expected 'w' or 'b')"
                )));
            }
        };
        board
            .check_material()
            .map_err(|e| FenError::IllegalPosition(format!("illegal position: {e}")))?;
        board.parse_castling(fields[2])?;
        board.refresh_castle_watch();
        board.parse_en_passant(fields[3])?;
        if let Some(field) = fields.get(4) {
            board.halfmove_clock = field.parse().map_err(|_| {
                FenError::HalfmoveClock(format!(
                    "bad half-move clock '{field}' (expected a number 0-65535)"
                ))
            })?;
        }
        if let Some(field) = fields.get(5) {
            let n: u16 = field.parse().map_err(|_| {
                FenError::FullmoveNumber(format!(
                    "bad full-move number '{field}' (expected a number 1-65535)"
                ))
            })?;
            board.fullmove_number = n.max(1);
        }
        board
            .check_checks()
            .map_err(|e| FenError::IllegalPosition(format!("illegal position: {e}")))?;
        board.hash = board.compute_hash();
        Ok(board)
    }

    fn parse_placement(&mut self, field: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::Placement(format!(
                "bad piece placement '{field}': {} ranks instead of 8",
                ranks.len()
            )));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = Rank::from_index(7 - i);
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += skip as usize;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file < 8 {
                        self.put(piece, Square::new(File::from_index(file), rank));
                    }
                    file += 1;
                } else {
                    return Err(FenError::Placement(format!(
                        "bad piece placement '{field}': unexpected '{c}' on rank {}",
                        rank.char()
                    )));
                }
                if file > 8 {
                    return Err(FenError::Placement(format!(
                        "bad piece placement '{field}': rank {} has more than 8 squares",
                        rank.char()
                    )));
                }
            }
            if file != 8 {
                return Err(FenError::Placement(format!(
                    "bad piece placement '{field}': rank {} has {file} squares instead of 8",
                    rank.char()
                )));
            }
        }
        Ok(())
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let bad = |why: &str| FenError::Castling(format!("bad castling field '{field}': {why}"));
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = Rank::R1.relative_to(color);
            let king = self.king(color);
            if king.rank() != back_rank {
                return Err(bad(&format!("'{c}' but the king is not on its first rank")));
            }
            let rooks = self.pieces_of(color, PieceType::Rook) & Bitboard::rank(back_rank);
            let rook_file = match c.to_ascii_lowercase() {
                'k' => (king.file().index() + 1..8)
                    .rev()
                    .map(File::from_index)
                    .find(|&f| rooks.contains(Square::new(f, back_rank))),
                'q' => (0..king.file().index())
                    .map(File::from_index)
                    .find(|&f| rooks.contains(Square::new(f, back_rank))),
                letter @ 'a'..='h' => {
                    let f = File::from_char(letter).expect("a file letter");
                    rooks.contains(Square::new(f, back_rank)).then_some(f)
                }
                _ => return Err(bad(&format!("unexpected '{c}'"))),
            };
            let Some(rook_file) = rook_file else {
                return Err(bad(&format!("no rook for '{c}'")));
            };
            let side = if rook_file > king.file() {
                CastleSide::King
            } else {
                CastleSide::Queen
            };
            match self.castling.rook_file(color, side) {
                Some(f) if f != rook_file => {
                    return Err(bad(&format!("two castling rooks on one side for '{c}'")));
                }
                _ => self.castling.set(color, side, Some(rook_file)),
            }
        }
        Ok(())
    }

    fn parse_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let bad =
            |why: &str| FenError::EnPassant(format!("bad en-passant square '{field}': {why}"));
        let sq = field.parse::<Square>().map_err(|e| bad(&e.to_string()))?;
        let us = self.side;
        if sq.rank() != Rank::R6.relative_to(us) {
            return Err(bad(&format!(
                "must be on rank {} when {} is to move",
                Rank::R6.relative_to(us).char(),
                if us == Color::White { "white" } else { "black" }
            )));
        }
        let forward: i32 = if us == Color::White { 1 } else { -1 };
        let pushed = sq.offset(0, -forward).expect("on the board");
        let origin = sq.offset(0, forward).expect("on the board");
        if self.piece_on(pushed) != Some(Piece::new(!us, PieceType::Pawn))
            || self.piece_on(sq).is_some()
            || self.piece_on(origin).is_some()
        {
            return Err(bad("no pawn can just have moved two squares past it"));
        }
        if self.pawn_can_take_en_passant(us, sq) {
            self.en_passant = Some(sq);
        }
        Ok(())
    }
}

/// The piece-placement field of a FEN (`rnbqkbnr/pppppppp/8/...`).
pub fn placement_text(piece_on: impl Fn(Square) -> Option<Piece>) -> String {
    let mut fen = String::new();
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match piece_on(Square::new(file, *rank)) {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if *rank != Rank::R1 {
            fen.push('/');
        }
    }
    fen
}

impl<O: Occupancy> Board<O> {
    /// The position as FEN. Castling is written `KQkq` where the right's rook is the outermost
    /// one (plain FEN / X-FEN), and by the rook's file letter otherwise (Shredder-FEN style).
    pub fn to_fen(&self) -> String {
        let mut fen = placement_text(|sq| self.piece_on(sq));
        fen.push(' ');
        fen.push(self.side.char());
        fen.push(' ');
        fen.push_str(&self.castling_text());
        fen.push(' ');
        match self.en_passant {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }

    fn castling_text(&self) -> String {
        let mut text = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let king = self.king(color);
                let rooks = self.pieces_of(color, PieceType::Rook) & Bitboard::rank(rook.rank());
                let beyond = match side {
                    CastleSide::King => {
                        rooks.into_iter().filter(|r| r.file() > rook.file()).count()
                    }
                    CastleSide::Queen => {
                        rooks.into_iter().filter(|r| r.file() < rook.file()).count()
                    }
                };
                let outermost =
                    beyond == 0 && (rook.file() > king.file()) == (side == CastleSide::King);
                let c = if outermost {
                    if side == CastleSide::King { 'k' } else { 'q' }
                } else {
                    rook.file().char()
                };
                text.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        text
    }
}
