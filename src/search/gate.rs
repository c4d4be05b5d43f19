//! A one-way gate: threads wait at it until it opens, once.

use std::sync::{Condvar, Mutex, PoisonError};

#[derive(Debug, Default)]
pub struct Gate {
    open: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    /// Blocks until the gate is open (at once if it is).
    pub fn wait(&self) {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let _open = self
            .opened
            .wait_while(open, |open| !*open)
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// Opens the gate for good, waking every waiting thread.
    pub fn open(&self) {
        *self.open.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.opened.notify_all();
    }
}

/// Opens the gate when dropped (also by a panic), so no thread waits forever.
pub struct OpenOnDrop<'a>(pub &'a Gate);

impl Drop for OpenOnDrop<'_> {
    fn drop(&mut self) {
        self.0.open();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_threads_pass_once_the_gate_opens() {
        let gate = Gate::default();
        let passed = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    gate.wait();
                    passed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert_eq!(passed.load(std::sync::atomic::Ordering::SeqCst), 0);
            drop(OpenOnDrop(&gate));
        });
        assert_eq!(passed.load(std::sync::atomic::Ordering::SeqCst), 4);
        gate.wait();
    }
}
