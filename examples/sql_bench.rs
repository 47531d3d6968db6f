//! The library calls behind `bash bench/sql.sh`: SQL over an array through
//! [`tiledb_codec::sql`], timed in-process with `std::time::Instant` around
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
use datafusion::prelude::SessionContext;
use tiledb_codec::Array;

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Runs `query` (`SELECT count(..), x, ...`): the count, then every other
/// column of its one row as a float (NaN for null).
async fn run(query: &str) -> Res<(i64, Vec<f64>)> {
    let ctx = SessionContext::new();
    tiledb_codec::sql::register_tables(&ctx, query, |name| Ok(Arc::new(Array::open(name)?)))?;
    let batches = ctx.sql(query).await?.collect().await?;
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

fn main() -> Res<()> {
    let mode = std::env::args().nth(1).unwrap_or_default();
    if mode != "serve" {
        return Err("usage: sql_bench serve  (queries on standard input, one per line)".into());
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let query = line?;
        let t0 = Instant::now();
        let answer = match rt.block_on(run(&query)) {
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
