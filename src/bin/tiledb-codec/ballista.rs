//! `tiledb-codec ballista scheduler|executor`: a Ballista cluster whose
//! scheduler and executors know TileDB tables and scans (feature
//! `ballista`). Queries reach it with `tiledb-codec sql --ballista`.

use std::net::SocketAddr;
use std::sync::Arc;

use clap::{Args, Subcommand};
use tiledb_codec::sql::ballista::TileDbCodec;

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
    #[command(flatten)]
    key: KeyArg,
}

#[derive(Args)]
pub struct ExecutorArgs {
    /// The scheduler to register with (waited for up to 30 s).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50050")]
    scheduler: String,
    /// The address to serve results on (Arrow Flight).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:50051")]
    bind: SocketAddr,
    /// The port the scheduler gives tasks on (gRPC), on the same host.
    #[arg(long, value_name = "PORT", default_value_t = 50052)]
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
    #[command(flatten)]
    key: KeyArg,
}

/// The codec of this process: arrays are opened as the other commands
/// open them (paths, or URLs with the store configured from the
/// environment), and each opening is logged unless `quiet`.
fn codec(role: &'static str, key: &KeyArg, quiet: bool) -> Result<Arc<TileDbCodec>, String> {
    let opts = key.options()?;
    Ok(TileDbCodec::new(move |name| {
        if !quiet {
            eprintln!("{role}: opening {name}");
        }
        Ok(Arc::new(store::array(std::path::Path::new(name), &opts)?))
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
    let config = ExecutorProcessConfig {
        bind_host: args.bind.ip().to_string(),
        port: args.bind.port(),
        grpc_port: args.grpc_port,
        external_host: args.external_host,
        scheduler_host: host,
        scheduler_port: port,
        // Connect once: the scheduler took a connection above.
        scheduler_connect_timeout_seconds: 0,
        vcores: args.concurrent_tasks.unwrap_or(0),
        work_dir: Some(work_dir.display().to_string()),
        override_logical_codec: Some(codec.clone()),
        override_physical_codec: Some(codec),
        ..ExecutorProcessConfig::default()
    };
    eprintln!(
        "executor: serving on {} (tasks on port {}), scheduler {}",
        args.bind, args.grpc_port, args.scheduler
    );
    start_executor_process(Arc::new(config))
        .await
        .map_err(|e| format!("executor on {}: {e}", args.bind))
}
