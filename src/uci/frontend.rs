//! The front-end: owns the game (position and history), the options and the debug flag, and
//! turns each line from the GUI into an answer or a job for the engine. It never waits for the
//! engine: `isready` goes to the engine, which answers once earlier commands have taken effect
//! (at once during a search).

use super::go_params::{GoRequest, parse_go};
use super::line::{UciCommand, parse_line};
use super::number::parse_integer;
use super::options::{self, Action, Options};
use super::position::parse_position;
use crate::attacks::Magic;
use crate::board::Board;
use crate::engine::Engine;
use crate::eval::describe;
use crate::game::Game;
use crate::protocol::format::{id_lines, info_string, option_line, shorten};
use crate::search::bench_suite;
use crate::tablebase::Tablebases;
use std::io::Write;
use std::time::Instant;

/// Whether to keep reading input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct FrontEnd {
    engine: Engine,
    options: Options,
    /// The values at start-up, announced as the defaults.
    defaults: Options,
    game: Game,
    debug: bool,
    /// A `Hash` size not yet sent to the engine: resizing waits for `isready`, `go` or
    /// `ucinewgame`, so a value replaced before then is never allocated.
    pending_hash: Option<usize>,
}

impl FrontEnd {
    /// Starts the engine with `options` (the built-in defaults, or those of the config file).
    pub fn new(options: Options, out: Box<dyn Write + Send>) -> FrontEnd {
        let engine = Engine::start(options.hash_mb(), options.threads(), out);
        let mut front = FrontEnd {
            engine,
            defaults: options.clone(),
            options,
            game: Game::new(Board::startpos()),
            debug: false,
            pending_hash: None,
        };
        if !front.options.debug_log_file().is_empty()
            && let Err(e) = front
                .engine
                .transcript()
                .open(front.options.debug_log_file())
        {
            log::error!("{e}");
            front.options.reset(options::DEBUG_LOG_FILE);
        }
        if !front.options.syzygy_path().is_empty() {
            front.set_tablebases(front.options.syzygy_path().to_string());
        }
        front
    }

    /// The current position (for tests and the `d` command).
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn send_info_string(&self, text: &str) {
        self.engine.send_line(info_string(text));
    }

    /// A line longer than the reader accepts.
    pub fn too_long(&self, bytes: usize) {
        self.engine
            .transcript()
            .received(&format!("<a line of {bytes} bytes, skipped>"));
        self.send_info_string(&format!(
            "ignored a line of {bytes} bytes: longer than {} bytes",
            super::reader::MAX_LINE_BYTES
        ));
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        // The GUI's clock for a `go` runs from here.
        let received = Instant::now();
        self.engine.transcript().received(line);
        log::debug!("received: {line}");
        match parse_line(line) {
            UciCommand::Uci => self.uci(),
            UciCommand::Debug(on) => self.debug = on,
            UciCommand::IsReady => {
                self.resize_hash();
                self.engine.ready();
            }
            UciCommand::Register => log::debug!("register: no registration is needed"),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::UciNewGame => {
                self.resize_hash();
                self.engine.clear();
            }
            UciCommand::Position(words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                match parse_position(&words, self.options.chess960()) {
                    Ok(game) => self.game = game,
                    Err(e) => self.send_info_string(&format!("{e}; the position is unchanged")),
                }
            }
            UciCommand::Go(words) => self.go(&words, received),
            UciCommand::Stop => self.engine.stop(),
            UciCommand::PonderHit => self.engine.ponderhit(),
            UciCommand::Quit => return Flow::Quit,
            UciCommand::Display => self.engine.send_line(self.game.board().to_string()),
            UciCommand::Eval => self.eval(),
            UciCommand::Compiler => self.compiler(),
            UciCommand::Bench(depth) => self.bench(depth.as_deref()),
            UciCommand::Empty => {}
            UciCommand::Invalid(reason) => self.send_info_string(&reason),
        }
        Flow::Continue
    }

    /// Ends the engine (stops a search, flushes the output).
    pub fn quit(self) {
        self.engine.quit();
    }

    fn uci(&self) {
        let mut lines: Vec<String> = id_lines().into();
        lines.extend(self.defaults.declarations().iter().map(option_line));
        lines.push("uciok".to_string());
        self.engine.send_line(lines.join("\n"));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let before = self.options.clone();
        let applied = match self.options.set(name, value) {
            Ok(applied) => applied,
            Err(e) => return self.send_info_string(&e),
        };
        match applied.action {
            Action::ResizeHash => self.pending_hash = Some(self.options.hash_mb()),
            Action::SetThreads => {
                if self.options.threads() != before.threads() {
                    self.engine.set_threads(self.options.threads());
                }
            }
            Action::ClearHash | Action::LoadNetwork => {
                self.resize_hash();
                self.engine.clear();
            }
            Action::OpenDebugLog => {
                if let Err(e) = self.engine.transcript().open(self.options.debug_log_file()) {
                    self.options = before;
                    return self.send_info_string(&e);
                }
            }
            Action::OpenTablebases => self.set_tablebases(self.options.syzygy_path().to_string()),
            Action::Search | Action::SetParameter => {}
        }
        if let Some(note) = applied.note {
            self.send_info_string(&note);
        }
    }

    /// Checks the folders at once (so the answer comes before `readyok`), then has the search
    /// thread open them.
    fn set_tablebases(&mut self, paths: String) {
        if paths.trim().is_empty() {
            return self.engine.set_tablebases(String::new());
        }
        match Tablebases::inspect(&paths) {
            Ok(found) => {
                self.send_info_string(&found);
                self.engine.set_tablebases(paths);
            }
            Err(e) => {
                self.send_info_string(&format!("{e}; playing without tablebases"));
                self.options.reset(options::SYZYGY_PATH);
                self.engine.set_tablebases(String::new());
            }
        }
    }

    fn resize_hash(&mut self) {
        if let Some(mb) = self.pending_hash.take() {
            self.engine.set_hash(mb);
        }
    }

    fn go(&mut self, words: &[String], received: Instant) {
        self.resize_hash();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let parsed = parse_go(&words, self.game.board(), self.options.chess960());
        if !parsed.problems.is_empty() {
            self.send_info_string(&format!("go: {}", parsed.problems.join("; ")));
        }
        match parsed.request {
            Some(GoRequest::Search(limits)) => {
                let config = self.options.search_config();
                if self.debug {
                    self.send_info_string(&format!(
                        "searching {} with {} thread(s), hash {} MB, attacks {}",
                        self.game.board().to_fen(),
                        config.threads,
                        self.options.hash_mb(),
                        config.backend
                    ));
                }
                self.engine.go(
                    self.game.clone(),
                    limits,
                    config,
                    self.options.ponder(),
                    received,
                );
            }
            Some(GoRequest::Perft(depth)) => self.engine.perft(
                *self.game.board(),
                depth,
                self.options.backend(),
                self.options.chess960(),
            ),
            None => {}
        }
    }

    fn compiler(&self) {
        let file = self.options.text(options::EVAL_FILE);
        let source = match file.trim() {
            "" => "embedded".to_string(),
            path => format!("EvalFile {path}"),
        };
        let lines = crate::build_info::lines(self.options.network(), &source);
        self.engine.send_line(lines.join("\n"));
    }

    fn eval(&self) {
        self.engine
            .send_line(describe::<Magic>(self.game.board(), self.options.network()));
    }

    fn bench(&mut self, depth: Option<&str>) {
        let depth = match depth.map(parse_integer) {
            None => bench_suite::DEFAULT_DEPTH,
            Some(Some(d)) if (1..=64).contains(&d) => d as u32,
            Some(_) => {
                return self.send_info_string(&format!(
                    "bench: depth '{}' is not a number from 1 to 64",
                    shorten(depth.unwrap_or_default())
                ));
            }
        };
        self.engine.bench(depth, self.options.search_config());
    }
}
