//! Schema evolution, as the engine's `ArraySchemaEvolution` does it
//! (tiledb/sm/array_schema/array_schema_evolution.cc, array.cc
//! `evolve_array_schema`, array_schema_operations.cc `store_array_schema`).
//!
//! An evolution writes a new schema file `__schema/<t>_<t>_<uuid>` (and a
//! file in `__schema/__enumerations` for each enumeration added or
//! extended); nothing else changes. Fragments keep the schema they were
//! written with (their footer names it) and are read through the newest:
//! an added attribute reads as its fill value in older fragments, a dropped
//! one is gone.
//!
//! The changes are applied in the engine's order, with the engine's rules:
//!
//! 1. enumerations are added (a name the schema has is refused; values must
//!    be distinct);
//! 2. enumerations are extended: the values are appended, each must be new,
//!    and the extended enumeration gets a new file (`__<uuid>_0`) which the
//!    schema's enumeration path map then names; the old file stays;
//! 3. attributes are added: an attribute with an enumeration must have an
//!    integer type (`BOOL`, `INT8` to `UINT64`; not dates), one value per
//!    cell, and a type whose maximum exceeds the enumeration's value count;
//! 4. attributes are dropped (a dimension or unknown name is refused);
//! 5. enumerations are dropped: an unknown name is ignored, one still used
//!    by an attribute is refused; its file stays;
//! 6. the current domain is expanded: every dimension gets a range, each
//!    covering the one it had and inside the dimension's domain;
//! 7. the result is checked: unique names, and a dense array keeps at
//!    least one attribute (a sparse one may have none).
//!
//! Within one evolution the later of adding and dropping an attribute of
//! one name wins (as the engine's), and dropping an enumeration cancels
//! adding or extending it. The new schema is written in format version 22
//! (the engine always writes its own version), whatever the array's
//! version; enumeration files are written first and the schema last, each
//! under a temporary name in `__schema/__enumerations` (a folder the engine
//! never lists) and renamed into place, synced, so that a reader sees the
//! whole evolution or none of it.
//!
//! Where this crate is stricter than the engine: an extension without
//! values is refused (the engine accepts one for fixed-size enumerations
//! and writes an identical copy), and without a timestamp the new schema is
//! stamped strictly after every schema already there (the engine takes the
//! clock, so two evolutions within a millisecond have no order). An added
//! enumeration always gets a fresh file name (`"filename"` of its JSON is
//! ignored), as an enumeration made with TileDB-Py does.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::format::hierarchy;
use crate::format::{encode, with_native};
use crate::model::{
    Attribute, CellValNum, CurrentDomain, Datatype, DomainRange, Enumeration, Filter, Schema,
};
use crate::write::generic::generic_tile;
use crate::write::{util, WriteError, WriteResult, FORMAT_VERSION};
use crate::ReadOptions;

/// A set of changes to an array's schema, applied together by [`evolve`](fn@super::evolve).
///
/// Built call by call, like the engine's `ArraySchemaEvolution`: what one
/// call cannot accept (an attribute added twice, an enumeration extended
/// twice) is reported by [`evolve`](fn@super::evolve), which then writes nothing.
#[derive(Debug, Clone, Default)]
pub struct SchemaEvolution {
    attributes_to_add: Vec<Attribute>,
    attributes_to_drop: BTreeSet<String>,
    enumerations_to_add: Vec<Enumeration>,
    enumerations_to_extend: Vec<(String, Vec<Vec<u8>>)>,
    enumerations_to_drop: BTreeSet<String>,
    current_domain: Vec<(String, DomainRange)>,
    refused: Vec<String>,
}

/// How to evolve.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct EvolveOptions {
    /// The timestamp of the new schema (milliseconds); default: now, and
    /// later than every schema already there.
    pub timestamp: Option<u64>,
    /// The key of an AES-256-GCM encrypted array: the schema is read with
    /// it, and the new schema and enumeration files are encrypted with it.
    pub encryption_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for EvolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("EvolveOptions")
            .field("timestamp", &self.timestamp)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

impl SchemaEvolution {
    /// No changes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an attribute (it cancels an earlier [`Self::drop_attribute`] of
    /// its name).
    pub fn add_attribute(&mut self, attribute: Attribute) -> &mut Self {
        if self
            .attributes_to_add
            .iter()
            .any(|a| a.name == attribute.name)
        {
            self.refused.push(format!(
                "cannot add attribute {:?} twice in one evolution",
                attribute.name
            ));
            return self;
        }
        self.attributes_to_drop.remove(&attribute.name);
        self.attributes_to_add.push(attribute);
        self
    }

    /// Drops the attribute `name` (it cancels an earlier
    /// [`Self::add_attribute`] of that name).
    pub fn drop_attribute(&mut self, name: impl Into<String>) -> &mut Self {
        let name = name.into();
        self.attributes_to_add.retain(|a| a.name != name);
        self.attributes_to_drop.insert(name);
        self
    }

    /// Adds an enumeration. It gets a fresh file name, whatever its
    /// `path_name`.
    pub fn add_enumeration(&mut self, enumeration: Enumeration) -> &mut Self {
        if self
            .enumerations_to_add
            .iter()
            .any(|e| e.name == enumeration.name)
        {
            self.refused.push(format!(
                "cannot add enumeration {:?} twice in one evolution",
                enumeration.name
            ));
            return self;
        }
        self.enumerations_to_add.push(enumeration);
        self
    }

    /// Appends `values` (each as its bytes: a string's bytes, a number's
    /// little-endian bytes) to the array's enumeration `name`.
    pub fn extend_enumeration(
        &mut self,
        name: impl Into<String>,
        values: Vec<Vec<u8>>,
    ) -> &mut Self {
        let name = name.into();
        if self.enumerations_to_extend.iter().any(|(n, _)| *n == name) {
            self.refused.push(format!(
                "cannot extend enumeration {name:?} twice in one evolution"
            ));
            return self;
        }
        self.enumerations_to_extend.push((name, values));
        self
    }

    /// Drops the enumeration `name` (it cancels adding or extending it in
    /// this evolution). An enumeration the schema does not have is ignored,
    /// as the engine ignores it.
    pub fn drop_enumeration(&mut self, name: impl Into<String>) -> &mut Self {
        let name = name.into();
        self.enumerations_to_add.retain(|e| e.name != name);
        self.enumerations_to_extend.retain(|(n, _)| *n != name);
        self.enumerations_to_drop.insert(name);
        self
    }

    /// Sets the current domain of dimension `dim` to `range` (format 22 on;
    /// only an expansion is accepted). Dimensions not named keep their
    /// current range; where the current domain is empty, every dimension
    /// must be named.
    pub fn expand_current_domain(
        &mut self,
        dim: impl Into<String>,
        range: DomainRange,
    ) -> &mut Self {
        let dim = dim.into();
        self.current_domain.retain(|(d, _)| *d != dim);
        self.current_domain.push((dim, range));
        self
    }

    /// Whether the evolution changes nothing.
    pub fn is_empty(&self) -> bool {
        self.attributes_to_add.is_empty()
            && self.attributes_to_drop.is_empty()
            && self.enumerations_to_add.is_empty()
            && self.enumerations_to_extend.is_empty()
            && self.enumerations_to_drop.is_empty()
            && self.current_domain.is_empty()
            && self.refused.is_empty()
    }
}

fn refuse(what: impl Into<String>) -> WriteError {
    WriteError::Evolution(what.into())
}

/// `datatype_max_integral_value` of the engine (BOOL as UINT8).
fn max_integral(dt: Datatype) -> u64 {
    with_native!(int dt, T => T::MAX as u64, _ => 0)
}

/// Checks an enumeration's values as the engine's `Enumeration` does:
/// each of the cell size where fixed, none twice.
fn check_values(e: &Enumeration) -> WriteResult<()> {
    if let CellValNum::Fixed(n) = e.cell_val_num {
        let size = u64::from(n.get()) * e.datatype.size();
        if let Some(v) = e.values.iter().find(|v| v.len() as u64 != size) {
            return Err(refuse(format!(
                "enumeration {:?}: a value of {} bytes, a value of {n} {} takes {size}",
                e.name,
                v.len(),
                e.datatype.name()
            )));
        }
    }
    let mut seen = BTreeSet::new();
    for v in &e.values {
        if !seen.insert(v.as_slice()) {
            return Err(refuse(format!(
                "enumeration {:?}: the value {} is there twice",
                e.name,
                show(e.datatype, v)
            )));
        }
    }
    Ok(())
}

fn show(dt: Datatype, v: &[u8]) -> String {
    crate::model::value::cell(dt, v).to_string()
}

fn fresh_enumeration_file() -> String {
    format!("__{}_0", util::random_label())
}

/// `a` lies within `b` (both ranges of one dimension).
fn covered(a: &DomainRange, b: &DomainRange) -> bool {
    if let (Some(x), Some(y)) = (a.as_i128(), b.as_i128()) {
        return y.start <= x.start && x.end <= y.end;
    }
    if let (DomainRange::Bytes(x), DomainRange::Bytes(y)) = (a, b) {
        return y.start <= x.start && x.end <= y.end;
    }
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => y.start <= x.start && x.end <= y.end,
        _ => false,
    }
}

fn is_empty_range(r: &DomainRange) -> bool {
    if let Some(x) = r.as_i128() {
        return x.start > x.end;
    }
    if let DomainRange::Bytes(x) = r {
        return x.start > x.end;
    }
    match r.as_f64() {
        Some(x) => x.start.is_nan() || x.end.is_nan() || x.start > x.end,
        None => true,
    }
}

/// The schema `schema` becomes under `evolution`, by the engine's rules
/// (see the module docs); `schema` must carry its enumerations' values.
/// New and extended enumerations get fresh file names; the result's
/// version is the one this crate writes (22).
pub fn evolve_schema(schema: &Schema, evolution: &SchemaEvolution) -> WriteResult<Schema> {
    if let Some(r) = evolution.refused.first() {
        return Err(refuse(r.clone()));
    }
    let mut s = schema.clone();
    // 1. Enumerations added.
    for e in &evolution.enumerations_to_add {
        if e.name.is_empty() {
            return Err(refuse("an enumeration needs a name"));
        }
        if s.enumeration(&e.name).is_some() {
            return Err(refuse(format!(
                "cannot add enumeration {:?}: the schema already has one of that name",
                e.name
            )));
        }
        let mut e = e.clone();
        e.path_name = fresh_enumeration_file();
        check_values(&e)?;
        s.enumerations.push(e);
    }
    // 2. Enumerations extended (only those the array had: the engine loads
    // the enumeration to extend from the array).
    for (name, values) in &evolution.enumerations_to_extend {
        if schema.enumeration(name).is_none() {
            return Err(refuse(format!(
                "cannot extend enumeration {name:?}: the array has no enumeration of that name"
            )));
        }
        if values.is_empty() {
            return Err(refuse(format!(
                "cannot extend enumeration {name:?}: no values given"
            )));
        }
        let Some(e) = s.enumerations.iter_mut().find(|e| e.name == *name) else {
            continue;
        };
        let mut extended = e.clone();
        extended.values.extend(values.iter().cloned());
        extended.path_name = fresh_enumeration_file();
        check_values(&extended)?;
        *e = extended;
    }
    // 3. Attributes added.
    for a in &evolution.attributes_to_add {
        if let Some(en) = &a.enumeration {
            let Some(e) = s.enumeration(en) else {
                return Err(refuse(format!(
                    "cannot add attribute {:?}: it refers to an unknown enumeration {en:?}",
                    a.name
                )));
            };
            if !a.datatype.is_integer() {
                return Err(refuse(format!(
                    "cannot use enumeration {en:?} with attribute {:?}: the attribute must \
                     have an integer type, not {}",
                    a.name,
                    a.datatype.name()
                )));
            }
            if a.cell_val_num != CellValNum::single() {
                return Err(refuse(format!(
                    "cannot add attribute {:?}: an attribute with an enumeration holds one \
                     value per cell",
                    a.name
                )));
            }
            if max_integral(a.datatype) <= e.values.len() as u64 {
                return Err(refuse(format!(
                    "cannot use enumeration {en:?} with attribute {:?}: {} cannot index \
                     all {} values",
                    a.name,
                    a.datatype.name(),
                    e.values.len()
                )));
            }
        }
        if a.filters.iter().any(|f| matches!(f, Filter::Webp { .. }))
            && (a.datatype != Datatype::Uint8
                || s.array_type != crate::model::ArrayType::Dense
                || s.dimensions.len() != 2)
        {
            return Err(refuse(format!(
                "cannot add attribute {:?}: the WEBP filter takes UINT8 attributes of dense \
                 arrays of two dimensions",
                a.name
            )));
        }
        s.attributes.push(a.clone());
    }
    // 4. Attributes dropped.
    for name in &evolution.attributes_to_drop {
        let before = s.attributes.len();
        s.attributes.retain(|a| a.name != *name);
        if s.attributes.len() == before {
            return Err(refuse(format!(
                "cannot drop attribute {name:?}: the name refers to a dimension or no attribute"
            )));
        }
    }
    // 5. Enumerations dropped (unknown ones ignored).
    for name in &evolution.enumerations_to_drop {
        if s.enumeration(name).is_none() {
            continue;
        }
        if let Some(a) = s
            .attributes
            .iter()
            .find(|a| a.enumeration.as_deref() == Some(name.as_str()))
        {
            return Err(refuse(format!(
                "cannot drop enumeration {name:?}: attribute {:?} uses it",
                a.name
            )));
        }
        s.enumerations.retain(|e| e.name != *name);
    }
    // 6. The current domain expanded.
    if !evolution.current_domain.is_empty() {
        expand_current_domain(&mut s, &evolution.current_domain)?;
    }
    // 7. The checks of the whole.
    let mut names = BTreeSet::new();
    let all = s
        .dimensions
        .iter()
        .map(|d| &d.name)
        .chain(s.attributes.iter().map(|a| &a.name))
        .chain(s.dimension_labels.iter().map(|l| &l.name));
    for n in all {
        if !names.insert(n) {
            return Err(refuse(format!(
                "attributes, dimensions and dimension labels must have unique names: \
                 {n:?} is there twice"
            )));
        }
    }
    if s.array_type == crate::model::ArrayType::Dense && s.attributes.is_empty() {
        return Err(refuse("a dense array needs at least one attribute"));
    }
    s.version = FORMAT_VERSION;
    // The engine loads a dimension without filters of its own with the
    // coordinate filters (ArraySchema::deserialize) and so writes them as
    // the dimension's when it stores the evolved schema.
    if !s.coords_filters.is_empty() {
        for d in &mut s.dimensions {
            if d.filters.as_ref().is_none_or(|f| f.is_empty()) {
                d.filters = Some(s.coords_filters.clone());
            }
        }
    }
    // What the writer cannot lay out (a fill value of the wrong size, a
    // filter the datatype does not take) is refused before anything is
    // written.
    s.to_table(FORMAT_VERSION)?;
    Ok(s)
}

fn expand_current_domain(s: &mut Schema, given: &[(String, DomainRange)]) -> WriteResult<()> {
    for (name, _) in given {
        if s.dimension(name).is_none() {
            return Err(refuse(format!(
                "cannot expand the current domain: the array has no dimension {name:?}"
            )));
        }
    }
    let old = match &s.current_domain {
        Some(CurrentDomain::NdRectangle(r)) => Some(r.clone()),
        _ => None,
    };
    let mut ranges = Vec::with_capacity(s.dimensions.len());
    for (i, d) in s.dimensions.iter().enumerate() {
        let new = given.iter().find(|(n, _)| *n == d.name).map(|(_, r)| r);
        let old_r = old.as_ref().and_then(|o| o.get(i));
        let r = match (new, old_r) {
            (Some(r), _) => r.clone(),
            (None, Some(o)) => o.clone(),
            (None, None) => {
                return Err(refuse(format!(
                    "cannot expand the current domain: it is empty, so every dimension needs \
                     a range, and {:?} has none",
                    d.name
                )))
            }
        };
        if !r.is_of(d.datatype, d.cell_val_num.is_var()) {
            return Err(refuse(format!(
                "cannot expand the current domain: the range of {:?} is not of its datatype {}",
                d.name,
                d.datatype.name()
            )));
        }
        if is_empty_range(&r) {
            return Err(refuse(format!(
                "cannot expand the current domain: the range of {:?} ends before it starts",
                d.name
            )));
        }
        if let Some(o) = old_r {
            if !covered(o, &r) {
                return Err(refuse(format!(
                    "the current domain can only be expanded: the new range of {:?} does not \
                     cover the current one",
                    d.name
                )));
            }
        }
        if let Some(dom) = &d.domain {
            if !covered(&r, dom) {
                return Err(refuse(format!(
                    "cannot expand the current domain: the range of {:?} lies outside the \
                     dimension's domain",
                    d.name
                )));
            }
        }
        ranges.push(r);
    }
    s.current_domain = Some(CurrentDomain::NdRectangle(ranges));
    Ok(())
}

/// The latest schema of the array at `array`, with its enumerations' values.
pub fn latest_schema(array: &Path, opts: &ReadOptions) -> WriteResult<Schema> {
    let dir = crate::array::ArrayDirectory::open(array)?;
    let path = dir.latest_schema().ok_or_else(|| WriteError::Array {
        path: array.to_path_buf(),
        what: "is not an array (no schema)".into(),
    })?;
    let table = crate::array::schema::read_schema(&path, opts)?;
    Ok(crate::array::schema::read_typed_schema(
        &crate::storage::LocalStorage,
        array,
        &table,
        &path,
        opts,
    )?)
}

/// Evolves the schema of the array at `array`: writes the new schema file
/// (and the files of added and extended enumerations) and returns the new
/// schema's path. A change the engine refuses is refused here with
/// [`WriteError::Evolution`], and then nothing is written.
pub fn evolve(
    array: &Path,
    evolution: &SchemaEvolution,
    opts: &EvolveOptions,
) -> WriteResult<PathBuf> {
    if evolution.is_empty() {
        return Err(refuse("nothing to change"));
    }
    let ropts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    let old = latest_schema(array, &ropts)?;
    let new = evolve_schema(&old, evolution)?;
    let table = new.to_table(FORMAT_VERSION)?;
    let key = opts.encryption_key;
    let schema_dir = array.join(hierarchy::SCHEMA);
    let enum_dir = schema_dir.join(hierarchy::ENUMERATIONS);
    // Arrays before version 10 have no `__schema`, before 20 no
    // `__enumerations`: the engine makes them.
    util::create_dir(&enum_dir)?;
    let fresh: Vec<&Enumeration> = new
        .enumerations
        .iter()
        .filter(|e| !old.enumerations.iter().any(|o| o.path_name == e.path_name))
        .collect();
    let mut written = Vec::new();
    let result = (|| -> WriteResult<PathBuf> {
        for e in &fresh {
            let bytes = generic_tile(&encode(&e.to_table())?, FORMAT_VERSION, key)?;
            let target = enum_dir.join(&e.path_name);
            let tmp = enum_dir.join(format!(".{}.tmp", e.path_name));
            util::write_new_synced(&tmp, &bytes)?;
            written.push(tmp.clone());
            util::rename_synced(&tmp, &target)?;
            written.pop();
            written.push(target);
        }
        util::sync_dir(&enum_dir)?;
        let t = match opts.timestamp {
            Some(t) if t > 0 => t,
            _ => util::next_timestamp(None, std::slice::from_ref(&schema_dir))?,
        };
        let name = util::timestamped_name(t, t, None);
        let bytes = generic_tile(&encode(&table)?, FORMAT_VERSION, key)?;
        // Written where the engine never lists (it reads enumeration
        // files by name only), then renamed into `__schema`.
        let tmp = enum_dir.join(format!(".{name}.tmp"));
        util::write_new_synced(&tmp, &bytes)?;
        written.push(tmp.clone());
        let target = schema_dir.join(&name);
        util::rename_synced(&tmp, &target)?;
        Ok(target)
    })();
    if result.is_err() {
        // Nothing names these files yet: remove them.
        for p in written {
            let _ = std::fs::remove_file(p);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ArrayType, Dimension, Range};

    fn schema() -> Schema {
        let mut s = Schema::new(
            ArrayType::Dense,
            vec![Dimension::new(
                "d",
                Datatype::Int32,
                DomainRange::Int32(Range::new(0, 99)),
                Some(crate::model::Value::Int32(10)),
            )],
            vec![Attribute::new("a", Datatype::Int32)],
        );
        s.enumerations.push(Enumeration::new(
            "e",
            "__x_0",
            Datatype::StringUtf8,
            CellValNum::Var,
            false,
            vec![b"a".to_vec(), b"b".to_vec()],
        ));
        s
    }

    fn err(s: &Schema, ev: &SchemaEvolution) -> String {
        evolve_schema(s, ev).unwrap_err().to_string()
    }

    #[test]
    fn the_engines_rules() {
        let s = schema();
        let mut ev = SchemaEvolution::new();
        ev.drop_attribute("a");
        assert!(err(&s, &ev).contains("at least one attribute"));
        let mut ev = SchemaEvolution::new();
        ev.drop_attribute("d");
        assert!(err(&s, &ev).contains("refers to a dimension"));
        let mut ev = SchemaEvolution::new();
        ev.extend_enumeration("e", vec![b"c".to_vec(), b"a".to_vec()]);
        assert!(err(&s, &ev).contains("twice"));
        let mut ev = SchemaEvolution::new();
        let mut b = Attribute::new("b", Datatype::Float32);
        b.enumeration = Some("e".into());
        ev.add_attribute(b);
        assert!(err(&s, &ev).contains("integer type"));
        let mut ev = SchemaEvolution::new();
        ev.add_attribute(Attribute::new("d", Datatype::Int8));
        assert!(err(&s, &ev).contains("unique names"));
        // Dropping an unknown enumeration is no change, and no error.
        let mut ev = SchemaEvolution::new();
        ev.drop_enumeration("nope");
        assert_eq!(evolve_schema(&s, &ev).unwrap().enumerations, s.enumerations);
        // Extension: appended, a new file.
        let mut ev = SchemaEvolution::new();
        ev.extend_enumeration("e", vec![b"c".to_vec()]);
        let n = evolve_schema(&s, &ev).unwrap();
        assert_eq!(n.enumerations[0].values.len(), 3);
        assert_ne!(n.enumerations[0].path_name, "__x_0");
        // A used enumeration cannot be dropped, unless its attribute goes too.
        let mut s2 = s.clone();
        s2.attributes.push(Attribute {
            enumeration: Some("e".into()),
            ..Attribute::new("c", Datatype::Int8)
        });
        let mut ev = SchemaEvolution::new();
        ev.drop_enumeration("e");
        assert!(err(&s2, &ev).contains("uses it"));
        ev.drop_attribute("c");
        assert!(evolve_schema(&s2, &ev).unwrap().enumerations.is_empty());
    }

    #[test]
    fn current_domain_only_grows() {
        let s = schema();
        let mut ev = SchemaEvolution::new();
        ev.expand_current_domain("d", DomainRange::Int32(Range::new(0, 9)));
        let n = evolve_schema(&s, &ev).unwrap();
        let mut ev = SchemaEvolution::new();
        ev.expand_current_domain("d", DomainRange::Int32(Range::new(0, 5)));
        assert!(err(&n, &ev).contains("only be expanded"));
        let mut ev = SchemaEvolution::new();
        ev.expand_current_domain("d", DomainRange::Int32(Range::new(0, 100)));
        assert!(err(&n, &ev).contains("outside"));
        let mut ev = SchemaEvolution::new();
        ev.expand_current_domain("d", DomainRange::Int64(Range::new(0, 50)));
        assert!(err(&n, &ev).contains("datatype"));
    }
}
