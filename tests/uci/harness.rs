//! Drives the real `quintessence` binary over pipes: lines in, lines out, with timeouts.

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_quintessence");

/// Generous bound for anything that should be (nearly) instant, so a loaded CI machine passes.
pub const PROMPT: Duration = Duration::from_millis(250);
/// Bound for searches that should end by themselves soon.
pub const SOON: Duration = Duration::from_secs(20);

#[path = "../common/data.rs"]
mod data;
pub use data::test_data;

/// A scratch directory for one test, removed at the end.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("quintessence-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far, for failure messages.
    pub transcript: Vec<String>,
    _dir: TempDir,
}

impl Engine {
    /// The engine, run in an empty directory so no `engine-config/` is picked up.
    pub fn start() -> Engine {
        Engine::start_with(&[], "engine")
    }

    pub fn start_with(args: &[&str], name: &str) -> Engine {
        Engine::start_env(args, &[], name)
    }

    /// The engine with extra environment variables; its stderr goes to a file ([`Engine::stderr`]).
    pub fn start_env(args: &[&str], env: &[(&str, &str)], name: &str) -> Engine {
        let dir =
            TempDir::new(&format!("{name}-{:?}", thread::current().id()).replace(['(', ')'], ""));
        let stderr = std::fs::File::create(dir.0.join("stderr.txt")).unwrap();
        let mut child = Command::new(BIN)
            .args(args)
            .envs(env.iter().copied())
            .current_dir(&dir.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(line) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            _dir: dir,
        }
    }

    pub fn dir(&self) -> &std::path::Path {
        &self._dir.0
    }

    /// What the engine wrote to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self._dir.0.join("stderr.txt")).unwrap_or_default()
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| {
                panic!("engine stdin closed ({e}); output so far:\n{}", self.tail())
            });
    }

    /// The last lines received, for failure messages.
    pub fn tail(&self) -> String {
        let start = self.transcript.len().saturating_sub(30);
        self.transcript[start..].join("\n")
    }

    /// The next line within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; panics after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                None => panic!(
                    "no expected line within {timeout:?}; last output:\n{}",
                    self.tail()
                ),
            }
        }
    }

    /// `isready` → lines up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(SOON, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Waits for `bestmove`: the lines before it and the move (and ponder move).
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String, Option<String>) {
        let mut lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let last = lines.pop().unwrap();
        let words: Vec<&str> = last.split_whitespace().collect();
        let best = words.get(1).expect("bestmove has a move").to_string();
        let ponder = match words.get(2) {
            Some(&"ponder") => Some(words.get(3).expect("ponder has a move").to_string()),
            _ => None,
        };
        (lines, best, ponder)
    }

    /// The current position's FEN, from `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(SOON, |l| l.starts_with("Key: "));
        let fen = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("Fen: "))
            .expect("d shows the FEN");
        fen["Fen: ".len()..].to_string()
    }

    /// Lines arriving within `window` (none expected, usually).
    pub fn quiet_for(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut got = Vec::new();
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// Closes stdin and waits for the process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `info string` lines among `lines`.
pub fn info_strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Runs the binary with `input` on stdin: (stdout, stderr).
pub fn run_in(dir: &std::path::Path, args: &[&str], input: &str) -> (String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "exit status {:?}", output.status);
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
