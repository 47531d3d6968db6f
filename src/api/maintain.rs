//! Maintenance through the facade: consolidation, vacuuming, deletes and
//! metadata changes of an opened [`Array`], and its schema as JSON. Each
//! takes the array's path and encryption key from the array; reopen the
//! array to see what changed.

use serde_json::Value;

use super::reader::Condition;
use super::{Array, Error};
use crate::maintain::{self, ConsolidateOptions, DeleteOptions, TimeRange, VacuumOptions};
use crate::model::{MetadataValue, Schema};
use crate::write::MetadataOptions;

/// What [`Array::consolidate`] and [`Array::vacuum`] work on: `fragments`,
/// `fragment_meta`, `commits` or `array_meta` (the engine's
/// `sm.consolidation.mode`; it parses from those names).
pub use crate::maintain::Mode as ConsolidationMode;

impl Array {
    fn key(&self) -> Option<[u8; 32]> {
        self.reader.options().encryption_key
    }

    /// Consolidates what `mode` names, within the timestamp range `at`
    /// (milliseconds, inclusive; `None`: all); returns whether anything was
    /// written (fewer than two fragments to merge: nothing is).
    pub fn consolidate(
        &self,
        mode: ConsolidationMode,
        at: Option<(u64, u64)>,
    ) -> Result<bool, Error> {
        let opts = ConsolidateOptions {
            timestamp: time_range(at),
            encryption_key: self.key(),
            ..ConsolidateOptions::default()
        };
        let report = maintain::consolidate(&self.path, mode, &opts)?;
        Ok(report.written.is_some())
    }

    /// Removes what consolidations of `mode` superseded; returns how many
    /// files and folders were removed.
    pub fn vacuum(&self, mode: ConsolidationMode) -> Result<usize, Error> {
        self.vacuum_at(mode, None)
    }

    /// [`Array::vacuum`] of what was consolidated within the timestamp range
    /// `at` only (milliseconds, inclusive; `None`: all), as the engine's
    /// `sm.vacuum.timestamp_start` and `_end` choose.
    pub fn vacuum_at(
        &self,
        mode: ConsolidationMode,
        at: Option<(u64, u64)>,
    ) -> Result<usize, Error> {
        let opts = VacuumOptions {
            timestamp: time_range(at),
            ..VacuumOptions::default()
        };
        let report = maintain::vacuum(&self.path, mode, &opts)?;
        Ok(report.removed.len())
    }

    /// Deletes the cells for which `condition` holds (a delete commit, as
    /// the engine's `Query` of type DELETE writes it), at `timestamp`
    /// (milliseconds; `None`: now).
    pub fn delete_cells(
        &self,
        condition: impl Into<Condition>,
        timestamp: Option<u64>,
    ) -> Result<(), Error> {
        let condition = condition.into().into_query_condition()?;
        let opts = DeleteOptions {
            timestamp,
            encryption_key: self.key(),
        };
        maintain::delete::delete_cells(&self.path, &condition, &opts)?;
        Ok(())
    }

    /// Sets metadata `key` to `value` at `timestamp` (milliseconds;
    /// `None`: now).
    pub fn put_metadata(
        &self,
        key: &str,
        value: &MetadataValue,
        timestamp: Option<u64>,
    ) -> Result<(), Error> {
        let opts = MetadataOptions {
            timestamp,
            encryption_key: self.key(),
        };
        maintain::meta::put(&self.path, key, value.datatype, &value.bytes, &opts)?;
        Ok(())
    }

    /// Deletes metadata `key` (refused when it is not set).
    pub fn delete_metadata(&self, key: &str, timestamp: Option<u64>) -> Result<(), Error> {
        let opts = MetadataOptions {
            timestamp,
            encryption_key: self.key(),
        };
        maintain::meta::delete(&self.path, key, &opts)?;
        Ok(())
    }

    /// Writes the record batches as one fragment (feature `arrow`): the
    /// columns named as the dimensions and attributes, every dimension
    /// given; a dense array takes the cells of a whole rectangle, each once.
    /// Each cell is checked as the `import` command checks it.
    #[cfg(feature = "arrow")]
    pub fn write_arrow(
        &self,
        batches: impl Iterator<Item = Result<crate::arrow::RecordBatch, arrow_schema::ArrowError>>,
        timestamp: Option<u64>,
    ) -> Result<(), Error> {
        let mut opts = crate::write::ImportOptions::default();
        opts.write.timestamp = timestamp;
        opts.write.encryption_key = self.key();
        let batches = batches.map(|b| b.map_err(crate::arrow::Error::Arrow));
        crate::arrow::write::import_batches(&self.path, None, batches, &opts)?;
        Ok(())
    }
}

impl Schema {
    /// The schema as JSON: the `"schema"` object of `inspect --json`
    /// (names, datatypes, domains, filters, enumerations with their values,
    /// the current domain).
    pub fn to_json(&self) -> Value {
        crate::model::json::schema_to_json(self)
    }

    /// A schema from the JSON [`Schema::to_json`] gives (and `import
    /// --schema` takes); an [`Error::Schema`] naming the part that
    /// is wrong.
    pub fn from_json(json: &Value) -> Result<Schema, Error> {
        crate::model::json::schema_from_json(json).map_err(|e| Error::Schema {
            field: "json".into(),
            what: e.to_string(),
        })
    }
}

/// The timestamp range `at` (milliseconds, inclusive; `None`: all).
fn time_range(at: Option<(u64, u64)>) -> TimeRange {
    at.map_or(TimeRange::ALL, |(start, end)| TimeRange { start, end })
}
