//! OpenBench's data-generation PGNs as game records: fastchess's games, as OpenBench's client
//! uploads them (COMPACT or VERBOSE), moves in SAN each with its search score in a comment.
//!
//! Each game is replayed move by move from its `FEN` tag (or the start position) and becomes a
//! record as datagen's own games are (`records.rs`): the position after the opening's `book`
//! moves, then each move with the mover's score turned to White's view (mates at ±32 000), and
//! the result of the `Result` tag. A game is taken whole or refused whole, with the reason: a
//! bad tag line or tag value, an illegal or ambiguous move, a searched move without a score, a
//! result that is not a finished game's (`*`) or that the move text contradicts, or no searched
//! move at all. Nothing else is dropped: datagen keeps every searched position too, and the
//! trainer's filter (`packed::Filter`: early plies, checks, noisy best moves, mate scores)
//! applies to these positions as to self-play ones.

mod comment;
pub mod import;
mod san;
pub mod sources;

pub use comment::{MATE_CP, Note, note};
pub use san::find_move;

use crate::board::{Board, START_FEN};
use crate::train::records::GameRecord;
use crate::types::{Color, Move};

/// One game's text: its tag lines and move text, and where it starts in its file.
#[derive(Debug, Default)]
pub struct GameText {
    /// The line number of its first line.
    pub line: usize,
    pub tags: Vec<String>,
    pub movetext: String,
}

/// Splits a PGN file's text into games: a game is a tag section and the move text after it
/// (a line starting with `[` outside a comment starts the next game's tags).
pub fn split_games(text: &str) -> Vec<GameText> {
    let mut games = Vec::new();
    let mut game = GameText::default();
    let mut in_comment = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if !in_comment && trimmed.starts_with('[') {
            if !game.movetext.trim().is_empty() {
                games.push(std::mem::take(&mut game));
            }
            if game.tags.is_empty() {
                game.line = i + 1;
            }
            game.tags.push(trimmed.to_string());
        } else if !trimmed.is_empty() {
            if game.tags.is_empty() && game.movetext.is_empty() {
                game.line = i + 1;
            }
            in_comment = ends_in_comment(in_comment, line);
            game.movetext.push_str(line);
            game.movetext.push('\n');
        }
    }
    if !game.tags.is_empty() || !game.movetext.trim().is_empty() {
        games.push(game);
    }
    games
}

/// Whether a brace comment is still open after `line`.
fn ends_in_comment(mut open: bool, line: &str) -> bool {
    for c in line.chars() {
        match c {
            '{' if !open => open = true,
            '}' if open => open = false,
            ';' if !open => break,
            _ => {}
        }
    }
    open
}

/// A tag line `[Name "value"]` (with `\"` and `\\` escapes in the value).
pub fn parse_tag(line: &str) -> Result<(String, String), String> {
    let bad = || format!("bad tag line '{line}'");
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, rest) = inner
        .trim()
        .split_once(char::is_whitespace)
        .ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let quoted = rest.trim().strip_prefix('"').ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    loop {
        match chars.next().ok_or_else(bad)? {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => break,
            c => value.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), value))
}

/// A piece of move text.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Move(&'a str),
    Comment(&'a str),
    Result(&'a str),
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The moves, comments and result of a move text; move numbers, NAGs, `;` comments and
/// variations are passed over.
fn tokens(text: &str) -> Result<Vec<Token<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut depth = 0usize;
    while let Some(c) = rest.chars().next() {
        let (token, after) = match c {
            c if c.is_whitespace() => (None, &rest[c.len_utf8()..]),
            '{' => {
                let end = rest.find('}').ok_or("a comment is not closed")?;
                (Some(Token::Comment(&rest[1..end])), &rest[end + 1..])
            }
            ';' => (None, rest.find('\n').map_or("", |end| &rest[end..])),
            '(' => {
                depth += 1;
                (None, &rest[1..])
            }
            ')' => {
                depth = depth.checked_sub(1).ok_or("')' without '('")?;
                (None, &rest[1..])
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{};()".contains(c))
                    .unwrap_or(rest.len());
                (word(&rest[..end]), &rest[end..])
            }
        };
        if depth == 0
            && let Some(token) = token
        {
            out.push(token);
        }
        rest = after;
    }
    if depth > 0 {
        return Err("a variation is not closed".into());
    }
    Ok(out)
}

/// A word of move text: a result, a move (a move number before it dropped), or nothing.
fn word(text: &str) -> Option<Token<'_>> {
    if RESULTS.contains(&text) {
        return Some(Token::Result(text));
    }
    let text = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if text.is_empty() || text.starts_with('$') {
        return None;
    }
    Some(Token::Move(text))
}

/// White's result of a PGN result.
fn white_result(text: &str) -> Option<f32> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The game's start position and result from its tags.
fn read_tags(tags: &[String]) -> Result<(Board, f32), String> {
    let (mut start, mut result) = (None, None);
    for line in tags {
        let (name, value) = parse_tag(line)?;
        match name.as_str() {
            "FEN" => {
                let board = Board::from_fen(&value).map_err(|e| format!("FEN tag: {e}"))?;
                start = Some(board);
            }
            "Variant" => match value.to_ascii_lowercase().as_str() {
                "" | "standard" | "chess960" | "fischerandom" | "fischer random" => {}
                _ => return Err(format!("Variant tag '{value}' is not chess or Chess960")),
            },
            "Result" => {
                let white = white_result(&value).ok_or_else(|| match value.as_str() {
                    "*" => "unfinished game (Result '*')".to_string(),
                    _ => format!("bad Result tag '{value}'"),
                })?;
                result = Some(white);
            }
            _ => {}
        }
    }
    let start = start.unwrap_or_else(|| Board::from_fen(START_FEN).expect("start position"));
    Ok((start, result.ok_or("no Result tag")?))
}

/// How a move is written in errors: `12. Nf3` or `12... Nf6`.
fn numbered(board: &Board, san: &str) -> String {
    let dots = if board.side_to_move() == Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots} {san}", board.fullmove_number())
}

/// Replays one game into a record; the error says why it is refused.
pub fn replay(game: &GameText) -> Result<GameRecord, String> {
    let (start, result) = read_tags(&game.tags)?;
    let tokens = tokens(&game.movetext)?;
    let mut record = GameRecord::new(start);
    record.result = result;
    let mut board = start;
    for (i, token) in tokens.iter().enumerate() {
        match *token {
            Token::Move(san) => {
                let at = numbered(&board, san);
                let comment = match tokens.get(i + 1) {
                    Some(Token::Comment(text)) => Some(*text),
                    _ => None,
                };
                let mv = find_move(&board, san).map_err(|e| format!("{at}: {e}"))?;
                push_move(&mut record, &board, mv, note(comment))
                    .map_err(|e| format!("{at}: {e}"))?;
                board.play(mv);
            }
            Token::Result(text) if i + 1 < tokens.len() => {
                return Err(format!("move text goes on after the result '{text}'"));
            }
            Token::Result(text) if white_result(text) != Some(result) => {
                return Err(format!(
                    "the move text ends '{text}', the Result tag differs"
                ));
            }
            Token::Result(_) | Token::Comment(_) => {}
        }
    }
    if record.is_empty() {
        return Err("no searched move".into());
    }
    Ok(record)
}

/// Adds a move to the record: a book move before any searched one moves the start; a
/// searched move is kept with its score, White's view.
fn push_move(record: &mut GameRecord, before: &Board, mv: Move, note: Note) -> Result<(), String> {
    match note {
        Note::Book if record.is_empty() => {
            record.start.play(mv);
            Ok(())
        }
        Note::Book => Err("a book move after searched moves".into()),
        Note::Missing => Err("no score in the move's comment".into()),
        Note::Score(cp) => {
            let white = (cp * before.side_to_move().sign()).clamp(-MATE_CP, MATE_CP);
            record.moves.push((mv, white as i16));
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_with_escapes_and_bad_tag_lines() {
        assert_eq!(
            parse_tag(r#"[White "A \"quoted\" \\ name"]"#).unwrap(),
            ("White".to_string(), r#"A "quoted" \ name"#.to_string())
        );
        for line in [
            "[Result 1-0]",
            r#"[Result "1-0""#,
            r#"[ "1-0"]"#,
            r#"[Result "1-0" x]"#,
            r#"[Re-sult "1-0"]"#,
        ] {
            assert!(parse_tag(line).is_err(), "{line}");
        }
    }

    #[test]
    fn move_text_tokens_skip_numbers_nags_variations_and_line_comments() {
        let text =
            "1. e4 {+0.3/1} e5 $2 (1... c5 {x} 2. Nf3) 2.Nf3 ; rest\n2... Nc6 {a\nb} 1/2-1/2";
        assert_eq!(
            tokens(text).unwrap(),
            [
                Token::Move("e4"),
                Token::Comment("+0.3/1"),
                Token::Move("e5"),
                Token::Move("Nf3"),
                Token::Move("Nc6"),
                Token::Comment("a\nb"),
                Token::Result("1/2-1/2"),
            ]
        );
        assert!(tokens("1. e4 {open").is_err());
        assert!(tokens("1. e4 (e5").is_err());
    }

    #[test]
    fn games_split_at_each_tag_section_and_comments_may_hold_brackets() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 {x\n[not a tag]} 1-0\n\n\
                    [Event \"b\"]\n\n1. d4 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].line, games[0].tags.len()), (1, 2));
        assert!(games[0].movetext.contains("[not a tag]"));
        assert_eq!((games[1].line, games[1].tags.len()), (7, 1));
    }

    #[test]
    fn a_result_the_move_text_contradicts_is_refused() {
        let game = |movetext: &str| GameText {
            line: 1,
            tags: vec![r#"[Result "1-0"]"#.to_string()],
            movetext: movetext.to_string(),
        };
        assert!(replay(&game("1. e4 {+0.1/1} 1-0")).is_ok());
        let error = replay(&game("1. e4 {+0.1/1} 0-1")).unwrap_err();
        assert!(error.contains("Result tag differs"), "{error}");
        let error = replay(&game("1. e4 {+0.1/1} 1-0 e5")).unwrap_err();
        assert!(error.contains("after the result"), "{error}");
        let error = replay(&game("1. e4 {book} 1-0")).unwrap_err();
        assert!(error.contains("no searched move"), "{error}");
    }
}
