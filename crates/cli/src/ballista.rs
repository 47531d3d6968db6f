//! `tiledb-codec ballista scheduler|executor`: a Ballista cluster whose
//! scheduler and executors know TileDB tables and scans (feature
//! `ballista`). Queries reach it with `tiledb-codec sql --ballista`.

use std::net::SocketAddr;
use std::sync::Arc;

use clap::{Args, Subcommand};
use tiledb_codec_sql::ballista::{ReadOnlyEngine, TileDbCodec};
use tiledb_codec_sql::WritePolicy;

use crate::{store, KeyArg};

#[derive(Subcommand)]
pub enum BallistaCommand {
    /// Start a scheduler and serve until stopped (Ctrl-C). It opens the
    /// arrays a query names to plan it.
    Scheduler(SchedulerArgs),
    /// Start an executor, register it with a scheduler and run its tasks
    /// until stopped. It opens the arrays its tasks read.
    Executor(ExecutorArgs),
}

#[derive(Args)]
pub struct SchedulerArgs {
    /// The address to listen on.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50050")]
    bind: SocketAddr,
    /// The host name executors and clients reach this scheduler by
    /// (default: the bound address).
    #[arg(long, value_name = "HOST")]
    external_host: Option<String>,
    /// An executor silent this long is taken as lost: its tasks go to
    /// others, and when none is left the jobs it ran fail after as long
    /// again (`tiledb-codec` executors report every 10 s).
    #[arg(long, value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(15..))]
    executor_timeout: u64,
    #[command(flatten)]
    key: KeyArg,
}

#[derive(Args)]
pub struct ExecutorArgs {
    /// The scheduler to register with (waited for up to 30 s).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50050")]
    scheduler: String,
    /// The address to serve results on (Arrow Flight). Port 0, the
    /// default, takes a free port (printed), so that several executors
    /// run on one host.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:0")]
    bind: SocketAddr,
    /// The port the scheduler gives tasks on (gRPC), on the same host
    /// (default: a free port, printed).
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    grpc_port: u16,
    /// The host name the scheduler and clients reach this executor by
    /// (default: the bound address).
    #[arg(long, value_name = "HOST")]
    external_host: Option<String>,
    /// Tasks run at once (default: the number of cores).
    #[arg(long, value_name = "N")]
    concurrent_tasks: Option<usize>,
    /// Where intermediate results are kept (default: a temporary folder,
    /// removed when the executor stops).
    #[arg(long, value_name = "DIR")]
    work_dir: Option<std::path::PathBuf>,
    /// Let tasks of `COPY ... TO` write files under DIR (never inside an
    /// array). Without it the executor refuses every task that writes a
    /// file (its own intermediate results aside).
    #[arg(long, value_name = "DIR")]
    allow_write: Option<std::path::PathBuf>,
    #[command(flatten)]
    key: KeyArg,
}

/// How often an executor tells the scheduler it is alive (Ballista's
/// default is 60 s; the scheduler's `--executor-timeout` must exceed it).
const HEARTBEAT_SECS: u64 = 10;

/// The codec of this process: arrays are opened as the other commands
/// open them (paths, or URLs with the store configured from the
/// environment), and each opening is logged unless `quiet`.
fn codec(role: &'static str, key: &KeyArg, quiet: bool) -> Result<Arc<TileDbCodec>, String> {
    let opts = key.options()?;
    Ok(TileDbCodec::new(move |name| {
        if !quiet {
            eprintln!("{role}: opening {name}");
        }
        Ok(Arc::new(store::array(
            std::path::Path::new(name),
            tiledb_codec::OpenOptions::new().with_read_options(opts),
        )?))
    }))
}

pub fn run(command: BallistaCommand, quiet: bool) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    match command {
        BallistaCommand::Scheduler(a) => rt.block_on(scheduler(a, quiet)),
        BallistaCommand::Executor(a) => rt.block_on(executor(a, quiet)),
    }
}

async fn scheduler(args: SchedulerArgs, quiet: bool) -> Result<(), String> {
    use ballista_scheduler::cluster::BallistaCluster;
    use ballista_scheduler::config::SchedulerConfig;
    let codec = codec("scheduler", &args.key, quiet)?;
    let config = SchedulerConfig {
        bind_host: args.bind.ip().to_string(),
        bind_port: args.bind.port(),
        external_host: args
            .external_host
            .unwrap_or_else(|| args.bind.ip().to_string()),
        // A lost executor is noticed, and when none is left its jobs fail,
        // in a bounded time.
        executor_timeout_seconds: args.executor_timeout,
        expire_dead_executor_interval_seconds: 5,
        no_executors_grace_period_seconds: args.executor_timeout,
        override_logical_codec: Some(codec.clone()),
        override_physical_codec: Some(codec),
        ..SchedulerConfig::default()
    };
    let cluster = BallistaCluster::new_from_config(&config)
        .await
        .map_err(|e| e.to_string())?;
    eprintln!("scheduler: listening on {}", args.bind);
    ballista_scheduler::scheduler_process::start_server(cluster, args.bind, Arc::new(config))
        .await
        .map_err(|e| format!("scheduler on {}: {e}", args.bind))
}

async fn executor(args: ExecutorArgs, quiet: bool) -> Result<(), String> {
    use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
    let (host, port) = args
        .scheduler
        .rsplit_once(':')
        .and_then(|(h, p)| Some((h.to_string(), p.parse::<u16>().ok()?)))
        .ok_or_else(|| format!("--scheduler {}: expected HOST:PORT", args.scheduler))?;
    // Wait for a scheduler that is still starting, for a while: Ballista's
    // own wait, once asked for, never gives up.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while let Err(e) = tokio::net::TcpStream::connect((host.as_str(), port)).await {
        if std::time::Instant::now() >= deadline {
            return Err(format!(
                "no scheduler at {} after 30 s: {e}",
                args.scheduler
            ));
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    let codec = codec("executor", &args.key, quiet)?;
    // Ballista's own temporary folder is removed before it is used; this
    // one lives as long as the executor.
    let staging;
    let work_dir = match args.work_dir {
        Some(d) => d,
        None => {
            staging = store::Staging::new()?;
            staging.0.clone()
        }
    };
    let policy = match &args.allow_write {
        Some(dir) => {
            let dir = dir
                .canonicalize()
                .map_err(|e| format!("--allow-write {}: {e}", dir.display()))?;
            WritePolicy::copy_under(dir)
        }
        None => WritePolicy::read_only(),
    };
    let (flight_port, grpc_port) = ports(args.bind, args.grpc_port)?;
    let config = ExecutorProcessConfig {
        bind_host: args.bind.ip().to_string(),
        port: flight_port,
        grpc_port,
        external_host: args.external_host,
        scheduler_host: host,
        scheduler_port: port,
        // Connect once: the scheduler took a connection above.
        scheduler_connect_timeout_seconds: 0,
        vcores: args.concurrent_tasks.unwrap_or(0),
        executor_heartbeat_interval_seconds: HEARTBEAT_SECS,
        override_execution_engine: Some(Arc::new(ReadOnlyEngine::new(policy))),
        work_dir: Some(work_dir.display().to_string()),
        override_logical_codec: Some(codec.clone()),
        override_physical_codec: Some(codec),
        ..ExecutorProcessConfig::default()
    };
    let at = SocketAddr::new(args.bind.ip(), flight_port);
    eprintln!(
        "executor: serving on {at} (tasks on port {grpc_port}), scheduler {}, {}",
        args.scheduler,
        match &args.allow_write {
            Some(d) => format!("COPY ... TO may write under {}", d.display()),
            None => "read-only".to_string(),
        }
    );
    start_executor_process(Arc::new(config))
        .await
        .map_err(|e| format!("executor on {at}: {e}"))
}

/// The flight and task ports: those asked for, and for each 0 a free port
/// on the bound host (two different ones). Ballista binds them itself and
/// registers them with the scheduler, so they are chosen here, just before.
fn ports(bind: SocketAddr, grpc_port: u16) -> Result<(u16, u16), String> {
    let free = || {
        std::net::TcpListener::bind((bind.ip(), 0))
            .map_err(|e| format!("no free port on {}: {e}", bind.ip()))
    };
    // Both held until both are chosen, so that they differ.
    let flight = if bind.port() == 0 {
        Some(free()?)
    } else {
        None
    };
    let grpc = if grpc_port == 0 { Some(free()?) } else { None };
    let port = |l: &Option<std::net::TcpListener>, asked: u16| match l {
        Some(l) => l
            .local_addr()
            .map(|a| a.port())
            .map_err(|e| format!("a free port on {}: {e}", bind.ip())),
        None => Ok(asked),
    };
    let chosen = (port(&flight, bind.port())?, port(&grpc, grpc_port)?);
    if chosen.0 == chosen.1 {
        return Err(format!(
            "--bind {bind} and --grpc-port {grpc_port}: the two ports must differ"
        ));
    }
    Ok(chosen)
}
