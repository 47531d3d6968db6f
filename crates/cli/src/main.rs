//! The `tiledb-codec` command line: a thin layer over the library.

mod consolidate;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod evolve;
mod group;
mod meta;
use tiledb_codec::raw::error::Error;
use tiledb_codec::raw::read::{export, ArrayReader, Order, Query, QueryCondition};
use tiledb_codec::raw::write::{self, CellFormat, ImportOptions, ImportSummary};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::summary::ArraySummary;
use tiledb_codec_cli::{inspect, verify};

mod out;
mod progress;

use out::outln;

use progress::{Bars, ReadProgress};
#[cfg(feature = "ballista")]
mod ballista;
mod delete;
#[cfg(feature = "datafusion")]
mod sql;
#[cfg(feature = "datafusion")]
mod sql_table;
mod store;

#[derive(Parser)]
#[command(
    name = "tiledb-codec",
    version,
    about = "Read, inspect and write TileDB arrays without the TileDB library"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Draw no progress bars (they are drawn on standard error only when it
    /// is a terminal).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Print the object-store requests made and bytes fetched to standard
    /// error when the command ends.
    #[arg(long, global = true)]
    stats: bool,
}

/// The environment variable the command line (never the library) takes
/// the encryption key from when no option gives it.
const KEY_VAR: &str = "TILEDB_CODEC_ENCRYPTION_KEY";

/// The encryption key of an encrypted array or group: given on the
/// command line, in a file, or in the environment.
#[derive(Args, Clone, Default)]
pub(crate) struct KeyArg {
    /// The AES-256-GCM key of an encrypted array: 32 characters, whose
    /// bytes are the key (as TileDB's `sm.encryption_key` takes it). Other
    /// users can see it in `ps`: prefer --encryption-key-file or the
    /// environment variable TILEDB_CODEC_ENCRYPTION_KEY, used when neither
    /// option is given.
    #[arg(long, global = true, value_name = "KEY", value_parser = KeyParser)]
    encryption_key: Option<[u8; 32]>,
    /// Read the encryption key from FILE (its 32 bytes; one trailing line
    /// break is left out).
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        conflicts_with = "encryption_key"
    )]
    encryption_key_file: Option<PathBuf>,
}

impl KeyArg {
    /// The key: --encryption-key, else --encryption-key-file, else
    /// `TILEDB_CODEC_ENCRYPTION_KEY`, else none.
    fn key(&self) -> Result<Option<[u8; 32]>, String> {
        if let Some(k) = self.encryption_key {
            return Ok(Some(k));
        }
        if let Some(p) = &self.encryption_key_file {
            let mut bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
            }
            return key_bytes(&bytes)
                .map(Some)
                .map_err(|e| format!("{}: {e}", p.display()));
        }
        match std::env::var_os(KEY_VAR) {
            Some(v) => key_bytes(v.as_encoded_bytes())
                .map(Some)
                .map_err(|e| format!("{KEY_VAR}: {e}")),
            None => Ok(None),
        }
    }

    fn options(&self) -> Result<ReadOptions, String> {
        Ok(ReadOptions::default().with_encryption_key(self.key()?))
    }
}

/// A key as TileDB takes it: the raw bytes of a 32-byte string. The error
/// says the length, never the bytes.
fn key_bytes(b: &[u8]) -> Result<[u8; 32], String> {
    b.try_into()
        .map_err(|_| format!("an AES-256-GCM key is 32 bytes; this one has {}", b.len()))
}

/// Parses `--encryption-key` with an error that leaves the value out
/// (clap's own would repeat it).
#[derive(Clone)]
struct KeyParser;

impl clap::builder::TypedValueParser for KeyParser {
    type Value = [u8; 32];

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<[u8; 32], clap::Error> {
        key_bytes(value.as_encoded_bytes()).map_err(|e| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("--encryption-key: {e}\n"),
            )
            .with_cmd(cmd)
        })
    }
}

/// What part of the array to read: ranges, a condition, an order.
#[derive(Args, Clone, Default)]
struct SelectArgs {
    /// Only cells with DIM in LO:HI (inclusive; LO and HI in the
    /// dimension's datatype, a string may be a JSON string literal; a
    /// single value is a point). Repeat it: several ranges on one dimension
    /// make a multi-range.
    #[arg(long = "range", value_name = "DIM=LO:HI")]
    ranges: Vec<String>,
    /// Only cells for which CONDITION holds, e.g. `a > 5 and b == "x"`
    /// (dense arrays: the other cells hold fill values, as the engine
    /// returns them).
    #[arg(long = "where", value_name = "CONDITION")]
    condition: Option<String>,
    /// The order of the cells: row-major, col-major, global or unordered.
    #[arg(long, value_name = "ORDER", value_parser = parse_order)]
    order: Option<Order>,
}

impl SelectArgs {
    fn any(&self) -> bool {
        !self.ranges.is_empty() || self.condition.is_some() || self.order.is_some()
    }

    /// Puts the ranges, condition and order into `q`, checked against the
    /// array `reader` opened.
    fn apply(&self, reader: &ArrayReader, q: &mut Query) -> Result<(), String> {
        q.ranges = export::parse_ranges(&self.ranges, &export::dimensions(reader))
            .map_err(|e| format!("--range {e}"))?;
        if let Some(c) = &self.condition {
            let cond = QueryCondition::parse(c).map_err(|e| format!("--where: {e}"))?;
            cond.bind(reader).map_err(|e| format!("--where: {e}"))?;
            q.condition = Some(cond);
        }
        q.order = self.order;
        Ok(())
    }
}

fn parse_order(s: &str) -> Result<Order, String> {
    s.parse()
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Ndjson,
    Csv,
    /// An Arrow IPC stream (export); an Arrow IPC stream or file (import).
    Arrow,
    /// A Parquet file (import only).
    Parquet,
}

impl Format {
    /// The format of an import's cells: `--format`, else arrow or parquet
    /// by the file's extension, else NDJSON.
    fn of_input(given: Option<Format>, cells: &Path) -> Format {
        if let Some(f) = given {
            return f;
        }
        {
            let ext = cells
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            match ext.as_deref() {
                Some("arrow" | "arrows" | "ipc" | "feather") => return Format::Arrow,
                Some("parquet" | "pq") => return Format::Parquet,
                _ => {}
            }
        }
        let _ = cells;
        Format::Ndjson
    }
}

#[derive(Subcommand)]
enum Command {
    /// Merge the fragments of an array (of a time range) into one; the
    /// merged ones stay until `vacuum`.
    Consolidate(consolidate::ConsolidateArgs),
    /// Remove what consolidation superseded.
    Vacuum(consolidate::VacuumArgs),
    /// The metadata of an array or group: put, delete, list.
    Meta(meta::MetaArgs),
    /// Groups: create, add and remove members, list, metadata.
    #[command(subcommand)]
    Group(group::GroupCommand),
    /// Show what PATH is (array, group, fragment or file) and everything decoded from it.
    Inspect {
        /// An array or group folder, a fragment folder, or a single file.
        path: PathBuf,
        /// Print JSON instead of the summary (the full account).
        #[arg(long)]
        json: bool,
        /// Write a picture of the fragments' non-empty domains to FILE (SVG;
        /// 1-D and 2-D arrays), instead of printing the summary.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        key: KeyArg,
    },
    /// Print every cell of an array, one per line (or, with --format arrow,
    /// as an Arrow IPC stream).
    Export(ExportArgs),
    /// Read every value of the chosen fields and print cell count, bytes and a checksum.
    Scan {
        array: PathBuf,
        /// Fields to read (default: all attributes), comma-separated.
        #[arg(long, value_delimiter = ',')]
        attrs: Option<Vec<String>>,
        /// Only open the array (schema and every fragment's footer) and stop.
        #[arg(long)]
        open_only: bool,
        /// With --range, --where or --order the scan reads the cells the
        /// query selects, batch by batch.
        #[command(flatten)]
        select: SelectArgs,
        #[command(flatten)]
        key: KeyArg,
    },
    /// Decode every tile of every fragment and check it against the fragment
    /// metadata; exit 1 naming what is wrong.
    Verify {
        array: PathBuf,
        #[command(flatten)]
        key: KeyArg,
    },
    /// Aggregates of an array's cells, printed as one JSON object keyed by
    /// the expressions as written: count(*), count(a), sum(a), min(a),
    /// max(a), mean(a), null_count(a), with the engine's result types.
    Aggregate {
        array: PathBuf,
        /// The aggregates, e.g. 'sum(a)' 'count(*)'.
        #[arg(required = true, value_name = "EXPR")]
        exprs: Vec<String>,
        /// Only cells with DIM in LO:HI (inclusive); repeat for more
        /// dimensions, or on one dimension for a multi-range.
        #[arg(long = "range", value_name = "DIM=LO:HI")]
        ranges: Vec<String>,
        /// Only cells for which this condition holds (TileDB-Py syntax).
        #[arg(long = "where", value_name = "CONDITION")]
        condition: Option<String>,
        #[command(flatten)]
        key: KeyArg,
    },
    /// Write cells into ARRAY as one new fragment, creating ARRAY first if it
    /// does not exist.
    ///
    /// The cells are what `export` prints: NDJSON, one object per cell keyed
    /// by dimension and attribute names, or CSV with a header line. Every
    /// cell is checked against the schema; on the first bad cell the command
    /// names its line and field, exits 1 and commits nothing (an array it
    /// created is removed again). With --encryption-key a new array is
    /// created AES-256-GCM encrypted with that key, and an existing
    /// encrypted array is written with it.
    Import {
        array: PathBuf,
        /// The schema to create ARRAY with: the "schema" object that
        /// `inspect --json` prints (the whole output is taken too). Needed
        /// when ARRAY does not exist. When ARRAY exists it may be left out;
        /// if given, it must be ARRAY's schema (compared, format version and
        /// enumeration values aside), else nothing is written.
        #[arg(long, value_name = "SCHEMA.json")]
        schema: Option<PathBuf>,
        /// The cells: a file, or - for standard input.
        #[arg(long, value_name = "CELLS")]
        cells: PathBuf,
        /// ndjson, csv, arrow (IPC) or parquet; default: arrow for
        /// .arrow/.arrows/.ipc/.feather files, parquet for .parquet/.pq
        /// files, else ndjson.
        #[arg(long, value_enum)]
        format: Option<Format>,
        #[command(flatten)]
        key: KeyArg,
    },
    /// Delete the cells of a sparse array for which CONDITION holds, as the
    /// engine's delete query does: a delete commit (`__commits/*.del`) that
    /// readers apply to the cells written at or before its timestamp.
    Delete(delete::DeleteArgs),
    /// Remove the fragments whose timestamps lie within T1:T2, as the
    /// engine's `delete_fragments` does (commit markers first, then the
    /// fragment folders).
    DeleteFragments(delete::DeleteFragmentsArgs),
    Evolve(evolve::EvolveArgs),
    /// Run SQL over arrays named by path or URL in the FROM clause
    /// (DataFusion): filters on dimensions become ranges and filters on
    /// attributes query conditions inside the reads.
    #[cfg(feature = "datafusion")]
    Sql(sql::SqlArgs),
    /// A Ballista cluster that runs SQL over arrays: a scheduler and
    /// executors (`sql --ballista df://HOST:PORT` sends queries to it).
    #[cfg(feature = "ballista")]
    #[command(subcommand)]
    Ballista(ballista::BallistaCommand),
}

/// The arguments of `export`.
#[derive(clap::Args)]
struct ExportArgs {
    array: PathBuf,
    #[arg(long, value_enum, default_value = "ndjson")]
    format: Format,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Attributes to print (default: all), comma-separated.
    #[arg(long, value_delimiter = ',')]
    attrs: Option<Vec<String>>,
    /// Only cells in DIM=LO:HI,... (integer dimensions; the older form
    /// of --range).
    #[arg(long)]
    subarray: Option<String>,
    #[command(flatten)]
    select: SelectArgs,
    /// Read the array as of this time (milliseconds since 1970).
    #[arg(long)]
    timestamp: Option<u64>,
    #[command(flatten)]
    key: KeyArg,
}

/// `export`: the cells of `args.array` in `args.format`.
fn run_export(args: ExportArgs, opts: &ReadOptions) -> Result<(), String> {
    let ExportArgs {
        array,
        format,
        output,
        attrs,
        subarray,
        select,
        timestamp,
        key: _,
    } = args;
    let (array, output, select) = (array.as_path(), output.as_deref(), &select);
    let reader = store::reader(array, timestamp.map(|t| (0, t)), opts)?;
    let sub = match subarray {
        Some(s) => {
            let dims = reader
                .schema
                .domain
                .dimensions
                .iter()
                .map(|d| {
                    let dt =
                        tiledb_codec::raw::array::schema::dimension_datatype(&reader.schema, d)
                            .known()
                            .unwrap_or(tiledb_codec::raw::format::Datatype::Int64);
                    (String::from_utf8_lossy(&d.name).into_owned(), dt)
                })
                .collect::<Vec<_>>();
            Some(export::parse_subarray(&s, &dims).map_err(|e| format!("--subarray: {e}"))?)
        }
        None => None,
    };
    let mut query = export::query(attrs, sub);
    select.apply(&reader, &mut query)?;
    let sink: Box<dyn Write> = match output {
        Some(p) => Box::new(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => Box::new(out::Writer),
    };
    let mut out = BufWriter::new(sink);
    let written = match format {
        Format::Ndjson => {
            let cells = reader.read(&query).map_err(|e| e.to_string())?;
            export::write_ndjson(&cells, &mut out)
        }
        Format::Csv => {
            let cells = reader.read(&query).map_err(|e| e.to_string())?;
            export::write_csv(&cells, &mut out)
        }
        Format::Arrow => {
            tiledb_codec::raw::arrow::write_ipc(&reader, &query, &mut out)
                .map_err(|e| e.to_string())?;
            Ok(())
        }
        Format::Parquet => {
            return Err("export writes ndjson, csv or arrow, not parquet".into());
        }
    };
    written.and_then(|_| out.flush()).map_err(|e| e.to_string())
}

fn run_scan(
    array: &Path,
    attrs: Option<Vec<String>>,
    open_only: bool,
    select: &SelectArgs,
    opts: &ReadOptions,
) -> Result<(), String> {
    let err = |e: Error| e.to_string();
    let reader = store::reader(array, None, opts)?;
    if open_only {
        return outln!("fragments {}", reader.fragments.len());
    }
    let summary = if select.any() {
        // The query's cells, batch by batch.
        let mut query = export::query(attrs, None);
        select.apply(&reader, &mut query)?;
        let mut summary = export::ScanSummary::default();
        for batch in reader.batches(&query).map_err(err)? {
            summary.add(&batch.map_err(err)?);
        }
        summary
    } else {
        let s = reader.scan(attrs.as_deref()).map_err(err)?;
        let mut summary = export::ScanSummary::default();
        summary.cells = s.cells;
        summary.bytes = s.bytes;
        summary.checksum = s.checksum;
        summary
    };
    outln!(
        "cells {} bytes {} checksum {:016x} fragments {}",
        summary.cells,
        summary.bytes,
        summary.checksum,
        reader.fragments.len()
    )
}

/// The schema object of a schema file: the `"schema"` member of the whole
/// `inspect --json` output, or the file itself.
fn read_schema_file(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let whole_output = v.get("kind").is_some() && v.get("schema").is_some_and(|s| s.is_object());
    Ok(if whole_output { v["schema"].clone() } else { v })
}

fn run_import(
    array: &Path,
    schema: Option<&Path>,
    cells: &Path,
    format: Format,
    key: &KeyArg,
    bars: &Bars,
) -> Result<ImportSummary, String> {
    let schema = schema.map(read_schema_file).transpose()?;
    let mut opts = ImportOptions::default();
    opts.write = opts.write.with_encryption_key(key.key()?);
    let format = match format {
        Format::Ndjson => CellFormat::Ndjson,
        Format::Csv => CellFormat::Csv,
        f @ (Format::Arrow | Format::Parquet) => {
            use tiledb_codec::raw::arrow::{import_file, InputFormat};
            let input = if f == Format::Arrow {
                InputFormat::ArrowIpc
            } else {
                InputFormat::Parquet
            };
            if cells == Path::new("-") {
                return Err(
                    "arrow and parquet input is read from a file, not standard input".into(),
                );
            }
            let spinner = bars.bar("importing", None, false);
            let result = import_file(array, schema.as_ref(), cells, input, &opts)
                .map_err(|e| format!("{}: {e}", cells.display()));
            spinner.finish_and_clear();
            return result;
        }
    };
    const THEN: &str = "writing the fragment";
    let input: Box<dyn std::io::BufRead> = if cells == Path::new("-") {
        let bar = bars.bar("reading cells", None, true);
        Box::new(std::io::BufReader::new(ReadProgress::new(
            std::io::stdin().lock(),
            bar,
            THEN,
        )))
    } else {
        let f = std::fs::File::open(cells).map_err(|e| format!("{}: {e}", cells.display()))?;
        let len = f.metadata().map(|m| m.len()).ok();
        let bar = bars.bar("reading cells", len, true);
        Box::new(std::io::BufReader::new(ReadProgress::new(f, bar, THEN)))
    };
    let result = match &schema {
        Some(s) => write::import_with(array, s, input, format, &opts),
        None => write::import_into(array, input, format, &opts),
    };
    result.map_err(|e| match e {
        // Name the input, so that "line 7" points somewhere.
        write::WriteError::Input { .. } => {
            let name = if cells == Path::new("-") {
                "<stdin>".to_string()
            } else {
                cells.display().to_string()
            };
            format!("{name}: {e}")
        }
        e => e.to_string(),
    })
}

fn run_aggregate(
    array: &Path,
    exprs: &[String],
    ranges: &[String],
    condition: Option<&str>,
    opts: &ReadOptions,
) -> Result<(), String> {
    use tiledb_codec::raw::array::FieldInfo;
    use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate};
    use tiledb_codec::raw::read::{DimRange, Query, QueryCondition};
    let aggs = exprs
        .iter()
        .map(|e| Aggregate::parse(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let reader = store::reader(array, None, opts)?;
    let mut query = Query::new();
    for r in ranges {
        let (dim, range) = r
            .split_once('=')
            .ok_or_else(|| format!("--range {r}: expected DIM=LO:HI"))?;
        let field = FieldInfo::lookup(&reader.schema, dim)
            .filter(|f| f.is_dimension)
            .ok_or_else(|| format!("--range {r}: the array has no dimension {dim:?}"))?;
        let range =
            DimRange::parse(field.datatype, range).map_err(|e| format!("--range {r}: {e}"))?;
        query = query.range(dim, range);
    }
    if let Some(c) = condition {
        query.condition = Some(QueryCondition::parse(c).map_err(|e| e.to_string())?);
    }
    let values = aggregate(&reader, &query, &aggs).map_err(|e| e.to_string())?;
    let mut results = serde_json::Map::new();
    for (e, v) in exprs.iter().zip(values) {
        results.insert(e.clone(), v.json());
    }
    outln!("{}", serde_json::Value::Object(results))
}

/// `inspect`: the summary of an array (or a tree of what another path
/// holds), the JSON account, or the fragment-layout picture.
fn run_inspect(
    path: &Path,
    json: bool,
    svg: Option<&Path>,
    opts: &ReadOptions,
) -> Result<(), String> {
    let array = inspect::kind(path).map_err(|e| e.to_string())? == inspect::Kind::Array;
    if let Some(file) = svg {
        if !array {
            return Err(format!(
                "{}: --svg draws the fragments of an array; this is not an array folder",
                path.display()
            ));
        }
        let s = ArraySummary::read(path, opts).map_err(|e| e.to_string())?;
        let picture = tiledb_codec_cli::svg::fragment_layout(&s)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(file, picture).map_err(|e| format!("{}: {e}", file.display()))?;
        out::warn(&format!(
            "wrote {} ({} fragments)",
            file.display(),
            s.fragments.len()
        ));
        if !json {
            return Ok(());
        }
    }
    if json {
        let v = inspect::inspect_json(path, opts).map_err(|e| e.to_string())?;
        out::json(&v)
    } else if array {
        let s = ArraySummary::read(path, opts).map_err(|e| e.to_string())?;
        out::text(&s.to_string())
    } else {
        let v = inspect::inspect_json(path, opts).map_err(|e| e.to_string())?;
        out::text(&tiledb_codec_cli::summary::tree(&v))
    }
}

/// With the `fail-points` feature (tests only): a command stopped right
/// after the durable step `TILEDB_CODEC_STOP_AFTER_DURABLE_STEP` names, as
/// a crash there would stop it, exits with this status.
#[cfg(feature = "fail-points")]
const STOPPED_STATUS: i32 = 86;

#[cfg(feature = "fail-points")]
fn arm_fail_point() {
    let step = std::env::var("TILEDB_CODEC_STOP_AFTER_DURABLE_STEP")
        .ok()
        .and_then(|v| v.parse::<u32>().ok());
    tiledb_codec::raw::write::steps::stop_after_durable_step(step, |n, what| {
        eprintln!("stopped after durable step {n} ({what})");
        std::process::exit(STOPPED_STATUS)
    });
}

fn main() -> ExitCode {
    #[cfg(feature = "fail-points")]
    arm_fail_point();
    let cli = Cli::parse();
    let bars = Bars::new(cli.quiet);
    let code = run(cli.command, &bars);
    out::flush();
    if cli.stats {
        store::print_stats();
    }
    match out::failure() {
        // The reader went away: say nothing, as a producer SIGPIPE ended.
        Some(None) => ExitCode::from(out::BROKEN_PIPE_STATUS),
        Some(Some(e)) => {
            out::error(&e);
            ExitCode::FAILURE
        }
        None => code,
    }
}

fn run(command: Command, bars: &std::sync::Arc<Bars>) -> ExitCode {
    if let Some(name) = match &command {
        Command::Group(_) => Some("group"),
        _ => None,
    } {
        for a in std::env::args_os().skip(1) {
            if let Err(e) = store::refuse(name, Path::new(&a)) {
                out::error(&e.to_string());
                return ExitCode::FAILURE;
            }
        }
    }
    let result: Result<(), String> = match command {
        // Maintenance of an array in an object store runs on a local copy
        // of it; what changed is then uploaded and removed (store::staged).
        Command::Consolidate(mut a) => {
            let bars = bars.clone();
            store::staged(&a.array.clone(), true, true, move |local| {
                a.array = local.to_path_buf();
                consolidate::run_consolidate(a, bars)
            })
        }
        Command::Vacuum(mut a) => {
            let bars = bars.clone();
            store::staged(&a.array.clone(), true, true, move |local| {
                a.array = local.to_path_buf();
                consolidate::run_vacuum(a, bars)
            })
        }
        Command::Meta(args) => {
            let upload = args.writes();
            let path = args.path.clone();
            store::staged(&path, false, upload, move |local| {
                let mut args = args;
                args.path = local.to_path_buf();
                meta::run(&args)
            })
        }
        Command::Group(cmd) => group::run(&cmd),
        #[cfg(feature = "datafusion")]
        Command::Sql(args) => sql::run(&args),
        #[cfg(feature = "ballista")]
        Command::Ballista(cmd) => ballista::run(cmd, bars.quiet),
        Command::Inspect {
            path,
            json,
            svg,
            key,
        } => store::staged(&path.clone(), true, false, |local| {
            run_inspect(local, json, svg.as_deref(), &key.options()?)
        }),
        Command::Export(args) => args.key.options().and_then(|opts| run_export(args, &opts)),
        Command::Scan {
            array,
            attrs,
            open_only,
            select,
            key,
        } => key
            .options()
            .and_then(|opts| run_scan(&array, attrs, open_only, &select, &opts)),
        Command::Aggregate {
            array,
            exprs,
            ranges,
            condition,
            key,
        } => key
            .options()
            .and_then(|opts| run_aggregate(&array, &exprs, &ranges, condition.as_deref(), &opts)),
        Command::Verify { array, key } => {
            match store::staged(&array.clone(), true, false, |local| {
                verify::verify_with(local, &key.options()?, &**bars).map_err(|e| e.to_string())
            })
            .and_then(|report| {
                outln!(
                    "{} fragments, {} fields, {} tiles checked, {} problems",
                    report.fragments,
                    report.fields,
                    report.tiles,
                    report.problems.len()
                )?;
                for w in &report.warnings {
                    outln!("warning: {}: {}", w.path.display(), w.what)?;
                }
                for p in &report.problems {
                    outln!("problem: {}: {}", p.path.display(), p.what)?;
                }
                Ok(report.ok())
            }) {
                Ok(true) => Ok(()),
                Ok(false) => return ExitCode::FAILURE,
                Err(e) => Err(e),
            }
        }
        Command::Import {
            array,
            schema,
            cells,
            format,
            key,
        } => store::staged(&array, false, true, |local| {
            run_import(
                local,
                schema.as_deref(),
                &cells,
                Format::of_input(format, &cells),
                &key,
                bars,
            )
        })
        .and_then(|s| {
            let created = if s.created { "new" } else { "existing" };
            match &s.fragment {
                Some(f) => outln!(
                    "imported {} cells into {} array {}: fragment {}",
                    s.cells,
                    created,
                    array.display(),
                    f.name
                ),
                None => outln!(
                    "imported 0 cells into {} array {}: no fragment written",
                    created,
                    array.display()
                ),
            }
        }),
        Command::Delete(mut a) => store::staged(&a.array.clone(), true, true, |local| {
            a.array = local.to_path_buf();
            delete::run_delete(&a)
        }),
        Command::DeleteFragments(mut a) => store::staged(&a.array.clone(), true, true, |local| {
            a.array = local.to_path_buf();
            delete::run_delete_fragments(&a)
        }),
        Command::Evolve(mut a) => store::staged(&a.array.clone(), true, true, |local| {
            a.array = local.to_path_buf();
            evolve::run(&a)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A failed standard output is reported once, by `main`.
            if out::failure().is_none() {
                out::error(&e);
            }
            ExitCode::FAILURE
        }
    }
}
