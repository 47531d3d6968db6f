//! Progress of long work (consolidation, vacuuming, verification), for a
//! caller that wants to show it.

/// Reports the progress of long work (consolidation, vacuuming, verification): a total
/// of units (cells, fragments, files) when known, then the units done.
///
/// The library never draws anything itself; the command line draws a bar
/// from these calls on a terminal.
pub trait Progress: Send + Sync {
    /// A stage of the work begins; `total` units are to be done, when known.
    fn start(&self, stage: &str, total: Option<u64>);
    /// `n` more units are done.
    fn advance(&self, n: u64);
    /// The stage is over.
    fn finish(&self);
}

/// A [`Progress`] that reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _stage: &str, _total: Option<u64>) {}
    fn advance(&self, _n: u64) {}
    fn finish(&self) {}
}
