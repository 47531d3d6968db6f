//! `CREATE EXTERNAL TABLE t STORED AS TILEDB LOCATION 'path or URL'`: a
//! session names an array as a table, with options for the encryption key
//! and a timestamp.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::{Session, TableProviderFactory};
use datafusion::common::{DataFusionError, Result as DfResult};
use datafusion::dataframe::DataFrame;
use datafusion::datasource::TableProvider;
use datafusion::execution::runtime_env::RuntimeEnv;
use datafusion::execution::SessionStateBuilder;
use datafusion::logical_expr::CreateExternalTable;
use datafusion::optimizer::{Optimizer, OptimizerRule};
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion::sql::parser::{DFParser, Statement};
use datafusion::sql::sqlparser::dialect::{dialect_from_str, Dialect};

use super::{AnsweredPlanner, MetadataAggregates, TileDbTable};
use tiledb_codec::Array;
use tiledb_codec::OpenOptions;

/// The file type `CREATE EXTERNAL TABLE ... STORED AS` names arrays by.
pub const FILE_TYPE: &str = "TILEDB";

/// How the factory opens an array: the location as written, and the open
/// options (with the `encryption_key` option's key and the `timestamp`
/// option's time).
pub type OpenArray = dyn Fn(&str, &OpenOptions) -> Result<Array, Box<dyn std::error::Error + Send + Sync>>
    + Send
    + Sync;

/// Opens arrays for `CREATE EXTERNAL TABLE ... STORED AS TILEDB`.
///
/// Options (`OPTIONS ('timestamp' '1700000000000')`): `timestamp`, the
/// array as of that time in milliseconds (fragments written up to it), and
/// `encryption_key`, the 32-byte key of an encrypted array (prefer a
/// factory made with [`Self::with_opener`] whose opener knows the key: a
/// key in a query's text is seen wherever the query is).
///
/// ```
/// use datafusion::prelude::SessionConfig;
/// use tiledb_codec_sql::TileDbTableFactory;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let ctx = TileDbTableFactory::default().session(SessionConfig::new());
/// ctx.sql("CREATE EXTERNAL TABLE t STORED AS TILEDB LOCATION 'tests/fixtures/v22/sparse_int_2d'")
///     .await?;
/// let n = ctx.sql("SELECT count(*) FROM t").await?.collect().await?;
/// assert_eq!(n[0].num_rows(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct TileDbTableFactory {
    open: Arc<OpenArray>,
}

impl fmt::Debug for TileDbTableFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileDbTableFactory").finish_non_exhaustive()
    }
}

impl Default for TileDbTableFactory {
    /// Opens local paths with [`Array::open_with`].
    fn default() -> Self {
        Self::with_opener(|location, opts| Ok(Array::open_with(location, opts.clone())?))
    }
}

impl TileDbTableFactory {
    /// A factory whose arrays `open` opens (URLs of object stores, a key
    /// the caller holds).
    pub fn with_opener(
        open: impl Fn(&str, &OpenOptions) -> Result<Array, Box<dyn std::error::Error + Send + Sync>>
            + Send
            + Sync
            + 'static,
    ) -> Self {
        TileDbTableFactory {
            open: Arc::new(open),
        }
    }

    /// A session that knows `STORED AS TILEDB` (and DataFusion's own
    /// formats), with `config`.
    pub fn session(self, config: SessionConfig) -> SessionContext {
        let state = self.state(config).build();
        SessionContext::new_with_state(state)
    }

    /// [`Self::session`] over `runtime`: a memory pool that bounds the
    /// operators (`RuntimeEnvBuilder::with_memory_pool`), the disk manager
    /// they spill with.
    pub fn session_with_runtime(
        self,
        config: SessionConfig,
        runtime: Arc<RuntimeEnv>,
    ) -> SessionContext {
        let state = self.state(config).with_runtime_env(runtime).build();
        SessionContext::new_with_state(state)
    }

    fn state(self, config: SessionConfig) -> SessionStateBuilder {
        // Count, min and max from fragment metadata once the plan is
        // analyzed, and first of the optimizer's rules: the rules after it
        // then see the small plan (see `MetadataAggregates`), and the query
        // planner makes its physical plan without further passes.
        let mut rules: Vec<Arc<dyn OptimizerRule + Send + Sync>> =
            vec![Arc::new(MetadataAggregates)];
        rules.extend(Optimizer::new().rules);
        // The arrays its statements name, kept open while current.
        let config = config.with_extension(Arc::new(super::OpenedTables::default()));
        SessionStateBuilder::new()
            .with_config(config)
            .with_default_features()
            .with_optimizer_rules(rules)
            .with_analyzer_rule(Arc::new(MetadataAggregates))
            .with_query_planner(Arc::new(AnsweredPlanner))
            .with_table_factory(FILE_TYPE.to_string(), Arc::new(self))
    }
}

/// [`parse_script`] in the SQL dialect `ctx` is configured with.
pub fn parse_session_script(ctx: &SessionContext, text: &str) -> DfResult<VecDeque<Statement>> {
    let name = ctx
        .state()
        .config()
        .options()
        .sql_parser
        .dialect
        .to_string();
    let dialect = dialect_from_str(&name)
        .ok_or_else(|| DataFusionError::Plan(format!("the SQL dialect {name} is unknown")))?;
    parse_script(text, &*dialect)
}

/// The statements of a script, as `DFParser::parse_sql_with_dialect` reads
/// them, except that `CREATE TABLE t (...) STORED AS TILEDB LOCATION ...`
/// is read as `CREATE EXTERNAL TABLE` (DataFusion's parser takes `STORED
/// AS` only there; sqlparser's CREATE TABLE knows Hive's file formats
/// alone). Such a table is an array as [`TileDbTableFactory`] opens or
/// creates it: a new array where LOCATION holds none.
pub fn parse_script(text: &str, dialect: &dyn Dialect) -> DfResult<VecDeque<Statement>> {
    use datafusion::sql::sqlparser::keywords::Keyword;
    use datafusion::sql::sqlparser::tokenizer::{Token, Tokenizer};
    let Ok(tokens) = Tokenizer::new(dialect, text).tokenize_with_location() else {
        // The parser says what is wrong.
        return DFParser::parse_sql_with_dialect(text, dialect);
    };
    let words: Vec<_> = tokens
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)))
        .collect();
    let mut at = Vec::new();
    for statement in words.split(|t| t.token == Token::SemiColon) {
        let keyword = |i: usize, k: Keyword| matches!(statement.get(i).map(|t| &t.token), Some(Token::Word(w)) if w.keyword == k);
        let tiledb = statement
            .windows(3)
            .any(|w| match (&w[0].token, &w[1].token, &w[2].token) {
                (Token::Word(a), Token::Word(b), Token::Word(c)) => {
                    a.keyword == Keyword::STORED
                        && b.keyword == Keyword::AS
                        && c.quote_style.is_none()
                        && c.value.eq_ignore_ascii_case(FILE_TYPE)
                }
                _ => false,
            });
        if keyword(0, Keyword::CREATE) && keyword(1, Keyword::TABLE) && tiledb {
            let start = statement[1].span.start;
            at.extend(offset(text, start.line, start.column));
        }
    }
    if at.is_empty() {
        return DFParser::parse_sql_with_dialect(text, dialect);
    }
    let mut script = text.to_string();
    for i in at.into_iter().rev() {
        script.insert_str(i, "EXTERNAL ");
    }
    DFParser::parse_sql_with_dialect(&script, dialect)
}

/// Runs a script of SQL statements on `ctx`, as [`SessionContext::sql`]
/// runs one, reading it with [`parse_script`]: `CREATE TABLE t (...)
/// STORED AS TILEDB LOCATION ...` works here (DataFusion's own parser, and
/// so `ctx.sql`, refuses `STORED AS` after a plain `CREATE TABLE`), and
/// statements are `;`-separated. Each statement is planned once the ones
/// before it have run: every statement but the last runs to completion
/// (its result, a count of rows for `INSERT`, is dropped, as `psql -c`
/// keeps the last only); the last one's frame is returned as `ctx.sql`
/// returns it (DDL and DML run when it is collected or has run).
///
/// `ctx` needs the TILEDB file type: a session of [`TileDbTableFactory`]
/// (`STORED AS TILEDB` in a plain session is DataFusion's "unable to find
/// factory" error).
///
/// ```
/// use datafusion::prelude::SessionConfig;
/// use tiledb_codec_sql::{run_script, TileDbTableFactory};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let dir = std::env::temp_dir().join(format!("tiledb-codec-doc-{}", std::process::id()));
/// let path = dir.join("points");
/// let ctx = TileDbTableFactory::default().session(SessionConfig::new());
/// let script = format!(
///     "CREATE TABLE points (x BIGINT NOT NULL, v DOUBLE NOT NULL) STORED AS TILEDB
///        LOCATION '{}' OPTIONS ('dimensions' 'x', 'domain.x' '0:99');
///      INSERT INTO points VALUES (7, 0.5), (3, 1.5);
///      SELECT sum(v) AS s FROM points WHERE x > 5",
///     path.display()
/// );
/// let out = run_script(&ctx, &script).await?.collect().await?;
/// let s = datafusion::arrow::util::pretty::pretty_format_batches(&out)?.to_string();
/// assert!(s.contains("| 0.5 |"), "{s}");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub async fn run_script(ctx: &SessionContext, text: &str) -> DfResult<DataFrame> {
    let mut statements = parse_session_script(ctx, text)?;
    let last = statements
        .pop_back()
        .ok_or_else(|| DataFusionError::Plan("no statement in the script".into()))?;
    for statement in statements {
        let plan = ctx.state().statement_to_plan(statement).await?;
        ctx.execute_logical_plan(plan).await?.collect().await?;
    }
    let plan = ctx.state().statement_to_plan(last).await?;
    ctx.execute_logical_plan(plan).await
}

/// The byte offset of a tokenizer's location (1-based line and column, in
/// characters).
fn offset(text: &str, line: u64, column: u64) -> Option<usize> {
    let start = match line.checked_sub(2) {
        None => 0,
        Some(n) => text.match_indices('\n').nth(usize::try_from(n).ok()?)?.0 + 1,
    };
    let column = usize::try_from(column.checked_sub(1)?).ok()?;
    let rest = &text[start..];
    Some(
        start
            + rest
                .char_indices()
                .nth(column)
                .map_or(rest.len(), |(i, _)| i),
    )
}

/// The options a TILEDB table takes (besides `domain.DIM`, `tile_extent.DIM`).
const OPTIONS: [&str; 6] = [
    "timestamp",
    "encryption_key",
    "dimensions",
    "array_type",
    "allows_duplicates",
    "capacity",
];

/// Creates the array a `CREATE EXTERNAL TABLE t (columns) STORED AS
/// TILEDB LOCATION 'new path' OPTIONS (...)` describes: the columns named
/// by `dimensions` are the dimensions (each with `domain.DIM` 'lo:hi' and
/// optionally `tile_extent.DIM`), the others attributes, nullable unless
/// `NOT NULL`; `array_type` 'sparse' (default) or 'dense'.
fn create(location: &str, cmd: &CreateExternalTable, opts: &OpenOptions) -> Result<(), String> {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::read::DimRange;
    use tiledb_codec::{AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let dims: Vec<&str> = option(cmd, "dimensions")
        .ok_or("a new array needs OPTIONS ('dimensions' 'd1,d2', 'domain.d1' 'lo:hi', ...)")?
        .split(',')
        .map(str::trim)
        .collect();
    let mut builder = match option(cmd, "array_type").unwrap_or("sparse") {
        t if t.eq_ignore_ascii_case("sparse") => SchemaBuilder::sparse(),
        t if t.eq_ignore_ascii_case("dense") => SchemaBuilder::dense(),
        t => return Err(format!("array_type is 'sparse' or 'dense', not {t:?}")),
    };
    if let Some(v) = option(cmd, "allows_duplicates") {
        let yes = v
            .parse::<bool>()
            .map_err(|_| format!("allows_duplicates is true or false, not {v:?}"))?;
        builder = builder.allows_duplicates(yes);
    }
    if let Some(v) = option(cmd, "capacity") {
        let n = v
            .parse::<u64>()
            .map_err(|_| format!("capacity is a number of cells, not {v:?}"))?;
        builder = builder.capacity(n);
    }
    for d in &dims {
        if cmd.schema.field_with_unqualified_name(d).is_err() {
            return Err(format!("the dimension {d:?} is not a column of the table"));
        }
    }
    for field in cmd.schema.fields() {
        let (mut dt, cvn) = tiledb_codec::arrow::tiledb_type(field).map_err(|e| e.to_string())?;
        let name = field.name();
        if dims.contains(&name.as_str()) {
            if dt == Datatype::StringUtf8 {
                // String dimensions are ASCII in TileDB.
                dt = Datatype::StringAscii;
            }
            let mut d = DimensionBuilder::new(name.clone(), dt);
            if dt != Datatype::StringAscii {
                let text = option(cmd, &format!("domain.{name}")).ok_or_else(|| {
                    format!("the dimension {name:?} needs 'domain.{name}' 'lo:hi'")
                })?;
                let r = DimRange::parse(dt, text).map_err(|e| format!("domain.{name}: {e}"))?;
                d = d.domain(r);
                if let Some(e) = option(cmd, &format!("tile_extent.{name}")) {
                    let r =
                        DimRange::parse(dt, e).map_err(|e| format!("tile_extent.{name}: {e}"))?;
                    d = d.tile_extent(r);
                }
            }
            builder = builder.dimension(d);
        } else {
            let mut a = AttributeBuilder::new(name.clone(), dt);
            match cvn {
                None => a = a.var(),
                Some(n) if n > 1 => a = a.cell_val_num(n),
                Some(_) => {}
            }
            if field.is_nullable() {
                a = a.nullable();
            }
            builder = builder.attribute(a);
        }
    }
    let schema = builder.build().map_err(|e| e.to_string())?;
    let create = tiledb_codec::CreateOptions::default()
        .with_encryption_key(opts.read_options().encryption_key().copied());
    Array::create_with(location, &schema, &create)
        .map_err(|e| format!("creating {location:?}: {e}"))?;
    Ok(())
}

/// An option's key as the factory reads it: without the `format.` prefix
/// DataFusion may give it, in lower case.
fn option_key(k: &str) -> String {
    k.strip_prefix("format.").unwrap_or(k).to_ascii_lowercase()
}

/// The value of option `key` of the statement (in any case).
fn option<'a>(cmd: &'a CreateExternalTable, key: &str) -> Option<&'a str> {
    cmd.options
        .iter()
        .find(|(k, _)| option_key(k) == key.to_ascii_lowercase())
        .map(|(_, v)| v.as_str())
}

#[async_trait]
impl TableProviderFactory for TileDbTableFactory {
    async fn create(
        &self,
        _state: &dyn Session,
        cmd: &CreateExternalTable,
    ) -> DfResult<Arc<dyn TableProvider>> {
        let plan = |what: String| DataFusionError::Plan(format!("table {}: {what}", cmd.name));
        let [location] = cmd.locations.as_slice() else {
            return Err(plan("an array is one LOCATION".into()));
        };
        for k in cmd.options.keys() {
            let k = option_key(k);
            let known = OPTIONS.contains(&k.as_str())
                || k.starts_with("domain.")
                || k.starts_with("tile_extent.");
            if !known {
                return Err(plan(format!(
                    "unknown option {k:?} (TILEDB tables take {}, and 'domain.DIM' and \
                     'tile_extent.DIM' for a new array)",
                    OPTIONS.map(|o| format!("'{o}'")).join(", ")
                )));
            }
        }
        let mut opts = OpenOptions::default();
        if let Some(k) = option(cmd, "encryption_key") {
            let key: [u8; 32] = k.as_bytes().try_into().map_err(|_| {
                plan(format!(
                    "an AES-256-GCM key is 32 bytes; this one has {}",
                    k.len()
                ))
            })?;
            opts = opts.with_key(key);
        }
        let new = !location.contains("://") && !std::path::Path::new(location).exists();
        if new && !cmd.schema.fields().is_empty() {
            create(location, cmd, &opts).map_err(plan)?;
        }
        if let Some(t) = option(cmd, "timestamp") {
            let t: u64 = t.parse().map_err(|_| {
                plan(format!(
                    "the timestamp option is milliseconds since 1970, not {t:?}"
                ))
            })?;
            opts = opts.with_timestamp(t);
        }
        let array = (self.open)(location, &opts)
            .map_err(|e| plan(format!("cannot open {location:?} as an array: {e}")))?;
        let table = TileDbTable::new(Arc::new(array))?.with_location(location.clone());
        if !cmd.schema.fields().is_empty() {
            let theirs = table.schema();
            let names: Vec<&String> = cmd.schema.fields().iter().map(|f| f.name()).collect();
            let ours: Vec<&String> = theirs.fields().iter().map(|f| f.name()).collect();
            if names != ours {
                return Err(plan(format!(
                    "the columns given ({}) are not the array's ({})",
                    names
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    ours.iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                )));
            }
        }
        Ok(Arc::new(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::sql::sqlparser::dialect::GenericDialect;

    #[test]
    fn create_table_stored_as_tiledb_reads_as_create_external_table() {
        let script = "SELECT 'CREATE TABLE';\n  create table t (x BIGINT NOT NULL)\n \
                      STORED AS tiledb LOCATION 'a;é' OPTIONS ('dimensions' 'x');\n\
                      CREATE TABLE u AS SELECT 1; CREATE TABLE \"v\" (x INT) STORED AS TILEDB \
                      LOCATION 'b'";
        let statements: Vec<Statement> = parse_script(script, &GenericDialect {}).unwrap().into();
        assert_eq!(statements.len(), 4);
        let Statement::CreateExternalTable(t) = &statements[1] else {
            panic!("{:?}", statements[1]);
        };
        assert_eq!(t.name.to_string(), "t");
        assert_eq!(t.locations, ["a;é"]);
        assert!(matches!(&statements[2], Statement::Statement(_)));
        let Statement::CreateExternalTable(v) = &statements[3] else {
            panic!("{:?}", statements[3]);
        };
        assert_eq!(v.file_type, "TILEDB");
    }
}
