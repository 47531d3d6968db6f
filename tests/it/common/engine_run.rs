//! The engine's scripts run in long-lived Python processes
//! (tests/engine/worker.py): a new interpreter costs about 0.3 s of CPU
//! to import TileDB-Py, numpy and pyarrow, and the tests run the engine's
//! scripts hundreds of times. Each test thread takes an idle worker (or
//! starts one) for one script and gives it back after.
//!
//! A worker that dies during a script (TileDB aborting its process) is
//! dropped, and that script runs again the old way, in a process of its
//! own, whose exit status and output are the answer: a script that kills
//! the engine still fails as it did.

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
    Command::new(engine_python())
        .arg(&script)
        .args(&args)
        .output()
        .expect("the engine's python runs")
}
