//! The same scans distributed on Ballista (feature `ballista`).
//!
//! A Ballista client sends the query's logical plan to the scheduler, the
//! scheduler plans it into stages and sends each task's physical plan to an
//! executor. [`TileDbCodec`] carries the two TileDB nodes across: a
//! [`TileDbTable`] travels as the path or URL it was opened from and a
//! [`TileDbScan`] as its location, columns, ranges, condition, partition
//! slices and limit. The scheduler and the executors open the array again
//! with the function the codec was made with, so every process must see
//! the array at that name (an object-store URL, or a path all of them
//! share). Every other node goes through Ballista's own codecs.
//!
//! The scheduler and executors are Ballista's, given this codec:
//! `override_logical_codec` and `override_physical_codec` in
//! `ballista_scheduler::config::SchedulerConfig` and
//! `ballista_executor::executor_process::ExecutorProcessConfig`.
//! `tiledb-codec ballista scheduler|executor` start them so. A client
//! session is [`remote_context`]:
//!
//! ```no_run
//! use std::sync::Arc;
//! use datafusion::prelude::SessionConfig;
//! use tiledb_codec_sql::ballista::{remote_context, TileDbCodec};
//! use tiledb_codec::Array;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let codec = TileDbCodec::new(|name| Ok(Arc::new(Array::open(name)?)));
//! let ctx = remote_context("df://127.0.0.1:50050", codec, SessionConfig::new()).await?;
//! let query = r#"SELECT count(*) FROM "s3://bucket/array" WHERE a > 5"#;
//! tiledb_codec_sql::register_tables(&ctx, query, |name| Ok(Arc::new(Array::open(name)?)))?;
//! let batches = ctx.sql(query).await?.collect().await?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
//!
//! What keeps a cluster from hanging or writing: [`ReadOnlyEngine`] makes
//! an executor refuse stages that write files (unless its [`WritePolicy`]
//! allows the place), [`cancel_jobs`] withdraws a client's job from the
//! scheduler when the client stops waiting for it, and [`live_executors`]
//! and [`no_live_executor`] tell a client that no executor can run its
//! query, from the scheduler's readiness probe.

use std::fmt;
use std::sync::Arc;

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use ballista_core::JobId;
use ballista_executor::execution_engine::{
    DefaultExecutionEngine, ExecutionEngine, QueryStageExecutor,
};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{DataFusionError, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::physical_plan::FileSink;
use datafusion::datasource::sink::{DataSink, DataSinkExec};
use datafusion::error::Result as DfResult;
use datafusion::execution::session_state::SessionStateBuilder;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::{Extension, LogicalPlan};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};

use super::scan::ScanWire;
use super::{TileDbScan, TileDbTable, WritePolicy};
use tiledb_codec::Array;

/// How a process opens an array from the path or URL a plan names it by.
pub type OpenArray =
    dyn Fn(&str) -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>> + Send + Sync;

/// What a [`TileDbTable`]'s bytes start with; the location follows.
const TABLE: &[u8] = b"tiledb-codec table 1\n";
/// What a [`TileDbScan`]'s bytes start with; JSON follows.
const SCAN: &[u8] = b"tiledb-codec scan 1\n";

/// Ballista's logical and physical extension codec, knowing TileDB tables
/// and scans (see the [module](self) docs). Give the same codec, with an
/// opener each process can use, to the client, the scheduler and the
/// executors.
pub struct TileDbCodec {
    open: Box<OpenArray>,
    logical: BallistaLogicalExtensionCodec,
    physical: BallistaPhysicalExtensionCodec,
}

impl fmt::Debug for TileDbCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDbCodec").finish_non_exhaustive()
    }
}

impl TileDbCodec {
    /// The codec of a process that opens arrays with `open`.
    pub fn new(
        open: impl Fn(&str) -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>>
            + Send
            + Sync
            + 'static,
    ) -> Arc<TileDbCodec> {
        Arc::new(TileDbCodec {
            open: Box::new(open),
            logical: BallistaLogicalExtensionCodec::default(),
            physical: BallistaPhysicalExtensionCodec::default(),
        })
    }

    fn open(&self, location: &str) -> DfResult<Arc<Array>> {
        (self.open)(location).map_err(|e| {
            DataFusionError::Plan(format!("{location}: cannot open it as an array: {e}"))
        })
    }
}

/// The bytes after `magic`, when `buf` starts with it.
fn after<'a>(buf: &'a [u8], magic: &[u8]) -> Option<&'a [u8]> {
    buf.strip_prefix(magic)
}

fn codec_error(what: &str, e: impl fmt::Display) -> DataFusionError {
    DataFusionError::Internal(format!("tiledb-codec's Ballista codec: {what}: {e}"))
}

impl LogicalExtensionCodec for TileDbCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> DfResult<Extension> {
        self.logical.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> DfResult<()> {
        self.logical.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> DfResult<Arc<dyn TableProvider>> {
        let Some(rest) = after(buf, TABLE) else {
            return self
                .logical
                .try_decode_table_provider(buf, table_ref, schema, ctx);
        };
        let location =
            std::str::from_utf8(rest).map_err(|e| codec_error("a table's location", e))?;
        let mut table = TileDbTable::new(self.open(location)?)?.with_location(location);
        // Its scans are cut into Ballista tasks.
        table.distributed = true;
        // The plan was made against the schema the client saw.
        let same = table.schema().fields().len() == schema.fields().len()
            && table
                .schema()
                .fields()
                .iter()
                .zip(schema.fields())
                .all(|(a, b)| a.name() == b.name() && a.data_type() == b.data_type());
        if !same {
            return Err(DataFusionError::Plan(format!(
                "{location}: the array's columns here are not those the query was planned \
                 with (its schema changed, or another array has that name here)"
            )));
        }
        Ok(Arc::new(table))
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> DfResult<()> {
        match node.downcast_ref::<TileDbTable>() {
            Some(t) => {
                buf.extend_from_slice(TABLE);
                buf.extend_from_slice(t.location().as_bytes());
                Ok(())
            }
            None => self.logical.try_encode_table_provider(table_ref, node, buf),
        }
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> DfResult<Arc<dyn FileFormatFactory>> {
        self.logical.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> DfResult<()> {
        self.logical.try_encode_file_format(buf, node)
    }
}

impl PhysicalExtensionCodec for TileDbCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let Some(rest) = after(buf, SCAN) else {
            return self.physical.try_decode(buf, inputs, ctx, proto_converter);
        };
        let wire: ScanWire = serde_json::from_slice(rest).map_err(|e| codec_error("a scan", e))?;
        let array = self.open(TileDbScan::wire_location(&wire))?;
        Ok(Arc::new(TileDbScan::from_wire(array, wire, inputs)?))
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> DfResult<()> {
        match node.downcast_ref::<TileDbScan>() {
            Some(scan) => {
                buf.extend_from_slice(SCAN);
                serde_json::to_writer(&mut *buf, &scan.to_wire())
                    .map_err(|e| codec_error("a scan", e))
            }
            None => self.physical.try_encode(node, buf, proto_converter),
        }
    }
}

/// A session that runs its queries on the Ballista scheduler at `url`
/// (`df://HOST:PORT`), carrying TileDB tables and scans with `codec`.
/// `config` is the session's DataFusion configuration
/// (`target_partitions` cuts each scan into that many tasks).
///
/// A query waits for the cluster as long as it takes, even when no
/// executor is alive: bound it (`tokio::time::timeout`, and a race with
/// [`no_live_executor`]) and then withdraw it with [`cancel_jobs`], as
/// `tiledb-codec sql --ballista --timeout SECS` does.
pub async fn remote_context(
    url: &str,
    codec: Arc<TileDbCodec>,
    config: SessionConfig,
) -> DfResult<SessionContext> {
    let mut config = config
        .upgrade_for_ballista()
        .with_ballista_logical_extension_codec(codec.clone())
        .with_ballista_physical_extension_codec(codec);
    // The client asks for the job's state (rather than waiting for the
    // scheduler to push it), so the job's id is known as soon as the
    // scheduler takes the job: [`cancel_jobs`] needs it.
    config
        .options_mut()
        .set(ballista_core::config::BALLISTA_CLIENT_PULL, "true")?;
    let state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .build();
    SessionContext::remote_with_state(url, state).await
}

/// Checks a stage an executor was given: `Err` says which file it would
/// write and why that is refused. Stages write files through a
/// `DataSinkExec` (`COPY ... TO`, `INSERT INTO` a listing table); its
/// output must be a local place `policy` allows. Any other sink is refused.
/// (Ballista's own shuffle files, in the executor's work folder, are not
/// part of the stage's plan.)
pub fn check_stage_writes(
    policy: &WritePolicy,
    plan: &Arc<dyn ExecutionPlan>,
) -> Result<(), String> {
    use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
    let mut refused = None;
    let _ = plan.apply(|node| {
        let verdict = match node.downcast_ref::<DataSinkExec>() {
            Some(sink) => sink_allowed(policy, sink.sink()),
            None => Ok(()),
        };
        match verdict {
            Ok(()) => Ok(TreeNodeRecursion::Continue),
            Err(e) => {
                refused = Some(e);
                Ok(TreeNodeRecursion::Stop)
            }
        }
    });
    refused.map_or(Ok(()), Err)
}

fn sink_allowed(policy: &WritePolicy, sink: &dyn DataSink) -> Result<(), String> {
    use datafusion::datasource::file_format::{csv::CsvSink, json::JsonSink, parquet::ParquetSink};
    let config = if let Some(s) = sink.downcast_ref::<CsvSink>() {
        s.config()
    } else if let Some(s) = sink.downcast_ref::<JsonSink>() {
        s.config()
    } else if let Some(s) = sink.downcast_ref::<ParquetSink>() {
        s.config()
    } else {
        return Err(format!(
            "this executor refuses a stage that writes through {sink:?}: \
             SQL over arrays only reads"
        ));
    };
    // Where the sink writes, as planned (made absolute where it was
    // planned; the statement's own text does not travel to executors).
    let mut places = Vec::new();
    for url in &config.table_paths {
        places.push(match url.scheme() {
            "file" => url
                .get_url()
                .to_file_path()
                .map(|p| p.display().to_string())
                .map_err(|()| {
                    format!("this executor refuses the stage: {url}: not a local path")
                })?,
            _ => url.as_str().to_string(),
        });
    }
    if places.is_empty() {
        return Err("this executor refuses a stage that writes files to no named place".into());
    }
    for place in &places {
        if policy.allowed_dir().is_none() {
            return Err(format!(
                "this executor refuses a stage that writes {place:?}: it only reads \
                 unless started with --allow-write DIR"
            ));
        }
        policy
            .copy_to(place)
            .map_err(|e| format!("this executor refuses the stage: {e}"))?;
    }
    Ok(())
}

/// Ballista's execution engine, refusing the stages [`check_stage_writes`]
/// refuses before anything runs. Give it to an executor as
/// `ExecutorProcessConfig::override_execution_engine`.
pub struct ReadOnlyEngine {
    policy: WritePolicy,
    inner: Arc<dyn ExecutionEngine>,
}

impl ReadOnlyEngine {
    /// Ballista's default engine, checked with `policy`.
    pub fn new(policy: WritePolicy) -> Self {
        Self::over(policy, Arc::new(DefaultExecutionEngine::new()))
    }

    /// `inner`, checked with `policy`.
    pub fn over(policy: WritePolicy, inner: Arc<dyn ExecutionEngine>) -> Self {
        ReadOnlyEngine { policy, inner }
    }
}

impl ExecutionEngine for ReadOnlyEngine {
    fn create_query_stage_exec(
        &self,
        job_id: JobId,
        stage_id: usize,
        task_id: usize,
        global_output_partition_ids: Vec<usize>,
        plan: Arc<dyn ExecutionPlan>,
        work_dir: &str,
        config: &SessionConfig,
    ) -> DfResult<Arc<dyn QueryStageExecutor>> {
        check_stage_writes(&self.policy, &plan).map_err(DataFusionError::Plan)?;
        self.inner.create_query_stage_exec(
            job_id,
            stage_id,
            task_id,
            global_output_partition_ids,
            plan,
            work_dir,
            config,
        )
    }
}

/// Asks the scheduler at `url` (`df://HOST:PORT`) to cancel the jobs
/// `plan` (a Ballista client's physical plan) submitted, so that a query
/// the client gave up on does not keep the cluster busy. Returns the
/// cancelled jobs' ids; `Err` when the scheduler could not be asked.
pub async fn cancel_jobs(url: &str, plan: &Arc<dyn ExecutionPlan>) -> Result<Vec<String>, String> {
    use ballista_core::execution_plans::DistributedQueryExec;
    use ballista_core::serde::protobuf::scheduler_grpc_client::SchedulerGrpcClient;
    use ballista_core::serde::protobuf::CancelJobParams;
    use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
    use datafusion_proto::protobuf::LogicalPlanNode;

    let mut jobs = Vec::new();
    let _ = plan.apply(|node| {
        if let Some(q) = node.downcast_ref::<DistributedQueryExec<LogicalPlanNode>>() {
            jobs.extend(q.job_id().map(|j| j.as_str().to_string()));
        }
        Ok(TreeNodeRecursion::Continue)
    });
    if jobs.is_empty() {
        return Ok(jobs);
    }
    let at = url.strip_prefix("df://").unwrap_or(url);
    let mut client = SchedulerGrpcClient::connect(format!("http://{at}"))
        .await
        .map_err(|e| format!("the scheduler at {at}: {e}"))?;
    for job_id in &jobs {
        client
            .cancel_job(CancelJobParams {
                job_id: job_id.clone(),
            })
            .await
            .map_err(|e| format!("the scheduler at {at}: cancelling job {job_id}: {e}"))?;
    }
    Ok(jobs)
}

/// What the scheduler at `url` (`df://HOST:PORT`) says of its executors on
/// its readiness probe (`GET /readyz`, which Ballista's scheduler serves
/// on its gRPC port whatever its features): the executors that sent a
/// heartbeat within its executor timeout ("ready: N executors registered",
/// "not ready: N/M executors registered"). `Ok(None)` when it answers
/// otherwise (a scheduler without the probe); `Err` when it cannot be
/// reached or does not answer within `wait`. The answer read is bounded.
pub async fn live_executors(url: &str, wait: std::time::Duration) -> Result<Option<usize>, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let at = url.strip_prefix("df://").unwrap_or(url);
    let asked = async {
        let mut conn = tokio::net::TcpStream::connect(at)
            .await
            .map_err(|e| format!("the scheduler at {at}: {e}"))?;
        let request = format!("GET /readyz HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\n\r\n");
        conn.write_all(request.as_bytes())
            .await
            .map_err(|e| format!("the scheduler at {at}: {e}"))?;
        let mut answer = Vec::new();
        conn.take(16 * 1024)
            .read_to_end(&mut answer)
            .await
            .map_err(|e| format!("the scheduler at {at}: {e}"))?;
        Ok::<_, String>(answer)
    };
    let answer = tokio::time::timeout(wait, asked)
        .await
        .map_err(|_| format!("the scheduler at {at} did not answer within {wait:?}"))??;
    Ok(readiness_count(&String::from_utf8_lossy(&answer)))
}

/// The live executor count in a readiness answer (see [`live_executors`]).
fn readiness_count(answer: &str) -> Option<usize> {
    let body = answer.split_once("\r\n\r\n")?.1;
    let line = body.lines().find(|l| l.ends_with("executors registered"))?;
    let rest = line
        .strip_prefix("not ready: ")
        .or_else(|| line.strip_prefix("ready: "))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Resolves, with a message naming the scheduler, once the scheduler at
/// `url` has reported no live executor for `first` (while none was seen)
/// or for `lost` (after some were: an executor that only missed a task
/// launch registers again on its next heartbeat); asks every second. Never
/// resolves while executors are live, nor when the scheduler does not say
/// (see [`live_executors`]). Race it with a query, then cancel the job
/// ([`cancel_jobs`]) when it wins.
pub async fn no_live_executor(
    url: &str,
    first: std::time::Duration,
    lost: std::time::Duration,
) -> String {
    let step = std::time::Duration::from_millis(250);
    let mut seen = 0usize;
    let mut none_since: Option<std::time::Instant> = None;
    loop {
        match live_executors(url, std::time::Duration::from_secs(5)).await {
            Ok(Some(0)) => {
                let since = *none_since.get_or_insert_with(std::time::Instant::now);
                let grace = if seen == 0 { first } else { lost };
                if since.elapsed() >= grace {
                    return if seen == 0 {
                        format!(
                            "{url}: no live executor: the scheduler has none registered \
                             (asked for {} s); start one with `tiledb-codec ballista \
                             executor --scheduler HOST:PORT`",
                            grace.as_secs()
                        )
                    } else {
                        format!(
                            "{url}: no live executor: the scheduler lost the {seen} it had \
                             and none registered again within {} s (see the executors' output)",
                            grace.as_secs()
                        )
                    };
                }
            }
            Ok(Some(n)) => {
                seen = seen.max(n);
                none_since = None;
            }
            // A scheduler that does not say, or a probe that failed once:
            // the query's own deadline stands.
            Ok(None) => std::future::pending::<()>().await,
            Err(_) => none_since = None,
        }
        tokio::time::sleep(if none_since.is_some() { step } else { step * 4 }).await;
    }
}

#[cfg(test)]
mod readiness_tests {
    use super::readiness_count;

    #[test]
    fn readiness_answers_are_read() {
        let ok = "HTTP/1.1 200 OK\r\ncontent-length: 28\r\n\r\nready: 2 executors registered\n";
        assert_eq!(readiness_count(ok), Some(2));
        let none = "HTTP/1.1 503 Service Unavailable\r\n\r\nnot ready: 0/1 executors registered\n";
        assert_eq!(readiness_count(none), Some(0));
        assert_eq!(readiness_count("HTTP/1.1 404 Not Found\r\n\r\n"), None);
        assert_eq!(readiness_count("garbage"), None);
    }
}
