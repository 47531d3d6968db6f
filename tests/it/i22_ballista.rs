//! Issue 22, item 12 (and the Ballista part of item 3): a Ballista query
//! ends, with an answer or a clear error, within its `--timeout`; two
//! executors with default ports run on one host; executors refuse stages
//! that write files unless their `--allow-write` lets them.
//!
//! Every process listens on 127.0.0.1 only; every wait is bounded, and the
//! processes a test starts are killed when it ends, passed or failed.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

/// The processes of one test, killed on drop, and their logs.
struct Cluster {
    children: Vec<(String, Child)>,
    dir: PathBuf,
    scheduler: u16,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for (_, c) in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Cluster {
    /// A scheduler on a free loopback port.
    fn new(tag: &str) -> Cluster {
        let mut cluster = Cluster {
            children: Vec::new(),
            dir: common::scratch(tag),
            scheduler: free_port(),
        };
        let at = cluster.scheduler_at();
        cluster.spawn("scheduler", &["scheduler", "--bind", &at]);
        cluster.wait_for(cluster.scheduler);
        cluster
    }

    fn scheduler_at(&self) -> String {
        format!("127.0.0.1:{}", self.scheduler)
    }

    fn url(&self) -> String {
        format!("df://{}", self.scheduler_at())
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(format!("{name}.log"))).unwrap_or_default()
    }

    fn logs(&self) -> String {
        self.children
            .iter()
            .map(|(n, _)| format!("--- {n}\n{}", self.log(n)))
            .collect()
    }

    fn spawn(&mut self, name: &str, args: &[&str]) {
        let log = std::fs::File::create(self.dir.join(format!("{name}.log"))).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
            .arg("ballista")
            .args(args)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("tiledb-codec starts");
        self.children.push((name.to_string(), child));
    }

    /// Fails with the logs when a process of the cluster has exited.
    fn all_alive(&mut self) {
        for (n, c) in &mut self.children {
            if let Ok(Some(status)) = c.try_wait() {
                let n = n.clone();
                panic!("{n} exited ({status}):\n{}", self.logs());
            }
        }
    }

    /// Waits until `port` takes connections.
    fn wait_for(&mut self, port: u16) {
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            self.all_alive();
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "nothing listens on {port} after 2 minutes:\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Starts an executor with `extra` arguments and default ports, and
    /// waits until it serves: returns its (flight, task) ports, read from
    /// what it prints.
    fn executor(&mut self, name: &str, extra: &[&str]) -> (u16, u16) {
        let work = self.dir.join(format!("work-{name}"));
        std::fs::create_dir_all(&work).unwrap();
        let at = self.scheduler_at();
        let work = work.display().to_string();
        let mut args = vec![
            "executor",
            "--scheduler",
            &at,
            "--concurrent-tasks",
            "1",
            "--work-dir",
            &work,
        ];
        args.extend_from_slice(extra);
        self.spawn(name, &args);
        let start = Instant::now();
        let ports = loop {
            if let Some(p) = serving_ports(&self.log(name)) {
                break p;
            }
            self.all_alive();
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "{name} printed no ports in 2 minutes:\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        // The task port is bound before the executor registers, the flight
        // port after: once both answer, the scheduler knows it.
        self.wait_for(ports.1);
        self.wait_for(ports.0);
        ports
    }

    /// Kills the process named `name` (and waits for it); its log stays.
    fn kill(&mut self, name: &str) {
        let i = self
            .children
            .iter()
            .position(|(n, _)| n == name)
            .expect("a process of that name");
        let (_, mut c) = self.children.remove(i);
        c.kill().unwrap();
        c.wait().unwrap();
    }

    /// `tiledb-codec sql --ballista` on this cluster with `args`; fails
    /// (killing it) when it takes longer than `limit`.
    fn sql(&mut self, args: &[&str], limit: Duration) -> (Output, Duration) {
        let start = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
            .arg("sql")
            .arg("--ballista")
            .arg(self.url())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tiledb-codec starts");
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "sql --ballista {args:?} still runs after {limit:?}:\n{}",
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let out = child.wait_with_output().unwrap();
        (out, start.elapsed())
    }
}

/// The (flight, task) ports in an executor's line "executor: serving on
/// HOST:PORT (tasks on port PORT), ...".
fn serving_ports(log: &str) -> Option<(u16, u16)> {
    let line = log
        .lines()
        .find(|l| l.starts_with("executor: serving on "))?;
    let rest = line.strip_prefix("executor: serving on ")?;
    let (addr, rest) = rest.split_once(' ')?;
    let flight = addr.rsplit_once(':')?.1.parse().ok()?;
    let rest = rest.strip_prefix("(tasks on port ")?;
    let grpc = rest.split_once(')')?.0.parse().ok()?;
    Some((flight, grpc))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn array() -> String {
    common::root()
        .join("tests/fixtures/v22/sparse_int_2d")
        .display()
        .to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn two_executors_with_default_ports_start_on_one_host_and_both_run_tasks() {
    let mut cluster = Cluster::new("i22-ballista-ports");
    let a = cluster.executor("executor-a", &[]);
    let b = cluster.executor("executor-b", &[]);
    let ports = [cluster.scheduler, a.0, a.1, b.0, b.1];
    for (i, p) in ports.iter().enumerate() {
        assert!(!ports[i + 1..].contains(p), "port {p} twice: {ports:?}");
    }
    cluster.all_alive();

    let q = format!(
        r#"SELECT r, c, a FROM "{}" WHERE a > 5 ORDER BY r, c"#,
        array()
    );
    let (out, _) = cluster.sql(
        &[
            "--partitions",
            "4",
            "--format",
            "ndjson",
            "--timeout",
            "120",
            &q,
        ],
        Duration::from_secs(180),
    );
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stderr),
        cluster.logs()
    );
    let local = common::cli(&["sql", "--partitions", "2", "--format", "ndjson", &q]);
    assert!(local.status.success(), "{}", text(&local.stderr));
    assert!(!out.stdout.is_empty());
    assert_eq!(text(&out.stdout), text(&local.stdout));
    // Four tasks, one at a time on each: both executors took some.
    for e in ["executor-a", "executor-b"] {
        assert!(
            cluster.log(e).contains(": opening "),
            "{e} ran no scan:\n{}",
            cluster.logs()
        );
    }
}

#[test]
fn a_query_with_no_live_executor_fails_promptly_naming_the_scheduler() {
    let mut cluster = Cluster::new("i22-ballista-none");
    let q = format!(r#"SELECT count(*) FROM "{}""#, array());

    // The scheduler's readiness probe, which the client asks, answers on
    // its gRPC port: no executor yet.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let live = rt.block_on(tiledb_codec_sql::ballista::live_executors(
        &cluster.url(),
        Duration::from_secs(10),
    ));
    assert_eq!(live, Ok(Some(0)), "{}", cluster.logs());

    // A deadline shorter than the wait for an executor: the deadline's
    // error, the job cancelled.
    let (out, took) = cluster.sql(&["--timeout", "1", &q], Duration::from_secs(60));
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(took < Duration::from_secs(20), "took {took:?}: {err}");
    assert!(err.contains("within 1 s"), "{err}");
    assert!(err.contains(&cluster.url()), "{err}");
    assert!(err.contains("cancelled"), "{err}");

    // No executor ever registered, the default deadline (300 s): the
    // query fails within seconds, saying so, and its job is cancelled.
    let (out, took) = cluster.sql(&[&q], Duration::from_secs(60));
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(took < Duration::from_secs(15), "took {took:?}: {err}");
    assert!(err.contains("no live executor"), "{err}");
    assert!(err.contains("none registered"), "{err}");
    assert!(err.contains(&cluster.url()), "{err}");
    assert!(err.contains("cancelled"), "{err}");

    // An executor that registered and died (killed, with no word to the
    // scheduler): the query fails in bounded time too, well before its
    // default deadline, saying that no executor is left.
    let a = cluster.executor("executor-a", &[]);
    let live = rt.block_on(tiledb_codec_sql::ballista::live_executors(
        &cluster.url(),
        Duration::from_secs(10),
    ));
    assert_eq!(live, Ok(Some(1)), "{}", cluster.logs());
    cluster.kill("executor-a");
    let (out, took) = cluster.sql(&[&q], Duration::from_secs(150));
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(took < Duration::from_secs(120), "took {took:?}: {err}");
    assert!(
        err.contains("no live executor") || err.contains("executors were lost"),
        "{err}\n{}",
        cluster.logs()
    );
    eprintln!("dead executor {a:?}: failed after {took:?}: {err}");
}

#[test]
fn copy_to_through_ballista_is_refused_by_the_client_and_by_the_executor() {
    let mut cluster = Cluster::new("i22-ballista-copy");
    cluster.executor("executor-ro", &[]);
    let out_dir = cluster.dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let target = out_dir.join("x.csv");
    let copy = format!(
        "COPY (SELECT 1 AS x) TO '{}' STORED AS CSV",
        target.display()
    );

    // The client refuses it without --allow-write.
    let (out, _) = cluster.sql(&["--timeout", "60", &copy], Duration::from_secs(120));
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("--allow-write"), "{err}");
    assert!(!target.exists());

    // The client allows it; the executor, started without --allow-write,
    // refuses it.
    let dir = out_dir.display().to_string();
    let (out, _) = cluster.sql(
        &["--timeout", "60", "--allow-write", &dir, &copy],
        Duration::from_secs(120),
    );
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}\n{}", cluster.logs());
    assert!(
        err.contains("this executor refuses"),
        "{err}\n{}",
        cluster.logs()
    );
    assert!(err.contains("--allow-write"), "{err}");
    assert!(!written(&target), "{} was written", target.display());

    // An executor allowed to write there does.
    cluster.kill("executor-ro");
    cluster.executor("executor-rw", &["--allow-write", &dir]);
    let (out, _) = cluster.sql(
        &["--timeout", "60", "--allow-write", &dir, &copy],
        Duration::from_secs(120),
    );
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stderr),
        cluster.logs()
    );
    assert!(written(&target), "{} not written", target.display());

    // Still not outside its folder, whatever the client allows.
    let outside = cluster.dir.join("elsewhere.csv");
    let copy = format!(
        "COPY (SELECT 1 AS x) TO '{}' STORED AS CSV",
        outside.display()
    );
    let all = cluster.dir.display().to_string();
    let (out, _) = cluster.sql(
        &["--timeout", "60", "--allow-write", &all, &copy],
        Duration::from_secs(120),
    );
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("not under"), "{err}\n{}", cluster.logs());
    assert!(!written(&outside));
}

/// A file at `path`, or a folder of files (a sink may write either).
fn written(path: &Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(entries) => entries.count() > 0,
        Err(_) => path.is_file(),
    }
}
