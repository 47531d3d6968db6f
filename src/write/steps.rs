//! Fail points at every durable step of any write (feature `fail-points`,
//! for crash-safety tests; never in a release build).
//!
//! A durable step is one change on disk a crash could stop just after: a
//! file written (and synced), a folder made, a rename, a removal. Every
//! mutating operation (fragment writes, imports, consolidations and vacuums
//! of every mode, deletes, evolutions, metadata, groups) takes its steps
//! through the same few functions, which count them. A test host arms
//! [`stop_after_durable_step`] with a step number and a function that ends
//! the process: when that step is taken, the function is called right
//! there, before any clean-up the operation would do on an error, as a
//! crash would leave it. The library itself never stops its host: with
//! nothing armed the count is all that happens.

use super::error::WriteResult;

#[cfg(feature = "fail-points")]
mod armed {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Mutex;

    /// The step to stop after (0: none).
    static STOP: AtomicU32 = AtomicU32::new(0);
    /// The durable steps taken since the fail point was armed.
    static TAKEN: AtomicU32 = AtomicU32::new(0);
    /// What ends the host at a step: its number and what it did.
    pub type End = fn(u32, &'static str);

    /// What ends the host at the step.
    static END: Mutex<Option<End>> = Mutex::new(None);

    pub fn arm(step: Option<u32>, end: End) {
        *END.lock().unwrap_or_else(|e| e.into_inner()) = Some(end);
        TAKEN.store(0, Ordering::SeqCst);
        STOP.store(step.unwrap_or(0), Ordering::SeqCst);
    }

    pub fn taken() -> u32 {
        TAKEN.load(Ordering::SeqCst)
    }

    pub fn step(what: &'static str) {
        let n = TAKEN.fetch_add(1, Ordering::SeqCst) + 1;
        if n == STOP.load(Ordering::SeqCst) {
            let end = *END.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(end) = end {
                end(n, what);
            }
        }
    }
}

/// Arms the fail point for the whole process: when the `step`-th durable
/// step from now is taken (`None`: never), `end` is called with its number
/// and what it did, at that point of the operation. `end` is the host's:
/// a test's command line exits there, as a crash would stop it. Arming
/// again starts the count afresh.
#[cfg(feature = "fail-points")]
pub fn stop_after_durable_step(step: Option<u32>, end: fn(u32, &'static str)) {
    armed::arm(step, end);
}

/// The durable steps taken since [`stop_after_durable_step`] was last
/// called.
#[cfg(feature = "fail-points")]
pub fn durable_steps_taken() -> u32 {
    armed::taken()
}

/// One durable step (`what`) is done.
pub(crate) fn durable(what: &'static str) -> WriteResult<()> {
    #[cfg(feature = "fail-points")]
    armed::step(what);
    let _ = what;
    Ok(())
}
