//! `tiledb-codec sql`: SQL over arrays named by path or URL in the FROM
//! clause (DataFusion, feature `datafusion`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use datafusion::prelude::SessionContext;
use futures::StreamExt;

use crate::{store, KeyArg};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SqlFormat {
    /// A table for people, printed as the rows come (the columns are sized
    /// by the first 1000 rows; a wider value later widens its column under
    /// a rule line).
    Table,
    /// CSV with a header line.
    Csv,
    /// One JSON object per row.
    Ndjson,
    /// An Arrow IPC stream.
    Arrow,
}

#[derive(Args)]
pub struct SqlArgs {
    /// The query. Arrays are tables named by path or URL, quoted as
    /// identifiers: SELECT count(*) FROM "path/to/array" WHERE a > 5;
    /// INSERT INTO "path/to/array" VALUES (1, 2.5), (2, 3.5);
    /// DELETE FROM "path/to/array" WHERE a > 5.
    /// Several arrays in one query can be joined. EXPLAIN shows the ranges
    /// and conditions pushed into the reads. Several statements are
    /// separated by `;` (CREATE EXTERNAL TABLE t STORED AS TILEDB LOCATION
    /// 'path'; SELECT * FROM t). CREATE TABLE t (columns) STORED AS TILEDB
    /// LOCATION 'new path' OPTIONS ('dimensions' 'd', 'domain.d' '0:99')
    /// creates the array (EXTERNAL there is optional).
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    pub query: Option<String>,
    /// Run the statements of a script FILE (`;`-separated) instead.
    #[arg(long, short = 'f', value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// How to print the result.
    #[arg(long, value_enum, default_value = "table")]
    pub format: SqlFormat,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Partitions each scan is cut into (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub partitions: Option<usize>,
    /// The memory DataFusion's operators may hold (`512M`, `2G`; K, M, G, T
    /// are powers of 1024). Sorts, grouped aggregates and sort-merge joins
    /// spill to the temporary directory ($TMPDIR) past it; a query that
    /// cannot (the build side of a hash or cross join larger than the
    /// limit) fails saying so. The result is streamed in every format, so
    /// its size is not bounded by this. Default: no limit.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<usize>,
    /// Run the query on the Ballista cluster whose scheduler is at URL
    /// (`df://HOST:PORT`; see `tiledb-codec ballista`). The scheduler and
    /// the executors open the arrays by the names in the query, so they
    /// must see them there (URLs, or paths all of them share).
    #[cfg(feature = "ballista")]
    #[arg(long, value_name = "URL")]
    pub ballista: Option<String>,
    /// With --ballista: give up after SECS without the whole answer,
    /// cancel the job on the scheduler and fail. A query fails sooner, the
    /// same way, when the scheduler reports no live executor (for 3 s, or
    /// 15 s after it lost the ones it had).
    #[cfg(feature = "ballista")]
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Let `COPY ... TO` write files under DIR (never inside an array).
    /// Without it COPY is refused. `INSERT INTO` and `DELETE FROM` an array
    /// named in the query write into that array (one fragment, one delete
    /// commit), and `CREATE [EXTERNAL] TABLE ... STORED AS TILEDB` a new
    /// array; other CREATE statements, UPDATE and the rest that write are
    /// refused.
    #[arg(long, value_name = "DIR")]
    pub allow_write: Option<PathBuf>,
    #[command(flatten)]
    pub key: KeyArg,
}

pub fn run(args: &SqlArgs) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the query's runtime: {e}"))?;
    rt.block_on(run_async(args))
}

/// The session: local, or a Ballista client with `--ballista`.
async fn context(
    args: &SqlArgs,
    config: datafusion::prelude::SessionConfig,
    runtime: Arc<RuntimeEnv>,
) -> Result<SessionContext, String> {
    #[cfg(feature = "ballista")]
    if let Some(url) = &args.ballista {
        let opts = args.key.options()?;
        let codec = tiledb_codec_sql::ballista::TileDbCodec::new(move |name| {
            Ok(Arc::new(store::array(
                std::path::Path::new(name),
                tiledb_codec::OpenOptions::new().with_read_options(opts),
            )?))
        });
        return tiledb_codec_sql::ballista::remote_context(url, codec, config)
            .await
            .map_err(|e| format!("{url}: {e}"));
    }
    let opts = args.key.options()?;
    let factory = tiledb_codec_sql::TileDbTableFactory::with_opener(move |name, given| {
        // A key in the statement's options, else the command line's.
        let mut o = given.clone();
        if given.read_options().encryption_key().is_none() {
            o = o.with_encryption_key(opts.encryption_key().copied());
        }
        Ok(store::array(std::path::Path::new(name), o)?)
    });
    Ok(factory.session_with_runtime(config, runtime))
}

/// The session's runtime: with `--memory-limit`, a memory pool shared
/// fairly among the operators that can spill (the default disk manager
/// spills into the temporary directory); its error names the operators
/// that held the most.
fn runtime(args: &SqlArgs) -> Result<Arc<RuntimeEnv>, String> {
    use datafusion::execution::memory_pool::{FairSpillPool, TrackConsumersPool};
    let mut builder = RuntimeEnvBuilder::new();
    if let Some(limit) = args.memory_limit {
        let top = std::num::NonZeroUsize::new(5).expect("5 is not zero");
        builder = builder.with_memory_pool(Arc::new(TrackConsumersPool::new(
            FairSpillPool::new(limit),
            top,
        )));
    }
    builder
        .build_arc()
        .map_err(|e| format!("cannot set up the query's runtime: {e}"))
}

async fn run_async(args: &SqlArgs) -> Result<(), String> {
    #[cfg(feature = "ballista")]
    if let Some(url) = &args.ballista {
        if args.memory_limit.is_some() {
            return Err("--memory-limit bounds a local query; a Ballista cluster's \
                        executors have their own memory"
                .into());
        }
        return on_ballista(args, url).await;
    }
    let mut physical = None;
    query(args, &mut physical)
        .await
        .map_err(|e| over_limit(e, args.memory_limit))
}

/// A size in bytes: a number, optionally with a decimal part, and a unit K,
/// M, G or T (powers of 1024, with or without a trailing `B` or `iB`).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let scale: u64 = match unit {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "{text:?} is no size: a number and K, M, G or T (512M, 2G)"
            ))
        }
    };
    let n: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is no size: a number and K, M, G or T (512M, 2G)"))?;
    let bytes = n * scale as f64;
    if !(1.0..=usize::MAX as f64).contains(&bytes) {
        return Err(format!("{text:?} is out of range for a memory limit"));
    }
    Ok(bytes as usize)
}

/// `bytes` for people: in MiB, or KiB below one MiB.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// The error of a query that ran out of the memory `--memory-limit` gave
/// it, said so with what to do.
fn over_limit(e: String, limit: Option<usize>) -> String {
    match limit {
        Some(bytes) if e.contains("Resources exhausted") => format!(
            "{e}\n(the query needs more memory than --memory-limit gives it \
             ({}): the operators marked `can spill: false` above hold what \
             they need in memory. Raise the limit, or change the query, e.g. \
             join on keys rather than a cross join with a large first side)",
            size(bytes)
        ),
        _ => e,
    }
}
/// How long the scheduler may report no live executor before a query
/// fails: when it had none since the query began (an executor that is
/// starting has this long to register), and when it lost the ones it had
/// (longer than an executor's heartbeat interval, so that one dropped after
/// a failed task launch can register again).
#[cfg(feature = "ballista")]
const NO_EXECUTOR: std::time::Duration = std::time::Duration::from_secs(3);
#[cfg(feature = "ballista")]
const EXECUTORS_LOST: std::time::Duration = std::time::Duration::from_secs(15);

/// The query on the Ballista cluster at `url`, within `--timeout`, and
/// only while the scheduler has a live executor: past the deadline, or
/// when it has none, the job is cancelled on the scheduler and the query
/// fails.
#[cfg(feature = "ballista")]
async fn on_ballista(args: &SqlArgs, url: &str) -> Result<(), String> {
    use futures::future::{select, Either};
    use tiledb_codec_sql::ballista::{cancel_jobs, no_live_executor};
    let deadline = std::time::Duration::from_secs(args.timeout);
    let mut physical = None;
    let run = tokio::time::timeout(deadline, query(args, &mut physical));
    let watch = no_live_executor(url, NO_EXECUTOR, EXECUTORS_LOST);
    let failed = match select(Box::pin(run), Box::pin(watch)).await {
        Either::Left((Ok(done), _)) => return done,
        Either::Left((Err(_), _)) => format!(
            "{url}: no answer from the Ballista cluster within {} s (--timeout): \
             the scheduler may have no live executor, or lost one (see the \
             scheduler's and executors' output)",
            args.timeout
        ),
        Either::Right((no_executor, _)) => no_executor,
    };
    let cancelled = match &physical {
        Some(plan) => {
            let cancel = cancel_jobs(url, plan);
            match tokio::time::timeout(std::time::Duration::from_secs(5), cancel).await {
                Ok(Ok(jobs)) if !jobs.is_empty() => {
                    format!("; job {} cancelled", jobs.join(", "))
                }
                Ok(Ok(_)) => String::new(),
                Ok(Err(e)) => format!("; the job could not be cancelled: {e}"),
                Err(_) => "; the scheduler did not answer the cancel".to_string(),
            }
        }
        None => String::new(),
    };
    Err(format!("{failed}{cancelled}"))
}

/// Plans and runs the query, printing the result; the physical plan is
/// left in `physical` as soon as it is made.
async fn query(
    args: &SqlArgs,
    physical: &mut Option<Arc<dyn datafusion::physical_plan::ExecutionPlan>>,
) -> Result<(), String> {
    let mut config = datafusion::prelude::SessionConfig::new();
    if let Some(n) = args.partitions {
        config = config.with_target_partitions(n.max(1));
    }
    let opts = args.key.options()?;
    let ctx = context(args, config, runtime(args)?).await?;
    let text = match (&args.query, &args.file) {
        (Some(q), _) => q.clone(),
        (None, Some(f)) => {
            std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?
        }
        (None, None) => return Err("no query: give one, or a script with -f FILE".into()),
    };
    let statements = tiledb_codec_sql::parse_session_script(&ctx, &text)
        .map_err(|e| hint_quotes(e.to_string(), &text))?;
    if statements.is_empty() {
        return Err("no statement in the query".into());
    }
    // Checked before anything runs: DDL runs as it is planned into a frame.
    let policy = match &args.allow_write {
        Some(dir) => tiledb_codec_sql::WritePolicy::copy_under(dir),
        None => tiledb_codec_sql::WritePolicy::read_only(),
    };
    let sink: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => Box::new(crate::out::Writer),
    };
    let mut out = std::io::BufWriter::new(sink);
    let mut printed = 0;
    let open = |name: &str| -> Result<_, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Arc::new(store::array(
            std::path::Path::new(name),
            tiledb_codec::OpenOptions::new().with_read_options(opts),
        )?))
    };
    for statement in statements {
        // A whole-array count, min or max the fragments' metadata answers
        // exactly is printed without planning (a query for a Ballista
        // cluster is the cluster's to run).
        let local = {
            #[cfg(feature = "ballista")]
            {
                args.ballista.is_none()
            }
            #[cfg(not(feature = "ballista"))]
            {
                true
            }
        };
        let answered = match local {
            true => tiledb_codec_sql::answer_from_metadata(&ctx, &statement, open)
                .await
                .map_err(|e| hint_quotes(e.to_string(), &text))?,
            false => None,
        };
        if let Some(batch) = answered {
            one_more_result(args, &mut printed)?;
            let schema = batch.schema();
            let stream = datafusion::physical_plan::stream::RecordBatchStreamAdapter::new(
                schema.clone(),
                futures::stream::iter([Ok(batch)]),
            );
            print_stream(args, &schema, Box::pin(stream), &mut out).await?;
            continue;
        }
        tiledb_codec_sql::register_statement_tables(&ctx, &statement, open)
            .map_err(|e| hint_quotes(e.to_string(), &text))?;
        let plan = ctx
            .state()
            .statement_to_plan(statement)
            .await
            .map_err(|e| e.to_string())?;
        policy.check(&plan)?;
        let df = ctx
            .execute_logical_plan(plan)
            .await
            .map_err(|e| e.to_string())?;
        if df.schema().fields().is_empty() {
            // DDL: nothing to print.
            continue;
        }
        one_more_result(args, &mut printed)?;
        print_result(args, df, &mut out, physical).await?;
    }
    out.flush().map_err(|e| format!("writing the result: {e}"))
}

/// Counts one more result to print: `--format arrow` prints one.
fn one_more_result(args: &SqlArgs, printed: &mut usize) -> Result<(), String> {
    if *printed > 0 && args.format == SqlFormat::Arrow {
        return Err("--format arrow prints one result: the script gives several".into());
    }
    *printed += 1;
    Ok(())
}

/// The hint for a parse error of a query naming paths without quotes.
fn hint_quotes(e: String, query: &str) -> String {
    if e.contains("ParserError") && query.contains('/') {
        format!("{e}\n(paths and URLs in FROM are quoted: FROM \"path/to/array\")")
    } else {
        e
    }
}

/// Runs one statement's frame, printing its result; the physical plan is
/// left in `physical` as soon as it is made.
async fn print_result(
    args: &SqlArgs,
    df: datafusion::dataframe::DataFrame,
    out: &mut impl Write,
    physical: &mut Option<Arc<dyn datafusion::physical_plan::ExecutionPlan>>,
) -> Result<(), String> {
    let schema = Arc::new(df.schema().as_arrow().clone());
    let task = Arc::new(df.task_ctx());
    let plan = df.create_physical_plan().await.map_err(|e| e.to_string())?;
    *physical = Some(plan.clone());
    let stream =
        datafusion::physical_plan::execute_stream(plan, task).map_err(|e| e.to_string())?;
    print_stream(args, &schema, stream, out).await
}

/// Prints a result's batches as `--format` says.
async fn print_stream(
    args: &SqlArgs,
    schema: &datafusion::arrow::datatypes::SchemaRef,
    mut stream: datafusion::execution::SendableRecordBatchStream,
    mut out: &mut impl Write,
) -> Result<(), String> {
    match args.format {
        SqlFormat::Table => {
            let mut w = crate::sql_table::TableWriter::new(&mut out, schema);
            while let Some(b) = stream.next().await {
                w.write(&b.map_err(|e| e.to_string())?)?;
            }
            w.finish()?;
        }
        SqlFormat::Csv => {
            let mut w = datafusion::arrow::csv::WriterBuilder::new()
                .with_header(true)
                .build(&mut out);
            while let Some(b) = stream.next().await {
                w.write(&b.map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())?;
            }
        }
        SqlFormat::Ndjson => {
            let mut w = datafusion::arrow::json::LineDelimitedWriter::new(&mut out);
            while let Some(b) = stream.next().await {
                w.write(&b.map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())?;
            }
            w.finish().map_err(|e| e.to_string())?;
        }
        SqlFormat::Arrow => {
            let mut w = datafusion::arrow::ipc::writer::StreamWriter::try_new(&mut out, schema)
                .map_err(|e| e.to_string())?;
            while let Some(b) = stream.next().await {
                w.write(&b.map_err(|e| e.to_string())?)
                    .map_err(|e| e.to_string())?;
            }
            w.finish().map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
