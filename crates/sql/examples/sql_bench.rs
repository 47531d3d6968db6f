//! The library calls behind `bash bench/sql.sh`: SQL over an array through
//! [`tiledb_codec_sql`], timed in-process with `std::time::Instant` around
//! open + plan + execute + collect (as the engine's side is timed around
//! `tiledb.open` + its query).
//!
//! `sql_bench serve`: reads one query per line on standard input, each
//! naming its array in FROM by path, and answers each with one line,
//! `SECONDS COUNT X...` (or `error: ...`): the query is
//! `SELECT count(..), x, ...`, COUNT and the X its one row (as floats; a
//! sum, or a min and a max).
//!
//! `cargo run --release --features datafusion --example sql_bench -- serve`

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{Array as _, Float64Array, Int64Array};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::prelude::{SessionConfig, SessionContext};
use tiledb_codec::Array;
use tiledb_codec_sql::TileDbTableFactory;

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The session a user of the library makes: the crate's, which answers
/// count, min and max from fragment metadata before DataFusion's other
/// rules run (`tiledb_codec_sql::MetadataAggregates`).
fn session() -> SessionContext {
    TileDbTableFactory::default().session(SessionConfig::new())
}

/// Runs `query` (`SELECT count(..), x, ...`) in `ctx`: the count, then
/// every other column of its one row as a float (NaN for null). The
/// session, like the engine's context, lives across queries; as the
/// crate's sessions do, it keeps the arrays its queries named
/// (`tiledb_codec_sql::OpenedTables`): each query asks whether the
/// array is current (`Array::is_current`: the stamps of its settled local
/// folders, else their listings) and uses the table already made while it
/// is, else opens the array anew (the engine's side opens its array for
/// every query).
async fn run(ctx: &SessionContext, query: &str) -> Res<(i64, Vec<f64>)> {
    // Parsed in the session's state in place (no copy of it).
    let statement = {
        let state = ctx.state_ref();
        let state = state.read();
        let dialect = state.config().options().sql_parser.dialect;
        state.sql_to_statement(query, &dialect)?
    };
    let open = |name: &str| -> Res<Arc<Array>> { Ok(Arc::new(Array::open(name)?)) };
    // As the `sql` command runs a statement: answered from fragment
    // metadata where it can be, else planned and run by DataFusion.
    if let Some(row) = tiledb_codec_sql::answer_from_metadata(ctx, &statement, open).await? {
        return values(&[row]);
    }
    // Not answered: the array it opened stays registered for planning;
    // dropped after the query with the ones registered here.
    let mut names = tables(ctx);
    names.extend(tiledb_codec_sql::register_statement_tables(
        ctx, &statement, open,
    )?);
    // One copy of the session's state per query planned (`SessionContext::sql`
    // takes two; the catalog is shared: the tables just registered are
    // seen by it).
    let state = ctx.state();
    let batches = async {
        let plan = state.statement_to_plan(statement).await?;
        let physical = state.create_physical_plan(&plan).await?;
        datafusion::physical_plan::collect(physical, state.task_ctx()).await
    }
    .await;
    for name in names {
        ctx.deregister_table(datafusion::common::TableReference::bare(name))?;
    }
    values(&batches?)
}

/// The tables of `ctx`'s default schema (the session starts with none:
/// every one is an array opened for the query at hand).
fn tables(ctx: &SessionContext) -> Vec<String> {
    ctx.catalog("datafusion")
        .and_then(|c| c.schema("public"))
        .map(|s| s.table_names())
        .unwrap_or_default()
}

/// The count, then every other column of the first row as a float (NaN
/// for null).
fn values(batches: &[datafusion::arrow::record_batch::RecordBatch]) -> Res<(i64, Vec<f64>)> {
    let b = batches.first().ok_or("no result")?;
    let count = b
        .column(0)
        .as_any()
        .downcast_ref::<Int64Array>()
        .ok_or("the first column is not a count")?
        .value(0);
    let mut rest = Vec::new();
    for c in b.columns().iter().skip(1) {
        let c = cast(c, &DataType::Float64)?;
        let c = c
            .as_any()
            .downcast_ref::<Float64Array>()
            .ok_or("a column is not a number")?;
        rest.push(if c.is_null(0) { f64::NAN } else { c.value(0) });
    }
    Ok((count, rest))
}

/// `sql_bench steps N QUERY [PATH]`: the median time of each step of
/// [`run`] (with a new session each time), over N runs, in microseconds;
/// with PATH, also of opening that array and making its table alone.
async fn steps(n: usize, query: &str, path: Option<&str>) -> Res<()> {
    let names = [
        "session",
        "parse",
        "open+register",
        "logical plan",
        "optimize",
        "physical plan",
        "execute",
        "(Array::open)",
        "(TileDbTable)",
        "(answered)",
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for _ in 0..n {
        let mut t = Instant::now();
        let mut lap = |i: usize, times: &mut Vec<Vec<f64>>| {
            times[i].push(t.elapsed().as_secs_f64() * 1e6);
            t = Instant::now();
        };
        let ctx = session();
        lap(0, &mut times);
        let state = ctx.state();
        let dialect = state.config().options().sql_parser.dialect;
        let statement = state.sql_to_statement(query, &dialect)?;
        lap(1, &mut times);
        tiledb_codec_sql::register_statement_tables(&ctx, &statement, |name| {
            Ok(Arc::new(Array::open(name)?))
        })?;
        lap(2, &mut times);
        let plan = state.statement_to_plan(statement).await?;
        lap(3, &mut times);
        let optimized = state.optimize(&plan)?;
        lap(4, &mut times);
        let physical = state
            .query_planner()
            .create_physical_plan(&optimized, &state)
            .await?;
        lap(5, &mut times);
        let batches = datafusion::physical_plan::collect(physical, state.task_ctx()).await?;
        assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 1);
        lap(6, &mut times);
        if let Some(path) = path {
            let t = Instant::now();
            let array = Arc::new(Array::open(path)?);
            times[7].push(t.elapsed().as_secs_f64() * 1e6);
            let t = Instant::now();
            tiledb_codec_sql::TileDbTable::new(array)?;
            times[8].push(t.elapsed().as_secs_f64() * 1e6);
        }
        // The whole of what the `sql` command does for a query the
        // metadata answers (parse, open, answer), when it is one.
        // In a session that has not opened the array yet.
        let fresh = session();
        let t = Instant::now();
        let statement = state.sql_to_statement(query, &dialect)?;
        let answered = tiledb_codec_sql::answer_from_metadata(&fresh, &statement, |name| {
            Ok(Arc::new(Array::open(name)?))
        })
        .await?;
        if answered.is_some() {
            times[9].push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let mut total = 0.0;
    for (name, mut v) in names.iter().zip(times) {
        if v.is_empty() {
            continue;
        }
        v.sort_by(f64::total_cmp);
        let m = v[v.len() / 2];
        if !name.starts_with('(') {
            total += m;
        }
        println!("{name:>14}: {m:8.1} us");
    }
    println!("{:>14}: {total:8.1} us (sum of medians)", "total");
    Ok(())
}

fn main() -> Res<()> {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    if mode == "steps" {
        let n: usize = std::env::args().nth(2).ok_or("steps N QUERY")?.parse()?;
        let query = std::env::args().nth(3).ok_or("steps N QUERY")?;
        let path = std::env::args().nth(4);
        return rt.block_on(steps(n.max(1), &query, path.as_deref()));
    }
    if mode != "serve" {
        return Err("usage: sql_bench serve  (queries on standard input, one per line)".into());
    }
    let ctx = session();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let query = line?;
        let t0 = Instant::now();
        let answer = match rt.block_on(run(&ctx, &query)) {
            Ok((count, rest)) => {
                let mut line = format!("{:.6} {count}", t0.elapsed().as_secs_f64());
                for v in rest {
                    line.push_str(&format!(" {v:.17e}"));
                }
                line
            }
            Err(e) => format!("error: {}", e.to_string().replace('\n', " ")),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}
