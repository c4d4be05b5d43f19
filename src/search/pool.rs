//! The search threads: created when `Threads` changes, parked between searches, each with its
//! own move-ordering history. A search (or a clear) runs one job on every thread at once.

use super::history::History;
use super::node::Scratch;
use rayon_core::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Deep searches recurse far; the stack is reserved, not touched, until used.
const STACK_BYTES: usize = 16 << 20;

pub struct Pool {
    threads: ThreadPool,
    /// One per thread; thread `i` only ever locks entry `i`.
    data: Vec<Mutex<ThreadData>>,
}

/// What a search thread keeps from one search to the next.
pub struct ThreadData {
    pub history: History,
    /// Taken by a search and given back at its end (`None` after a panic: made anew).
    pub scratch: Option<Scratch>,
}

impl Pool {
    /// `count` parked threads (at least one).
    pub fn new(count: usize) -> Result<Pool, String> {
        let count = count.max(1);
        let threads = ThreadPoolBuilder::new()
            .num_threads(count)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("search-{i}"))
            .start_handler(|_| super::slices::prefer_default())
            .build()
            .map_err(|e| format!("cannot start {count} search threads: {e}"))?;
        let data = (0..count)
            .map(|_| {
                Mutex::new(ThreadData {
                    history: History::default(),
                    scratch: Some(Scratch::default()),
                })
            })
            .collect();
        let pool = Pool { threads, data };
        // Each thread writes its tables now (before `readyok`) rather than in its first search:
        // hundreds of threads faulting in fresh pages at once stall the whole process.
        pool.broadcast(|_, _, history| history.clear());
        Ok(pool)
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Runs `job(index, history)` on every thread at once, and `watch` meanwhile on the calling
    /// thread; returns `watch`'s result once every job has ended. A panic in a job is raised
    /// again here after all have ended.
    pub fn run<R>(
        &self,
        job: impl Fn(usize, &mut ThreadData) + Send + Sync,
        watch: impl FnOnce() -> R,
    ) -> R {
        let data = &self.data;
        self.threads.in_place_scope(|scope| {
            scope.spawn_broadcast(|_, context| {
                let index = context.index();
                job(index, &mut lock(&data[index]));
            });
            watch()
        })
    }

    /// Runs `job(index, count, history)` on every thread at once and waits for all.
    pub fn broadcast(&self, job: impl Fn(usize, usize, &mut History) + Send + Sync) {
        let count = self.len();
        self.run(|index, data| job(index, count, &mut data.history), || ());
    }
}

/// A panic while a history was locked leaves tables of plain numbers: still usable.
fn lock(data: &Mutex<ThreadData>) -> MutexGuard<'_, ThreadData> {
    data.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_thread_runs_the_job_once_while_the_caller_watches() {
        let pool = Pool::new(3).unwrap();
        let seen = [const { AtomicUsize::new(0) }; 3];
        let watched = pool.run(
            |i, _| {
                seen[i].fetch_add(1, Ordering::SeqCst);
            },
            || 7,
        );
        assert_eq!(watched, 7);
        assert!(seen.iter().all(|n| n.load(Ordering::SeqCst) == 1));
        pool.broadcast(|i, count, _| {
            assert_eq!(count, 3);
            seen[i].fetch_add(1, Ordering::SeqCst);
        });
        assert!(seen.iter().all(|n| n.load(Ordering::SeqCst) == 2));
    }
}
