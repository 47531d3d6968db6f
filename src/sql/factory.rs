//! `CREATE EXTERNAL TABLE t STORED AS TILEDB LOCATION 'path or URL'`: a
//! session names an array as a table, with options for the encryption key
//! and a timestamp.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::catalog::{Session, TableProviderFactory};
use datafusion::common::{DataFusionError, Result as DfResult};
use datafusion::datasource::TableProvider;
use datafusion::execution::SessionStateBuilder;
use datafusion::logical_expr::CreateExternalTable;
use datafusion::prelude::{SessionConfig, SessionContext};

use super::TileDbTable;
use crate::api::Array;
use crate::ReadOptions;

/// The file type `CREATE EXTERNAL TABLE ... STORED AS` names arrays by.
pub const FILE_TYPE: &str = "TILEDB";

/// How the factory opens an array: the location as written, and the read
/// options (with the `encryption_key` option's key).
pub type OpenArray = dyn Fn(&str, &ReadOptions) -> Result<Array, Box<dyn std::error::Error + Send + Sync>>
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
/// use tiledb_codec::sql::TileDbTableFactory;
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
        Self::with_opener(|location, opts| Ok(Array::open_with(location, opts)?))
    }
}

impl TileDbTableFactory {
    /// A factory whose arrays `open` opens (URLs of object stores, a key
    /// the caller holds).
    pub fn with_opener(
        open: impl Fn(&str, &ReadOptions) -> Result<Array, Box<dyn std::error::Error + Send + Sync>>
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
        let state = SessionStateBuilder::new()
            .with_config(config)
            .with_default_features()
            .with_table_factory(FILE_TYPE.to_string(), Arc::new(self))
            .build();
        SessionContext::new_with_state(state)
    }
}

fn option<'a>(cmd: &'a CreateExternalTable, key: &str) -> Option<&'a str> {
    cmd.options
        .iter()
        .find(|(k, _)| {
            let k = k.strip_prefix("format.").unwrap_or(k);
            k.eq_ignore_ascii_case(key)
        })
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
            let k = k.strip_prefix("format.").unwrap_or(k);
            if !["timestamp", "encryption_key"]
                .iter()
                .any(|o| k.eq_ignore_ascii_case(o))
            {
                return Err(plan(format!(
                    "unknown option {k:?} (TILEDB tables take 'timestamp' and 'encryption_key')"
                )));
            }
        }
        let mut opts = ReadOptions::default();
        if let Some(k) = option(cmd, "encryption_key") {
            let key: [u8; 32] = k.as_bytes().try_into().map_err(|_| {
                plan(format!(
                    "an AES-256-GCM key is 32 bytes; this one has {}",
                    k.len()
                ))
            })?;
            opts.encryption_key = Some(key);
        }
        let array = (self.open)(location, &opts)
            .map_err(|e| plan(format!("cannot open {location:?} as an array: {e}")))?;
        let array = match option(cmd, "timestamp") {
            None => array,
            Some(t) => {
                let t: u64 = t.parse().map_err(|_| {
                    plan(format!(
                        "the timestamp option is milliseconds since 1970, not {t:?}"
                    ))
                })?;
                array
                    .at(..=t)
                    .map_err(|e| plan(format!("{location:?} at {t}: {e}")))?
            }
        };
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
