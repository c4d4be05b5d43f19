//! Reading the GUI's lines from stdin: bytes up to `\n`, decoded lossily (invalid UTF-8 becomes
//! U+FFFD instead of an error), a trailing `\r` dropped, and a cap on the length so a line that
//! never ends cannot eat the memory.

use std::io::{self, BufRead};

/// Longer lines are skipped (a real command is a few kilobytes at most: a long game's moves).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One thing read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line longer than the cap was skipped; this many bytes were dropped.
    TooLong(usize),
}

pub struct LineReader<R: BufRead> {
    inner: R,
    max_bytes: usize,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_limit(inner, MAX_LINE_BYTES)
    }

    pub fn with_limit(inner: R, max_bytes: usize) -> LineReader<R> {
        LineReader { inner, max_bytes }
    }

    /// The next line, or `None` at the end of the input. Read errors other than an interrupt
    /// end the input too: there is nothing else to read from.
    pub fn next_input(&mut self) -> Option<Input> {
        let mut bytes = Vec::new();
        let mut dropped = 0usize;
        let mut saw_anything = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("reading stdin failed: {e}");
                    return None;
                }
            };
            if chunk.is_empty() {
                // End of input: a last line without `\n` still counts.
                return saw_anything.then(|| Self::finish(bytes, dropped));
            }
            saw_anything = true;
            let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            let room = self.max_bytes.saturating_sub(bytes.len());
            if part.len() <= room && dropped == 0 {
                bytes.extend_from_slice(part);
            } else {
                dropped += part.len();
            }
            self.inner.consume(used);
            if done {
                return Some(Self::finish(bytes, dropped));
            }
        }
    }

    fn finish(bytes: Vec<u8>, dropped: usize) -> Input {
        if dropped > 0 {
            return Input::TooLong(bytes.len() + dropped);
        }
        let mut line = String::from_utf8_lossy(&bytes).into_owned();
        while line.ends_with('\r') {
            line.pop();
        }
        Input::Line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(data: &[u8], limit: usize) -> Vec<Input> {
        let mut reader = LineReader::with_limit(data, limit);
        std::iter::from_fn(|| reader.next_input()).collect()
    }

    fn line(s: &str) -> Input {
        Input::Line(s.to_string())
    }

    #[test]
    fn splits_lines_and_drops_carriage_returns() {
        let got = read_all(b"uci\r\nisready\n\ngo depth 1", 100);
        assert_eq!(
            got,
            vec![line("uci"), line("isready"), line(""), line("go depth 1")]
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let got = read_all(b"pos\xff\xfeition\nisready\n", 100);
        assert_eq!(got, vec![line("pos\u{fffd}\u{fffd}ition"), line("isready")]);
    }

    #[test]
    fn overlong_lines_are_skipped_and_reading_goes_on() {
        let mut data = vec![b'x'; 50];
        data.extend_from_slice(b"\nisready\n");
        let got = read_all(&data, 10);
        assert_eq!(got, vec![Input::TooLong(50), line("isready")]);
    }

    #[test]
    fn empty_input_is_the_end() {
        assert!(read_all(b"", 10).is_empty());
    }
}
