//! Self-play games as records in the viriformat layout (Viridithas's data format, which bullet
//! also reads): the position the game's searches started from, then each move played with its
//! search score, so a position costs 4 bytes before compression instead of 32.
//!
//! All integers are little-endian; squares are a1 = 0 .. h8 = 63. A record is:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | occupancy bitboard |
//! | 16 | 32 nibbles, one per occupied square from the lowest: bits 0–2 pawn 0 .. king 5, or 6 for a rook that can still castle; bit 3 set for Black |
//! | 1 | bits 0–6 en-passant square (64: none), bit 7 set when Black is to move |
//! | 1 | halfmove clock |
//! | 2 | fullmove number |
//! | 2 | score of the start position (unused here: 0) |
//! | 1 | result: 0 Black won, 1 draw, 2 White won |
//! | 1 | unused, 0 |
//! | 4 × n | per move: `u16` from (6 bits) \| to (6) \| promotion piece (2: N, B, R, Q) \| type (2: 1 en passant, 2 castling as king takes rook, 3 promotion); `i16` search score, White's view |
//! | 4 | zero: end of the game |
//!
//! The viriformat crate's own reader is run over records written here in the tests.
//!
//! The trainer's flags are not stored: whether the side to move is in check, and whether the
//! move played (the search's best move) is a capture or promotion, follow from the positions.

use crate::attacks::Magic;
use crate::board::{Board, placement_text};
use crate::movegen::legal_moves;
use crate::train::packed::{self, ChessBoard, NOISY_BEST};
use crate::types::{Bitboard, CastleSide, Color, Move, PieceType, Square};
use std::fmt::Write as _;

/// Bytes of the start position.
pub const HEADER: usize = 32;
/// Bytes per move.
pub const MOVE: usize = 4;

/// A game as the trainer learns from it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The first position searched (after the random opening).
    pub start: Board,
    /// Each move played with the search score of the position it was played from, White's view.
    pub moves: Vec<(Move, i16)>,
    /// For White: 1.0, 0.5, 0.0.
    pub result: f32,
}

impl GameRecord {
    pub fn new(start: Board) -> GameRecord {
        GameRecord {
            start,
            moves: Vec::new(),
            result: 0.5,
        }
    }

    /// Positions the record holds (one per move played).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Bytes of the encoded record.
    pub fn encoded_len(&self) -> usize {
        HEADER + MOVE * self.moves.len() + MOVE
    }

    pub fn encode(&self, out: &mut Vec<u8>) {
        encode_board(&self.start, self.result, out);
        for &(mv, score) in &self.moves {
            out.extend_from_slice(&encode_move(mv).to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.extend_from_slice(&[0; MOVE]);
    }

    /// Reads one record from the front of `bytes`; returns it and the bytes it took.
    pub fn decode(bytes: &[u8]) -> Result<(GameRecord, usize), String> {
        let header: &[u8; HEADER] = bytes
            .get(..HEADER)
            .and_then(|h| h.try_into().ok())
            .ok_or("short record: the start position is cut off")?;
        let (start, result) = decode_board(header)?;
        let mut record = GameRecord {
            start,
            moves: Vec::new(),
            result,
        };
        let mut board = start;
        let mut at = HEADER;
        loop {
            let Some(entry) = bytes.get(at..at + MOVE) else {
                return Err(format!(
                    "short record: the game ends without its terminator after {} moves",
                    record.moves.len()
                ));
            };
            at += MOVE;
            let raw = u16::from_le_bytes([entry[0], entry[1]]);
            let score = i16::from_le_bytes([entry[2], entry[3]]);
            if raw == 0 && score == 0 {
                return Ok((record, at));
            }
            let mv = decode_move(&board, raw).ok_or_else(|| {
                format!(
                    "move {} ({raw:#06x}) is not legal in {}",
                    record.moves.len() + 1,
                    board.to_fen()
                )
            })?;
            board.play(mv);
            record.moves.push((mv, score));
        }
    }

    /// Each position with its score (White's view) and the move played from it.
    pub fn positions(&self) -> impl Iterator<Item = (Board, i16, Move)> + '_ {
        let mut board = self.start;
        self.moves.iter().map(move |&(mv, score)| {
            let before = board;
            board.play(mv);
            (before, score, mv)
        })
    }

    /// The positions in the trainer's packed form, with its flags.
    pub fn packed(&self) -> impl Iterator<Item = ChessBoard> + '_ {
        self.positions().map(|(board, score, mv)| {
            let stm_score = i32::from(score) * board.side_to_move().sign();
            let flags = if mv.is_quiet() { 0 } else { NOISY_BEST };
            packed::pack(&board, stm_score, self.result, flags)
        })
    }
}

/// Splits a buffer of concatenated records into games.
pub fn decode_all(mut bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    while !bytes.is_empty() {
        let (game, used) =
            GameRecord::decode(bytes).map_err(|e| format!("game {}: {e}", games.len() + 1))?;
        games.push(game);
        bytes = &bytes[used..];
    }
    Ok(games)
}

const CASTLING_ROOK: u8 = 6;

fn encode_board(board: &Board, result: f32, out: &mut Vec<u8>) {
    let occupied = board.occupied();
    let mut castling_rooks = Bitboard::EMPTY;
    for color in Color::ALL {
        for side in CastleSide::ALL {
            if let Some(sq) = board.castling_rook(color, side) {
                castling_rooks = castling_rooks.with(sq);
            }
        }
    }
    let mut nibbles = [0u8; 16];
    for (i, sq) in occupied.into_iter().enumerate() {
        let piece = board.piece_on(sq).expect("occupied square");
        let kind = if castling_rooks.contains(sq) {
            CASTLING_ROOK
        } else {
            piece.kind() as u8
        };
        let nibble = kind | (piece.color() as u8) << 3;
        nibbles[i / 2] |= nibble << (4 * (i % 2));
    }
    out.extend_from_slice(&occupied.0.to_le_bytes());
    out.extend_from_slice(&nibbles);
    let ep = board.en_passant().map_or(64, |sq| sq as u8);
    out.push(ep | (board.side_to_move() as u8) << 7);
    out.push(board.halfmove_clock().min(255) as u8);
    out.extend_from_slice(&board.fullmove_number().to_le_bytes());
    out.extend_from_slice(&0i16.to_le_bytes());
    out.push((result * 2.0).round() as u8);
    out.push(0);
}

/// The start position and result, through FEN (once per game, so speed does not matter, and
/// the board's own FEN checks reject an impossible position).
fn decode_board(bytes: &[u8; HEADER]) -> Result<(Board, f32), String> {
    let occupied = Bitboard(u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")));
    if occupied.count() > 32 {
        return Err(format!("{} pieces on the board", occupied.count()));
    }
    let mut squares = [None; 64];
    let mut castling = String::new();
    for (i, sq) in occupied.into_iter().enumerate() {
        let nibble = bytes[8 + i / 2] >> (4 * (i % 2)) & 0xF;
        let color = if nibble & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let kind = match nibble & 7 {
            CASTLING_ROOK => {
                let file = sq.file().char();
                castling.push(match color {
                    Color::White => file.to_ascii_uppercase(),
                    Color::Black => file,
                });
                PieceType::Rook
            }
            7 => return Err(format!("piece code 7 on {sq}")),
            k => PieceType::from_index(k as usize),
        };
        squares[sq as usize] = Some(crate::types::Piece::new(color, kind));
    }
    let mut fen = placement_text(|sq| squares[sq as usize]);
    let side = if bytes[24] & 0x80 == 0 { 'w' } else { 'b' };
    let ep = match bytes[24] & 0x7F {
        64 => "-".to_string(),
        sq @ 0..64 => Square::from_index(sq as usize).to_string(),
        other => return Err(format!("en-passant square {other}")),
    };
    // Shredder-FEN letters sort White's first; the board reads them in any order.
    let castling = if castling.is_empty() {
        "-".into()
    } else {
        castling
    };
    let fullmove = u16::from_le_bytes([bytes[26], bytes[27]]).max(1);
    let _ = write!(fen, " {side} {castling} {ep} {} {fullmove}", bytes[25]);
    let board = Board::from_fen(&fen).map_err(|e| format!("start position {fen}: {e}"))?;
    let result = match bytes[30] {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        other => return Err(format!("result code {other}")),
    };
    Ok((board, result))
}

fn encode_move(mv: Move) -> u16 {
    let (promo, kind) = match mv.promotion() {
        Some(piece) => (piece as u16 - PieceType::Knight as u16, 3),
        None if mv.is_en_passant() => (0, 1),
        None if mv.is_castle() => (0, 2),
        None => (0, 0),
    };
    mv.from() as u16 | (mv.to() as u16) << 6 | promo << 12 | kind << 14
}

/// The legal move of `board` that `raw` names, if any.
fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let from = Square::from_index(usize::from(raw & 63));
    let to = Square::from_index(usize::from(raw >> 6 & 63));
    let promotion = (raw >> 14 == 3).then(|| PieceType::from_index(usize::from(raw >> 12 & 3) + 1));
    legal_moves::<Magic>(board)
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
        .filter(|m| encode_move(*m) == raw)
}

/// Rebuilds games from packed positions that datagen wrote game by game, every searched
/// position in order (its format before game records): a position continues the game when its
/// ply follows and a legal move leads to it. The packed format has no move, castling rights,
/// en-passant square or halfmove clock, so castling rights are read off kings and rooks on
/// their standard squares, and the last position of each game (whose move is unknown) is
/// dropped. Returns the games and the positions dropped.
pub fn from_packed(positions: &[ChessBoard]) -> (Vec<GameRecord>, usize) {
    let mut games = Vec::new();
    let mut dropped = 0;
    // The game being rebuilt, its last board and that board's score (White's view).
    let mut open: Option<(GameRecord, Board, i16)> = None;
    for pos in positions {
        let ply = pos.extra()[1];
        if let Some((game, board, score)) = open.as_mut() {
            let stm = !board.side_to_move();
            let follows = (ply == u8::MAX || u32::from(ply) == board.game_ply() + 1)
                && white_result(pos, stm) == game.result;
            let target = Placement::of(pos, stm);
            let found = follows
                .then(|| {
                    legal_moves::<Magic>(board).iter().copied().find(|&m| {
                        let mut after = *board;
                        after.play(m);
                        Placement::from_board(&after) == target
                    })
                })
                .flatten();
            if let Some(mv) = found {
                game.moves.push((mv, *score));
                board.play(mv);
                *score = white_score(pos, stm);
                continue;
            }
        }
        if let Some((game, _, _)) = open.take() {
            dropped += 1;
            if !game.is_empty() {
                games.push(game);
            }
        }
        // A saturated ply cannot tell the side to move: such a position starts no game.
        let stm = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        match (ply < u8::MAX)
            .then(|| start_board(pos, stm, ply))
            .flatten()
        {
            Some(board) => {
                let mut game = GameRecord::new(board);
                game.result = white_result(pos, stm);
                open = Some((game, board, white_score(pos, stm)));
            }
            None => dropped += 1,
        }
    }
    if let Some((game, _, _)) = open {
        dropped += 1;
        if !game.is_empty() {
            games.push(game);
        }
    }
    (games, dropped)
}

fn white_result(pos: &ChessBoard, stm: Color) -> f32 {
    use bulletformat::BulletFormat;
    match stm {
        Color::White => pos.result(),
        Color::Black => 1.0 - pos.result(),
    }
}

fn white_score(pos: &ChessBoard, stm: Color) -> i16 {
    use bulletformat::BulletFormat;
    (i32::from(pos.score()) * stm.sign()) as i16
}

/// Where the pieces stand, by colour and kind.
#[derive(PartialEq, Eq)]
struct Placement([u64; 12]);

impl Placement {
    /// A packed position's placement, the side to move being `stm`.
    fn of(pos: &ChessBoard, stm: Color) -> Placement {
        let mut sets = [0u64; 12];
        for (piece, sq) in packed::pieces(pos) {
            let (ours, kind) = (piece & 8 == 0, usize::from(piece & 7));
            let (color, sq) = match stm {
                Color::White => (if ours { 0 } else { 1 }, sq),
                Color::Black => (if ours { 1 } else { 0 }, sq ^ 56),
            };
            sets[color * 6 + kind.min(5)] |= 1 << sq;
        }
        Placement(sets)
    }

    fn from_board(board: &Board) -> Placement {
        let mut sets = [0u64; 12];
        for color in Color::ALL {
            for kind in PieceType::ALL {
                sets[color.index() * 6 + kind.index()] = board.pieces_of(color, kind).0;
            }
        }
        Placement(sets)
    }
}

/// The board of a packed position, castling rights guessed from the kings and rooks.
fn start_board(pos: &ChessBoard, stm: Color, ply: u8) -> Option<Board> {
    let Placement(sets) = Placement::of(pos, stm);
    let mut fen = placement_text(|sq| {
        (0..12)
            .find(|&i| sets[i] >> sq as usize & 1 != 0)
            .map(|i| crate::types::Piece::new(Color::ALL[i / 6], PieceType::from_index(i % 6)))
    });
    let mut castling = String::new();
    for (king, rook, letter) in [(4, 7, 'K'), (4, 0, 'Q'), (60, 63, 'k'), (60, 56, 'q')] {
        let color = usize::from(letter.is_ascii_lowercase());
        let (kings, rooks) = (sets[color * 6 + 5], sets[color * 6 + 3]);
        if kings >> king & 1 != 0 && rooks >> rook & 1 != 0 {
            castling.push(letter);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let side = if stm == Color::White { 'w' } else { 'b' };
    let _ = write!(fen, " {side} {castling} - 0 {}", u16::from(ply) / 2 + 1);
    Board::from_fen(&fen).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    fn play(fen: &str, moves: &[&str], chess960: bool) -> GameRecord {
        let mut game = crate::game::Game::from_fen(fen).unwrap();
        let mut record = GameRecord::new(*game.board());
        for (i, text) in moves.iter().enumerate() {
            let mv = game.play_uci(text, chess960).unwrap();
            record.moves.push((mv, (i as i16 - 3) * 37));
        }
        record.result = 1.0;
        record
    }

    #[test]
    fn a_game_with_every_kind_of_move_survives_the_round_trip() {
        // Castling both ways, a double push, en passant, captures, promotions with and
        // without a capture, an under-promotion.
        let record = play(
            "r3k2r/5pP1/8/4P3/8/8/8/R3K2R w KQkq - 0 1",
            &[
                "e1g1", "f7f5", "e5f6", "e8c8", "g7h8q", "d8h8", "f6f7", "c8b7", "f7f8n", "h8f8",
                "a1a7", "b7a7",
            ],
            false,
        );
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        assert_eq!(bytes.len(), record.encoded_len());
        let (back, used) = GameRecord::decode(&bytes).unwrap();
        assert_eq!(used, bytes.len());
        assert_eq!(back, record);
    }

    #[test]
    fn chess960_castling_rights_and_moves_survive() {
        let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
        let record = play(fen, &["e1g1", "e8b8"], true);
        assert!(record.moves.iter().all(|(m, _)| m.is_castle()));
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        let (back, _) = GameRecord::decode(&bytes).unwrap();
        assert_eq!(back.start.to_fen(), record.start.to_fen());
        assert_eq!(back, record);
    }

    #[test]
    fn the_start_position_is_laid_out_as_the_format_says() {
        let record = GameRecord {
            result: 1.0,
            ..GameRecord::new(Board::from_fen(START_FEN).unwrap())
        };
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        // Entry i is the low nibble of byte i / 2 for even i: a1 = castling rook (6), b1 =
        // knight (1), c1 = bishop (2), d1 = queen (4), e1 = king (5), ...; Black's with bit 3.
        let expected: [u8; 32] = [
            0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0x16, 0x42, 0x25, 0x61, 0, 0, 0, 0, 0x88, 0x88,
            0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, 0x40, 0, 1, 0, 0, 0, 2, 0,
        ];
        assert_eq!(bytes[..32], expected);
        assert_eq!(bytes[32..], [0; 4]);
    }

    #[test]
    fn cut_off_and_illegal_records_are_refused() {
        let record = play(START_FEN, &["e2e4", "e7e5"], false);
        let mut bytes = Vec::new();
        record.encode(&mut bytes);
        for cut in [10, HEADER + 2, bytes.len() - 1] {
            let err = GameRecord::decode(&bytes[..cut]).unwrap_err();
            assert!(err.starts_with("short record"), "{err}");
        }
        // e2e4 turned into e2e5.
        let mut bad = bytes.clone();
        let e2e5 = Square::E2 as u16 | (Square::E5 as u16) << 6;
        bad[HEADER..HEADER + 2].copy_from_slice(&e2e5.to_le_bytes());
        assert!(GameRecord::decode(&bad).unwrap_err().contains("not legal"));
    }

    #[test]
    fn packed_positions_carry_the_flags_the_trainer_filters_on() {
        let record = play(START_FEN, &["e2e4", "d7d5", "e4d5", "d8d5"], false);
        let flags: Vec<u8> = record.packed().map(|p| p.extra[0]).collect();
        assert_eq!(flags, [0, 0, NOISY_BEST, NOISY_BEST]);
        let plies: Vec<u8> = record.packed().map(|p| p.extra[1]).collect();
        assert_eq!(plies, [0, 1, 2, 3]);
    }

    #[test]
    fn games_are_rebuilt_from_packed_positions() {
        let first = play(
            START_FEN,
            &[
                "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6e4",
            ],
            false,
        );
        let mut second = play(START_FEN, &["d2d4", "d7d5", "c2c4", "d5c4"], false);
        second.result = 0.5;
        let packed: Vec<ChessBoard> = first.packed().chain(second.packed()).collect();
        let (games, dropped) = from_packed(&packed);
        assert_eq!(dropped, 2, "the last position of each game");
        assert_eq!(games.len(), 2);
        for (rebuilt, original) in games.iter().zip([&first, &second]) {
            assert_eq!(rebuilt.result, original.result);
            assert_eq!(rebuilt.moves, original.moves[..original.moves.len() - 1]);
            assert_eq!(rebuilt.start.to_fen(), original.start.to_fen());
        }
    }
}
