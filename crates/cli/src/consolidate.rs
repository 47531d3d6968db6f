//! `consolidate` and `vacuum`: fragment consolidation and vacuuming
//! (`tiledb_codec::maintain`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::out::outln;
use crate::progress::Bars;
use clap::{Args, ValueEnum};
use tiledb_codec::maintain::{self, ConsolidateOptions, TimeRange, VacuumOptions};

/// What to consolidate or vacuum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Fragments: merged into one (consolidate); the merged ones removed
    /// (vacuum).
    #[default]
    Fragments,
    /// Fragment metadata: every fragment's footer in one `.meta` file
    /// (consolidate); the older `.meta` files removed (vacuum).
    #[value(name = "fragment_meta")]
    FragmentMeta,
    /// Commits: the commit files listed in one `.con` file (consolidate);
    /// the listed commit files removed (vacuum).
    Commits,
    /// Array metadata: merged into one file (consolidate); the merged files
    /// removed (vacuum).
    #[value(name = "array_meta")]
    ArrayMeta,
}

impl Mode {
    fn library(self) -> maintain::Mode {
        match self {
            Mode::Fragments => maintain::Mode::Fragments,
            Mode::FragmentMeta => maintain::Mode::FragmentMeta,
            Mode::Commits => maintain::Mode::Commits,
            Mode::ArrayMeta => maintain::Mode::ArrayMeta,
        }
    }
}

/// `tiledb-codec consolidate`.
#[derive(Args)]
pub struct ConsolidateArgs {
    /// The array folder.
    pub array: PathBuf,
    /// What to consolidate.
    #[arg(long, value_enum, default_value = "fragments")]
    mode: Mode,
    /// Only what was written in T1:T2 (milliseconds since 1970, inclusive;
    /// either end may be left out).
    #[arg(long, value_name = "T1:T2")]
    timestamp: Option<TimeRange>,
    /// Bytes of cells held in memory at once.
    #[arg(long, value_name = "BYTES")]
    memory_budget: Option<usize>,
    /// Sparse fragments: leave out the cells deletes removed, rather than
    /// keep them with the time of their delete (the engine's
    /// `sm.consolidation.purge_deleted_cells`); reads at earlier times no
    /// longer see them.
    #[arg(long)]
    purge_deleted_cells: bool,
    #[command(flatten)]
    key: super::KeyArg,
}

/// `tiledb-codec vacuum`.
#[derive(Args)]
pub struct VacuumArgs {
    /// The array folder.
    pub array: PathBuf,
    /// What to vacuum.
    #[arg(long, value_enum, default_value = "fragments")]
    mode: Mode,
    /// Only what was consolidated in T1:T2 (milliseconds since 1970,
    /// inclusive; either end may be left out).
    #[arg(long, value_name = "T1:T2")]
    timestamp: Option<TimeRange>,
    /// Print what would be removed, one path per line; remove nothing.
    #[arg(long)]
    dry_run: bool,
    /// Take uncommitted work (fragment folders without a commit, writers'
    /// temporaries) unchanged for this long for abandoned and remove it
    /// (500ms, 30s, 10m...; default 10m).
    #[arg(long, value_name = "DURATION", value_parser = abandoned_after)]
    abandoned_after: Option<std::time::Duration>,
}

fn abandoned_after(s: &str) -> Result<std::time::Duration, String> {
    tiledb_codec::raw::storage::limits::parse_duration(s)
        .ok_or_else(|| format!("{s:?} is not a duration (500ms, 30s, 10m)"))
}

/// Runs `consolidate`.
pub fn run_consolidate(a: ConsolidateArgs, bars: Arc<Bars>) -> Result<(), String> {
    let mut opts = {
        let mut lit = ConsolidateOptions::default();
        lit.timestamp = a.timestamp.unwrap_or(TimeRange::ALL);
        lit.encryption_key = a.key.key()?;
        lit.purge_deleted_cells = a.purge_deleted_cells;
        lit.progress = bars;
        lit
    };
    if let Some(b) = a.memory_budget {
        opts.memory_budget = b;
    }
    let r = maintain::consolidate(&a.array, a.mode.library(), &opts)
        .map_err(|e| format!("{}: {e}", a.array.display()))?;
    let what = match a.mode {
        Mode::Fragments => "fragments",
        Mode::FragmentMeta => "fragment footers",
        Mode::Commits => "commit files",
        Mode::ArrayMeta => "array metadata files",
    };
    match &r.written {
        Some(w) => outln!(
            "consolidated {} {what} into {}",
            r.consolidated.len(),
            w.display()
        )?,
        None if !r.consolidated.is_empty() => outln!(
            "consolidated {} {what}: nothing left to keep, {} listed for vacuuming",
            r.consolidated.len(),
            r.consolidated.len()
        )?,
        None => outln!("nothing to consolidate")?,
    }
    Ok(())
}

/// Runs `vacuum`.
pub fn run_vacuum(a: VacuumArgs, bars: Arc<Bars>) -> Result<(), String> {
    let opts = {
        let mut lit = VacuumOptions::default();
        lit.timestamp = a.timestamp.unwrap_or(TimeRange::ALL);
        lit.dry_run = a.dry_run;
        lit.abandoned_after = a
            .abandoned_after
            .unwrap_or(tiledb_codec::maintain::ABANDONED_AFTER);
        lit.progress = bars;
        lit
    };
    let r = maintain::vacuum(&a.array, a.mode.library(), &opts)
        .map_err(|e| format!("{}: {e}", a.array.display()))?;
    if a.dry_run {
        for p in &r.removed {
            outln!("{}", p.display())?;
        }
    } else {
        outln!("removed {} files and folders", r.removed.len())?;
    }
    Ok(())
}
