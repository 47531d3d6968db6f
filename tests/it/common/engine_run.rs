//! The engine's scripts run in long-lived Python processes
//! (tests/engine/worker.py): a new interpreter costs about 0.3 s of CPU
//! to import TileDB-Py, numpy and pyarrow, and the tests run the engine's
//! scripts hundreds of times. Each test thread takes an idle worker (or
//! starts one) for one script and gives it back after.
//!
//! A worker that dies during a script (TileDB aborting its process) is
//! dropped, and that script runs again the old way, in a process of its
//! own, whose exit status and output are the answer (once more if that
//! process too dies of a signal): a script that kills the engine still
//! fails as it did.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::{Mutex, OnceLock};

use super::{engine_python, root};

struct Worker {
    child: Child,
    input: ChildStdin,
    answers: BufReader<ChildStdout>,
}

impl Worker {
    fn start() -> Option<Worker> {
        let mut child = Command::new(engine_python())
            .arg(root().join("tests/engine/worker.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let answers = BufReader::new(child.stdout.take()?);
        Some(Worker {
            child,
            input,
            answers,
        })
    }

    /// The script's output, or None when the worker could not answer.
    fn run(&mut self, argv: &[String]) -> Option<Output> {
        let mut request = serde_json::to_vec(&serde_json::json!({ "argv": argv })).ok()?;
        request.push(b'\n');
        self.input.write_all(&request).ok()?;
        self.input.flush().ok()?;
        let mut head = String::new();
        if self.answers.read_line(&mut head).ok()? == 0 {
            return None;
        }
        let head: serde_json::Value = serde_json::from_str(&head).ok()?;
        let code = i32::try_from(head["code"].as_i64()?).ok()?;
        let mut take = |n: u64| -> Option<Vec<u8>> {
            let mut v = vec![0; usize::try_from(n).ok()?];
            self.answers.read_exact(&mut v).ok()?;
            Some(v)
        };
        let stdout = take(head["out"].as_u64()?)?;
        let stderr = take(head["err"].as_u64()?)?;
        Some(Output {
            // A wait status: the exit code in the second byte.
            status: ExitStatus::from_raw((code & 0xff) << 8),
            stdout,
            stderr,
        })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn idle() -> &'static Mutex<Vec<Worker>> {
    static IDLE: OnceLock<Mutex<Vec<Worker>>> = OnceLock::new();
    IDLE.get_or_init(Default::default)
}

/// `python SCRIPT ARGS...` in the engine's venv, as
/// `Command::new(engine_python()).arg(script).args(args).output()` gives
/// it (exit status, standard output and error), run by a worker. For
/// scripts that read no standard input and need no environment of their
/// own.
pub fn engine_run<I, S>(script: &str, args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let script = root().join("tests/engine").join(script);
    let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let argv: Option<Vec<String>> = std::iter::once(script.as_os_str())
        .chain(args.iter().map(OsString::as_os_str))
        .map(|a| a.to_str().map(str::to_owned))
        .collect();
    if let Some(argv) = argv {
        let worker = idle().lock().unwrap().pop().or_else(Worker::start);
        if let Some(mut worker) = worker {
            if let Some(out) = worker.run(&argv) {
                idle().lock().unwrap().push(worker);
                return out;
            }
        }
    }
    // TileDB 2.30 aborts its process now and then on a loaded machine
    // (see engine_batch): a script it kills by a signal runs once more.
    let run = || {
        Command::new(engine_python())
            .arg(&script)
            .args(&args)
            .output()
            .expect("the engine's python runs")
    };
    let out = run();
    match out.status.signal() {
        Some(signal) => {
            eprintln!(
                "the engine died of signal {signal} running {}; it runs once more",
                script.display()
            );
            run()
        }
        None => out,
    }
}

/// Runs a batch of engine tasks in one Python process: `run` starts the
/// process for the tasks it is given and returns its output, which answers
/// each task done with one line of standard output, in order. Returns the
/// answer lines (fewer than the tasks when the engine stopped) and the
/// last process's standard error.
///
/// TileDB 2.30 has been seen to abort its process now and then on a loaded
/// machine (heap corruption: "malloc(): mismatching next->prev_size") on
/// work it does fine on its own. So when the process dies of a signal
/// before answering every task, the tasks it did not answer (the one it
/// stopped at included) run once more in a fresh process, and the retry is
/// reported on standard error. A task that stops the engine twice leaves
/// its answer missing, which the caller reports.
pub fn engine_batch<T>(tasks: &[T], mut run: impl FnMut(&[T]) -> Output) -> (Vec<String>, String) {
    let mut lines: Vec<String> = Vec::new();
    let mut retried = false;
    loop {
        let out = run(&tasks[lines.len()..]);
        lines.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned),
        );
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        match out.status.signal() {
            Some(signal) if lines.len() < tasks.len() && !retried => {
                eprintln!(
                    "the engine died of signal {signal} at task {} of {}; the rest run again in a \
                     new process ({})",
                    lines.len() + 1,
                    tasks.len(),
                    stderr.lines().last().unwrap_or("")
                );
                retried = true;
            }
            _ => return (lines, stderr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::engine_batch;
    use std::process::Command;

    fn sh(script: &str) -> std::process::Output {
        Command::new("sh").arg("-c").arg(script).output().unwrap()
    }

    #[test]
    fn a_batch_whose_process_is_killed_runs_the_rest_once_more() {
        let mut calls: Vec<Vec<u32>> = Vec::new();
        let (lines, _) = engine_batch(&[1, 2, 3], |tasks| {
            calls.push(tasks.to_vec());
            if calls.len() == 1 {
                sh("echo one; kill -ABRT $$")
            } else {
                sh("echo two; echo three")
            }
        });
        assert_eq!(calls, [vec![1, 2, 3], vec![2, 3]]);
        assert_eq!(lines, ["one", "two", "three"]);
    }

    #[test]
    fn a_batch_is_retried_once_and_only_after_a_signal() {
        let mut calls = 0;
        let (lines, stderr) = engine_batch(&[1, 2], |_| {
            calls += 1;
            sh("echo stopped >&2; kill -KILL $$")
        });
        assert_eq!((calls, lines.len()), (2, 0), "a second death is the answer");
        assert_eq!(stderr, "stopped\n", "the last process's");
        let mut calls = 0;
        let (lines, stderr) = engine_batch(&[1, 2], |_| {
            calls += 1;
            sh("echo one; echo failed >&2; exit 1")
        });
        assert_eq!((calls, lines.len()), (1, 1), "an exit is not retried");
        assert_eq!(stderr, "failed\n");
    }
}
