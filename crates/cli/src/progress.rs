//! Progress bars on standard error, for long work: drawn only when standard
//! error is a terminal and `--quiet` is not given.

use std::io::{IsTerminal, Read};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tiledb_codec::Progress;

/// Draws each stage the library reports as a bar (a spinner when the total
/// is unknown).
pub struct Bars {
    draw: bool,
    /// `--quiet` was given: no bars, and no log lines either (the Ballista
    /// processes log; nothing else reads it).
    #[cfg_attr(not(feature = "ballista"), allow(dead_code))]
    pub quiet: bool,
    current: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// Bars drawn on standard error if it is a terminal and not `quiet`.
    pub fn new(quiet: bool) -> Arc<Bars> {
        Arc::new(Bars {
            draw: !quiet && std::io::stderr().is_terminal(),
            quiet,
            current: Mutex::new(None),
        })
    }

    /// A bar (or spinner) for `stage`, hidden when nothing is drawn.
    pub fn bar(&self, stage: &str, total: Option<u64>, bytes: bool) -> ProgressBar {
        if !self.draw {
            return ProgressBar::hidden();
        }
        let pb = match total {
            Some(n) => {
                let pb = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr());
                let template = if bytes {
                    "{msg:>22} [{bar:40}] {bytes}/{total_bytes} ({eta})"
                } else {
                    "{msg:>22} [{bar:40}] {human_pos}/{human_len} ({eta})"
                };
                pb.set_style(
                    ProgressStyle::with_template(template)
                        .expect("a valid template")
                        .progress_chars("=> "),
                );
                pb
            }
            None => {
                let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let template = if bytes {
                    "{msg:>22} {spinner} {bytes} ({elapsed})"
                } else {
                    "{msg:>22} {spinner} {human_pos} ({elapsed})"
                };
                pb.set_style(ProgressStyle::with_template(template).expect("a valid template"));
                pb
            }
        };
        pb.set_message(stage.to_string());
        pb.enable_steady_tick(Duration::from_millis(120));
        pb
    }
}

impl Progress for Bars {
    fn start(&self, stage: &str, total: Option<u64>) {
        let pb = self.bar(stage, total, false);
        let mut cur = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = cur.replace(pb) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, n: u64) {
        if let Some(pb) = &*self.current.lock().unwrap_or_else(|e| e.into_inner()) {
            pb.inc(n);
        }
    }

    fn finish(&self) {
        if let Some(pb) = self
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            pb.finish_and_clear();
        }
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        if let Some(pb) = self
            .current
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            pb.finish_and_clear();
        }
    }
}

/// A reader that moves a bar by the bytes read, and turns it into a
/// spinner saying `then` when the input ends (the work that follows the
/// reading: sorting and writing the fragment).
pub struct ReadProgress<R> {
    inner: R,
    bar: ProgressBar,
    then: &'static str,
}

impl<R> ReadProgress<R> {
    /// Wraps `inner`, reporting to `bar`.
    pub fn new(inner: R, bar: ProgressBar, then: &'static str) -> Self {
        ReadProgress { inner, bar, then }
    }
}

impl<R: Read> Read for ReadProgress<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() && !self.bar.is_finished() {
            self.bar.set_style(
                ProgressStyle::with_template("{msg:>22} {spinner} ({elapsed})")
                    .expect("a valid template"),
            );
            self.bar.set_message(self.then);
        }
        self.bar.inc(n as u64);
        Ok(n)
    }
}

impl<R> Drop for ReadProgress<R> {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
