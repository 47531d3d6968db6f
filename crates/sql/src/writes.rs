//! What a query may write. SQL over arrays writes only into the arrays a
//! query names, by `INSERT INTO` and `DELETE FROM` (see `dml.rs`): `COPY
//! ... TO`, `CREATE ...`, `UPDATE` and the other statements that write
//! files or change the session are refused, unless the caller names a
//! folder that `COPY ... TO` may write under (never inside an array).

use std::path::{Component, Path, PathBuf};
use tiledb_codec::raw::format::hierarchy;

use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::logical_expr::{DdlStatement, LogicalPlan};

/// Where a query may write files.
#[derive(Debug, Clone, Default)]
pub struct WritePolicy {
    allow_under: Option<PathBuf>,
}

impl WritePolicy {
    /// Nothing written: every statement that writes is refused (the default).
    pub fn read_only() -> Self {
        WritePolicy::default()
    }

    /// `COPY ... TO` may write local files under `dir` (outside every
    /// array); other writing statements are still refused.
    pub fn copy_under(dir: impl Into<PathBuf>) -> Self {
        WritePolicy {
            allow_under: Some(dir.into()),
        }
    }

    /// Checks a planned query: `Err` says what it would write and why that
    /// is refused.
    ///
    /// ```
    /// use datafusion::prelude::SessionContext;
    /// use tiledb_codec_sql::WritePolicy;
    ///
    /// let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let ctx = SessionContext::new();
    /// let copy = "COPY (SELECT 1) TO '/tmp/x.csv' STORED AS CSV";
    /// let plan = rt.block_on(ctx.state().create_logical_plan(copy)).unwrap();
    /// assert!(WritePolicy::read_only().check(&plan).is_err());
    /// ```
    pub fn check(&self, plan: &LogicalPlan) -> Result<(), String> {
        let mut refused = None;
        let _ = plan.apply(|node| {
            let verdict = match node {
                LogicalPlan::Copy(copy) => self.copy_to(&copy.output_url),
                LogicalPlan::Dml(dml) => into_array(dml),
                // Naming an array as a table writes nothing.
                LogicalPlan::Ddl(DdlStatement::CreateExternalTable(t))
                    if t.file_type.eq_ignore_ascii_case(super::FILE_TYPE) =>
                {
                    Ok(())
                }
                LogicalPlan::Ddl(ddl) => Err(format!(
                    "{} is refused: SQL over arrays only reads",
                    ddl.name()
                )),
                LogicalPlan::Statement(s) => Err(format!(
                    "the statement {} is refused: SQL over arrays only reads",
                    s.name()
                )),
                _ => Ok(()),
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

    /// The folder writes are allowed under, if any.
    #[cfg_attr(not(feature = "ballista"), allow(dead_code))]
    pub(crate) fn allowed_dir(&self) -> Option<&Path> {
        self.allow_under.as_deref()
    }

    /// Checks one file or folder a statement writes (a `COPY ... TO`
    /// target, or a sink's output in a physical plan).
    pub(crate) fn copy_to(&self, url: &str) -> Result<(), String> {
        let Some(dir) = &self.allow_under else {
            return Err(format!(
                "COPY ... TO {url:?} is refused: SQL over arrays only reads unless told \
                 where it may write (the sql command's --allow-write DIR)"
            ));
        };
        let local = url.strip_prefix("file://").unwrap_or(url);
        if local.contains("://") {
            return Err(format!(
                "COPY ... TO {url:?} is refused: only local files under {} may be written",
                dir.display()
            ));
        }
        let target = absolute(Path::new(local))?;
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        if !target.starts_with(&dir) {
            return Err(format!(
                "COPY ... TO {url:?} is refused: it is not under {}, the folder writes are allowed in",
                dir.display()
            ));
        }
        // Never into an array (or a group): a file there makes the engine
        // refuse the array.
        for a in target.ancestors() {
            if is_tiledb_object(a) {
                return Err(format!(
                    "COPY ... TO {url:?} is refused: {} is a TileDB array or group",
                    a.display()
                ));
            }
        }
        Ok(())
    }
}

/// `path` made absolute with `..` and `.` resolved and links followed as
/// far as it exists (the rest may not exist yet).
fn absolute(path: &Path) -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?;
    let joined = cwd.join(path);
    // The longest existing ancestor, resolved; the rest appended.
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(p), Some(n)) => {
                rest.push(n.to_os_string());
                existing = p;
            }
            _ => break,
        }
    }
    let mut out = existing
        .canonicalize()
        .map_err(|e| format!("{}: {e}", existing.display()))?;
    for n in rest.iter().rev() {
        match Path::new(n).components().next() {
            Some(Component::ParentDir) => {
                out.pop();
            }
            Some(Component::CurDir) => {}
            _ => out.push(n),
        }
    }
    Ok(out)
}

/// A folder holding an array or a group (`__schema`, `__array_schema.tdb`,
/// `__group`, `__tiledb_group.tdb`).
fn is_tiledb_object(dir: &Path) -> bool {
    [
        hierarchy::SCHEMA,
        hierarchy::LEGACY_SCHEMA,
        hierarchy::GROUP,
        hierarchy::GROUP_MARKER,
    ]
    .iter()
    .any(|n| dir.join(n).exists())
}

/// `INSERT INTO` and `DELETE FROM` an array write what the statement says
/// into the array it names (see `dml.rs`); every other data change, and
/// either into a table that is no array, is refused.
fn into_array(dml: &datafusion::logical_expr::DmlStatement) -> Result<(), String> {
    use datafusion::logical_expr::WriteOp;
    let is_array = datafusion::datasource::source_as_provider(&dml.target)
        .is_ok_and(|p| p.downcast_ref::<super::TileDbTable>().is_some());
    match &dml.op {
        WriteOp::Insert(_) | WriteOp::Delete if is_array => Ok(()),
        op => Err(format!(
            "{op} on {} is refused: SQL writes only INSERT INTO and DELETE FROM arrays",
            dml.table_name
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(sql: &str) -> LogicalPlan {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let ctx = datafusion::prelude::SessionContext::new();
        rt.block_on(ctx.state().create_logical_plan(sql)).unwrap()
    }

    #[test]
    fn writes_are_refused_unless_under_the_allowed_folder_and_outside_arrays() {
        let tmp = std::env::temp_dir().join(format!("tiledb-codec-writes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(tmp.join("out")).unwrap();
        std::fs::create_dir_all(tmp.join("arr/__schema")).unwrap();
        let copy = |to: &Path| format!("COPY (SELECT 1 AS x) TO '{}' STORED AS CSV", to.display());
        let read = plan("SELECT 1");
        assert!(WritePolicy::read_only().check(&read).is_ok());
        let to_out = plan(&copy(&tmp.join("out/x.csv")));
        let err = WritePolicy::read_only().check(&to_out).unwrap_err();
        assert!(err.contains("--allow-write"), "{err}");
        let allowed = WritePolicy::copy_under(tmp.join("out"));
        assert!(allowed.check(&to_out).is_ok());
        // Outside the folder, by `..` too.
        let escape = plan(&copy(&tmp.join("out/../x.csv")));
        assert!(allowed.check(&escape).unwrap_err().contains("not under"));
        // Inside an array, even when the array is under the folder.
        let all = WritePolicy::copy_under(&tmp);
        let into_array = plan(&copy(&tmp.join("arr/__meta/x.csv")));
        let err = all.check(&into_array).unwrap_err();
        assert!(err.contains("TileDB array"), "{err}");
        // Other writing statements are refused whatever the policy.
        let ddl = plan("CREATE TABLE t AS SELECT 1");
        assert!(all.check(&ddl).is_err());
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
