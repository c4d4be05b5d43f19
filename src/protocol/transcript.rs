//! The `Debug Log File`: every line received and sent, with a timestamp, appended to a file the
//! user names, so a GUI session can be replayed or reported.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Transcript {
    file: Mutex<Option<File>>,
}

impl Transcript {
    /// Starts appending to `path`; an empty path closes the log.
    pub fn open(&self, path: &str) -> Result<(), String> {
        let file = if path.is_empty() {
            None
        } else {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open debug log file '{path}': {e}"))?;
            Some(file)
        };
        *self.lock() = file;
        Ok(())
    }

    /// A line from the GUI.
    pub fn received(&self, line: &str) {
        self.write("recv", line);
    }

    /// Text sent to the GUI (one or more lines).
    pub fn sent(&self, text: &str) {
        for line in text.lines() {
            self.write("send", line);
        }
    }

    fn write(&self, direction: &str, line: &str) {
        let mut guard = self.lock();
        if let Some(file) = guard.as_mut() {
            let time = chrono::Local::now().format("%Y-%m-%d %H:%M:%S%.3f");
            if let Err(e) = writeln!(file, "{time} {direction} {line}") {
                log::warn!("writing the debug log file failed, closing it: {e}");
                *guard = None;
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<File>> {
        // A panic while holding the lock leaves a file that is still fine to write to.
        self.file.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_both_directions_with_timestamps() {
        let path = std::env::temp_dir().join(format!("q-transcript-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let t = Transcript::default();
        t.received("not logged yet");
        t.open(path.to_str().unwrap()).unwrap();
        t.received("isready");
        t.sent("readyok");
        t.open("").unwrap();
        t.sent("not logged any more");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].ends_with(" recv isready") && lines[1].ends_with(" send readyok"));
        assert!(lines[0].starts_with("20"), "timestamp first: {}", lines[0]);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn an_unwritable_path_is_an_error() {
        let t = Transcript::default();
        assert!(t.open("/nonexistent-dir/x/y.log").is_err());
    }
}
