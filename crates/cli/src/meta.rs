//! `meta PATH put|delete|list`: the metadata of an array or a group.

use std::path::{Path, PathBuf};

use crate::out::outln;
use clap::{Args, Subcommand};
use tiledb_codec::maintain::{self, MetadataOptions};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::summary::{escape_controls, format_values};

/// The metadata of an array or group.
#[derive(Args)]
pub struct MetaArgs {
    /// An array or group folder.
    pub(crate) path: PathBuf,
    #[command(subcommand)]
    action: MetaAction,
    #[command(flatten)]
    key: super::KeyArg,
    /// The timestamp of the change, in milliseconds since 1970 (default:
    /// now, later than every metadata file there).
    #[arg(long, global = true, value_name = "T")]
    timestamp: Option<u64>,
}

#[derive(Subcommand)]
enum MetaAction {
    /// Set KEY to VALUE: numbers (several separated by commas), text for
    /// the string types, hex for BLOB, integers for the date and time types.
    Put {
        key: String,
        /// The value(s); may begin with `-`.
        #[arg(allow_hyphen_values = true)]
        value: String,
        /// The values' datatype (INT32, FLOAT64, STRING_UTF8, BLOB,
        /// DATETIME_MS...).
        #[arg(long = "type", value_name = "DATATYPE")]
        datatype: String,
    },
    /// Delete KEY (refused when it is not set).
    Delete { key: String },
    /// Print every key: `key (DATATYPE) = value`.
    List {
        /// Print JSON: each key's datatype and value(s).
        #[arg(long)]
        json: bool,
    },
}

fn shown(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

/// Runs a `meta` (or `group meta`) command.
impl MetaArgs {
    /// Whether the command writes (put, delete) rather than lists.
    pub(crate) fn writes(&self) -> bool {
        !matches!(self.action, MetaAction::List { .. })
    }
}

pub fn run(args: &MetaArgs) -> Result<(), String> {
    let path = &args.path;
    let key = args.key.key()?;
    let opts = {
        let mut lit = MetadataOptions::default();
        lit.timestamp = args.timestamp;
        lit.encryption_key = key;
        lit
    };
    match &args.action {
        MetaAction::Put {
            key,
            value,
            datatype,
        } => {
            let dt = maintain::parse_datatype(datatype)
                .ok_or_else(|| format!("--type {datatype}: not a TileDB datatype"))?;
            let bytes =
                maintain::parse_metadata_value(dt, value).map_err(|e| format!("{key}: {e}"))?;
            let file =
                maintain::put_metadata(path, key, dt, &bytes, &opts).map_err(|e| e.to_string())?;
            outln!(
                "{}: put {} ({}) = {} in {}",
                path.display(),
                escape_controls(key),
                dt.name(),
                format_values(dt, &bytes),
                shown(path, &file)
            )?;
        }
        MetaAction::Delete { key } => {
            let file = maintain::delete_metadata(path, key, &opts).map_err(|e| e.to_string())?;
            outln!(
                "{}: deleted {} in {}",
                path.display(),
                escape_controls(key),
                shown(path, &file)
            )?;
        }
        MetaAction::List { json } => {
            let read = ReadOptions::default().with_encryption_key(key);
            let md = maintain::read_metadata(path, &read).map_err(|e| e.to_string())?;
            if *json {
                let obj: serde_json::Map<String, serde_json::Value> = md
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            serde_json::json!({
                                "datatype": v.datatype.name(),
                                "value": tiledb_codec_cli::inspect::metadata_value(v),
                            }),
                        )
                    })
                    .collect();
                crate::out::json(&serde_json::Value::Object(obj))?;
            } else {
                for (k, v) in &md {
                    outln!(
                        "{} ({}) = {}",
                        escape_controls(k),
                        v.datatype.name(),
                        format_values(v.datatype, &v.bytes)
                    )?;
                }
            }
        }
    }
    Ok(())
}
