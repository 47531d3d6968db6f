//! The faults of the races and soaks: imports killed at random moments.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Imports killed (SIGKILL) at a random moment within `max_wait`, in a
/// loop until `stop`. `import` makes the command that imports the cells
/// file it is given; each import writes five new cells `d` (with `a = d`)
/// from `first` on. A killed import may have committed or not: its cells
/// go to `maybe`, those of one that finished before its kill to `done`.
/// Returns how many were killed. The seed is printed.
pub fn killed_imports(
    dir: &Path,
    first: i64,
    max_wait: Duration,
    stop: &AtomicBool,
    (done, maybe): (&Mutex<Vec<i64>>, &Mutex<Vec<i64>>),
    import: impl Fn(&Path) -> Command,
) -> usize {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    eprintln!("faults: seed {seed}");
    let mut rng = u64::from(seed) | 1;
    let cells = dir.join("killed.ndjson");
    let (mut faults, mut next) = (0, first);
    while !stop.load(Ordering::Relaxed) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let ds: Vec<i64> = (next..next + 5).collect();
        next += 10;
        let text: String = ds
            .iter()
            .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
            .collect();
        std::fs::write(&cells, text).unwrap();
        let mut child = import(&cells)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let wait = max_wait.as_micros().max(1) as u64;
        std::thread::sleep(Duration::from_micros(rng % wait));
        let _ = child.kill();
        if child.wait().unwrap().success() {
            done.lock().unwrap().extend(ds);
        } else {
            maybe.lock().unwrap().extend(ds);
            faults += 1;
        }
    }
    faults
}
