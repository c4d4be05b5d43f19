//! The search score in a move's comment, as fastchess writes it and OpenBench keeps it:
//! `{+0.35/12 0.120s, n=5012, sd=15}` (VERBOSE), `{+0.35/12}` (COMPACT): pawns from the
//! mover's view, then the depth. Mates are `+M5` / `-M4` (plies to mate; `#5`, `#-4` also
//! read); `book` marks a move of the opening.

/// What a move's comment says of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Note {
    /// A move of the opening, not searched.
    Book,
    /// The mover's score in centipawns (mates at ±[`MATE_CP`]).
    Score(i32),
    /// No score (no comment, `unknown`, or a form not read).
    Missing,
}

/// The score a mate stands for, as datagen stores it.
pub const MATE_CP: i32 = 32_000;

/// Reads a move's comment (`None`: the move has none).
pub fn note(comment: Option<&str>) -> Note {
    let Some(text) = comment.map(str::trim) else {
        return Note::Missing;
    };
    if text == "book" {
        return Note::Book;
    }
    let first = text.split([' ', ',']).next().unwrap_or("");
    let Some((score, depth)) = first.split_once('/') else {
        return Note::Missing;
    };
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return Note::Missing;
    }
    centipawns(score).map_or(Note::Missing, Note::Score)
}

/// `+0.35` → 35, `-1.5` → -150, `+M5` → MATE_CP, `-M4`, `#-4` → -MATE_CP.
fn centipawns(text: &str) -> Option<i32> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if let Some(plies) = rest.strip_prefix('M').or_else(|| rest.strip_prefix('#')) {
        let (negative, plies) = match plies.strip_prefix('-') {
            Some(p) => (!negative, p),
            None => (negative, plies),
        };
        plies.parse::<u32>().ok()?;
        return Some(if negative { -MATE_CP } else { MATE_CP });
    }
    if !rest.bytes().all(|b| b.is_ascii_digit() || b == b'.') || rest.is_empty() {
        return None;
    }
    let pawns: f64 = rest.parse().ok()?;
    let cp = (pawns * 100.0).round().min(f64::from(MATE_CP)) as i32;
    Some(if negative { -cp } else { cp })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastchess_and_openbench_comments() {
        for (comment, expected) in [
            ("+0.35/12 0.120s, n=5012, sd=15", Note::Score(35)),
            ("+0.35/12", Note::Score(35)),
            (" -1.50/9 0.051s", Note::Score(-150)),
            ("0.00/20", Note::Score(0)),
            ("+0.35/12, line=a b c", Note::Score(35)),
            ("+M5/30 0.2s", Note::Score(MATE_CP)),
            ("-M4/30", Note::Score(-MATE_CP)),
            ("#3/12", Note::Score(MATE_CP)),
            ("#-2/12", Note::Score(-MATE_CP)),
            (
                "+10.15/18 1.821s, engine2 got checkmated",
                Note::Score(1015),
            ),
            ("+999.00/5", Note::Score(32_000)),
            ("book", Note::Book),
            ("unknown", Note::Missing),
            ("/12 0.1s", Note::Missing),
            ("+0.35 0.1s", Note::Missing),
            ("+0.3x/12", Note::Missing),
            ("+0.35/", Note::Missing),
            ("ERR/12", Note::Missing),
        ] {
            assert_eq!(note(Some(comment)), expected, "{comment}");
        }
        assert_eq!(note(None), Note::Missing);
    }
}
