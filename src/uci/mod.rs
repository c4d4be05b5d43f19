//! The UCI front-end: reading stdin, parsing (vampirc-uci for the simple commands, our own
//! parsers for `go` and `position`) and the options; what it sends is formatted by
//! [`protocol`](crate::protocol).
//!
//! [`run`] is the UCI loop of the binary: one line in, at once an answer or a job for the
//! [`engine`](crate::engine); input ends with `quit` or the end of stdin.

pub mod frontend;
pub mod go_params;
pub mod line;
pub mod number;
pub mod options;
pub mod position;
pub mod reader;

pub use frontend::{Flow, FrontEnd};
pub use options::Options;

use reader::{Input, LineReader};
use std::io::{BufRead, Write};

/// Runs the protocol on `input` until `quit` or its end, writing to `out`.
pub fn run(options: Options, input: impl BufRead, out: Box<dyn Write + Send>) {
    let mut front = FrontEnd::new(options, out);
    let mut reader = LineReader::new(input);
    while let Some(input) = reader.next_input() {
        match input {
            Input::Line(line) => {
                if front.handle(&line) == Flow::Quit {
                    break;
                }
            }
            Input::TooLong(bytes) => front.too_long(bytes),
        }
    }
    front.quit();
}
