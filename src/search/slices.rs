//! The threads that answer the GUI (the front-end reading stdin, the engine thread) ask Linux
//! for short time slices. With more search threads than cores, a woken thread otherwise waits
//! until many busy threads have used their slices (tens of milliseconds at 64 threads on two
//! cores); with a short slice it runs at once. They work briefly and sleep, so they take no
//! time from the search. Threads inherit the slice: the search threads ask for the default.

/// The slice asked for: the shortest the kernel grants.
const SHORT_NS: u64 = 100_000;

/// Asks for short slices for the calling thread (Linux 6.12 and later; elsewhere nothing).
pub fn prefer_short() {
    set_slice(SHORT_NS);
}

/// The system's default slice for the calling thread.
pub fn prefer_default() {
    set_slice(0);
}

/// Sets the calling thread's slice (0: the default).
#[cfg(target_os = "linux")]
fn set_slice(slice_ns: u64) {
    /// The kernel's `struct sched_attr`, first version (48 bytes).
    #[repr(C)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        runtime: u64,
        deadline: u64,
        period: u64,
    }
    // SAFETY: plain queries of the calling thread (0) without pointers.
    let (policy, nice) = unsafe {
        (
            libc::sched_getscheduler(0),
            libc::getpriority(libc::PRIO_PROCESS, 0),
        )
    };
    if policy != libc::SCHED_OTHER {
        return;
    }
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: libc::SCHED_OTHER as u32,
        flags: 0,
        // Unchanged: a niced engine stays niced.
        nice,
        priority: 0,
        runtime: slice_ns,
        deadline: 0,
        period: 0,
    };
    // SAFETY: the kernel reads `attr.size` bytes from a live, initialised value laid out as its
    // `struct sched_attr`, and changes only the calling thread's (0) scheduling.
    let result = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0) };
    if result != 0 {
        log::debug!(
            "time slice of {slice_ns} ns refused: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn set_slice(_slice_ns: u64) {}
