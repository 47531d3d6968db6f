//! Standard output and standard error, for every command.
//!
//! Everything a command prints on standard output goes through this one
//! buffered writer, and every write returns its error instead of panicking
//! as `println!` does. The first failure is remembered, so `main` can end
//! the way a pipeline expects whatever the command made of the error:
//!
//! - a closed pipe (`tiledb-codec export A | head -c1`): nothing more is
//!   printed and the command exits with status 141, what a shell reports
//!   for a producer that SIGPIPE ended (`head` and `set -o pipefail` see
//!   the same as from `cat` or `yes`);
//! - any other failure (a full disk, `>/dev/full`): `error: standard
//!   output: ...` on standard error and status 1.
//!
//! Human text (`line`, `text`, `error`, `warn`) has its control characters
//! escaped ([`escape_controls`], line breaks kept), so nothing an array
//! holds can move the cursor or clear a terminal; names and strings from
//! arrays are escaped where they are formatted, line breaks too. JSON
//! (`json`) is valid JSON whose strings escape every control character.
//! Raw data (`Writer`: NDJSON, CSV, Arrow) goes out as it is.
//!

use std::io::{self, BufWriter, Write};
use std::sync::{Mutex, MutexGuard, OnceLock};

use tiledb_codec_cli::summary::escape_controls;

/// The exit status of a command whose reader went away (128 + SIGPIPE).
pub const BROKEN_PIPE_STATUS: u8 = 141;

/// Standard output, remembering its first failure.
struct Stdout(io::Stdout);

static FAILURE: OnceLock<(io::ErrorKind, String)> = OnceLock::new();

fn remember(e: &io::Error) {
    let _ = FAILURE.set((e.kind(), e.to_string()));
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).inspect_err(remember)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().inspect_err(remember)
    }
}

fn stdout() -> MutexGuard<'static, BufWriter<Stdout>> {
    static OUT: OnceLock<Mutex<BufWriter<Stdout>>> = OnceLock::new();
    OUT.get_or_init(|| Mutex::new(BufWriter::with_capacity(64 * 1024, Stdout(io::stdout()))))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The message of a failed write to standard output.
fn failed(e: io::Error) -> String {
    format!("standard output: {e}")
}

/// Writes `bytes` as they are (once standard output has failed, nothing
/// more is written).
fn write_all(bytes: &[u8]) -> Result<(), String> {
    if let Some((_, e)) = FAILURE.get() {
        return Err(format!("standard output: {e}"));
    }
    stdout().write_all(bytes).map_err(failed)
}

/// `s` with the control characters of each line escaped.
fn escaped_lines(s: &str) -> String {
    let mut shown = String::with_capacity(s.len());
    for (i, l) in s.split('\n').enumerate() {
        if i > 0 {
            shown.push('\n');
        }
        shown.push_str(&escape_controls(l));
    }
    shown
}

/// Prints human text: control characters escaped, line breaks kept.
pub fn text(s: &str) -> Result<(), String> {
    write_all(escaped_lines(s).as_bytes())
}

/// Prints one line of human text (see [`text`]).
pub fn line(s: impl AsRef<str>) -> Result<(), String> {
    text(s.as_ref())?;
    write_all(b"\n")
}

/// Prints a JSON value, pretty, on lines of its own. serde escapes the C0
/// controls in strings; DEL and the C1 controls, which it leaves, are
/// escaped here too (`\u007f`): outside strings JSON has no place for
/// them, so the text stays valid JSON and means the same.
pub fn json(v: &serde_json::Value) -> Result<(), String> {
    let s = serde_json::to_string_pretty(v).map_err(|e| format!("JSON: {e}"))?;
    let mut shown = String::with_capacity(s.len() + 1);
    for c in s.chars() {
        if c.is_control() && !c.is_ascii() || c == '\u{7f}' {
            use std::fmt::Write as _;
            let _ = write!(shown, "\\u{:04x}", c as u32);
        } else {
            shown.push(c);
        }
    }
    shown.push('\n');
    write_all(shown.as_bytes())
}

/// Standard output for data written as it is (export, SQL results).
pub struct Writer;

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some((kind, e)) = FAILURE.get() {
            return Err(io::Error::new(*kind, e.clone()));
        }
        stdout().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        stdout().flush()
    }
}

/// Flushes what is buffered; called once when the command ends.
pub fn flush() {
    if FAILURE.get().is_none() {
        let _ = stdout().flush();
    }
}

/// How standard output failed, if it did: `Some(None)` for a closed pipe
/// (nothing to say), `Some(Some(message))` otherwise.
pub fn failure() -> Option<Option<String>> {
    FAILURE.get().map(|(kind, e)| {
        (*kind != io::ErrorKind::BrokenPipe).then(|| format!("standard output: {e}"))
    })
}

/// Prints `error: MESSAGE` on standard error, control characters escaped
/// (line breaks kept); a standard error that fails is not an error more.
pub fn error(message: &str) {
    warn(&format!("error: {message}"));
}

/// Prints a line on standard error, control characters escaped (line
/// breaks kept), ignoring a failure.
pub fn warn(message: &str) {
    let _ = writeln!(io::stderr().lock(), "{}", escaped_lines(message));
}

/// `outln!("...", args)`: [`line()`] of the formatted text.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format!($($arg)*))
    };
}
pub(crate) use outln;
