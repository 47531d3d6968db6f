//! `delete` and `delete-fragments`: deletes as the engine performs them
//! (the library's `maintain::delete`).

use std::path::PathBuf;

use crate::out::outln;
use clap::Args;
use tiledb_codec::maintain::{self, DeleteOptions, TimeRange};
use tiledb_codec::raw::read::QueryCondition;

/// `tiledb-codec delete`.
#[derive(Args)]
pub struct DeleteArgs {
    /// A sparse array (format version 16 or later).
    pub array: PathBuf,
    /// The cells to delete, in TileDB-Py's `query(cond=...)` syntax, e.g.
    /// `a > 5 and b == "x"`.
    #[arg(long = "where", value_name = "CONDITION")]
    condition: String,
    /// The delete's timestamp in milliseconds: cells written at or before
    /// it are deleted (default: now, later than every write already there).
    #[arg(long, value_name = "T")]
    timestamp: Option<u64>,
    #[command(flatten)]
    key: super::KeyArg,
}

/// `tiledb-codec delete-fragments`.
#[derive(Args)]
pub struct DeleteFragmentsArgs {
    /// An array.
    pub array: PathBuf,
    /// The fragments whose timestamps lie within T1:T2 (milliseconds, both
    /// inclusive; either end may be left out).
    #[arg(long, value_name = "T1:T2")]
    timestamp: TimeRange,
    /// Print what would be removed, remove nothing.
    #[arg(long)]
    dry_run: bool,
}

/// An error that names the array (once).
fn with_path(array: &std::path::Path, e: impl std::fmt::Display) -> String {
    let msg = e.to_string();
    let path = array.display().to_string();
    if msg.starts_with(&path) {
        msg
    } else {
        format!("{path}: {msg}")
    }
}

/// Writes the delete commit and prints its path.
pub fn run_delete(args: &DeleteArgs) -> Result<(), String> {
    let cond = QueryCondition::parse(&args.condition).map_err(|e| format!("--where: {e}"))?;
    let opts = {
        let mut lit = DeleteOptions::default();
        lit.timestamp = args.timestamp;
        lit.encryption_key = args.key.key()?;
        lit
    };
    let path =
        maintain::delete_cells(&args.array, &cond, &opts).map_err(|e| with_path(&args.array, e))?;
    outln!("wrote the delete commit {}", path.display())?;
    Ok(())
}

/// Removes the fragments and prints what was (or would be) removed.
pub fn run_delete_fragments(args: &DeleteFragmentsArgs) -> Result<(), String> {
    let report = maintain::delete_fragments(&args.array, args.timestamp, args.dry_run)
        .map_err(|e| with_path(&args.array, e))?;
    let verb = if args.dry_run {
        "would remove"
    } else {
        "removed"
    };
    for p in &report.removed {
        outln!("{verb} {}", p.display())?;
    }
    if report.removed.is_empty() {
        outln!("no fragment lies within the range")?;
    }
    Ok(())
}
