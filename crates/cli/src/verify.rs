//! `verify`: decodes every tile of every fragment, checking checksums (the
//! checksum filters verify on read), sizes and offsets against the fragment
//! metadata.

use std::path::{Path, PathBuf};

use tiledb_codec::raw::array::field::{DataFile, FieldInfo};
use tiledb_codec::raw::array::fragment::data_file;
use tiledb_codec::raw::array::fragment::{Fragment, Metadata};
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::error::Result;
use tiledb_codec::raw::format::version::has_split_coordinates;
use tiledb_codec::raw::read::field::{read_field, read_field_tiles, FieldData};
use tiledb_codec::ReadOptions;

/// One thing found wrong.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Problem {
    /// The file or folder at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub what: String,
}

/// What `verify` found.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[non_exhaustive]
pub struct Report {
    /// Fragments checked.
    pub fragments: usize,
    /// Fields checked, over all fragments.
    pub fields: usize,
    /// Tiles checked, over all fields.
    pub tiles: usize,
    /// What was found wrong.
    pub problems: Vec<Problem>,
    /// Things the engine reads past but that are not as the fragment
    /// metadata records them: a data file longer than its recorded size
    /// (TileDB-Vector-Search writes such files).
    pub warnings: Vec<Problem>,
}

impl Report {
    /// No problems (warnings aside).
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

fn file_len(p: &Path) -> Option<u64> {
    std::fs::metadata(p).ok().map(|m| m.len())
}

/// Checks the array at `path`. An error means the array could not be opened
/// at all; what is wrong inside it is in the report.
pub fn verify(path: &Path, opts: &ReadOptions) -> Result<Report> {
    verify_with(path, opts, &tiledb_codec::NoProgress)
}

/// [`verify`], telling `progress` of each fragment checked.
pub fn verify_with(
    path: &Path,
    opts: &ReadOptions,
    progress: &dyn tiledb_codec::Progress,
) -> Result<Report> {
    let dir = ArrayDirectory::open(path)?;
    let mut report = Report::default();
    progress.start("verifying fragments", Some(dir.fragments.len() as u64));
    for e in &dir.fragments {
        progress.advance(1);
        report.fragments += 1;
        let frag = match Fragment::open(&dir, e, opts) {
            Ok(f) => f,
            Err(err) => {
                report.problems.push(Problem {
                    path: e.path.clone(),
                    what: err.to_string(),
                });
                continue;
            }
        };
        check_fragment(&frag, opts, &mut report);
        check_duplicates(&frag, opts, &mut report);
    }
    progress.finish();
    Ok(report)
}

/// The file sizes (fixed, var, validity) and the var tile sizes the
/// fragment metadata records for field `idx`.
struct Recorded {
    sizes: [Option<u64>; 3],
    var_tile_sizes: Option<Vec<u64>>,
}

fn recorded(frag: &Fragment, idx: usize, opts: &ReadOptions) -> Recorded {
    match &frag.metadata {
        Metadata::Footer(f) => Recorded {
            sizes: [
                f.file_sizes.get(idx).copied(),
                f.file_var_sizes.get(idx).copied(),
                f.file_validity_sizes
                    .as_ref()
                    .and_then(|v| v.get(idx).copied()),
            ],
            var_tile_sizes: f
                .tile_var_sizes
                .get(idx)
                .and_then(|o| frag.generic_tile_offsets(*o, opts).ok())
                .map(|t| t.values),
        },
        Metadata::Legacy(l) => Recorded {
            sizes: [
                l.file_sizes.get(idx).copied(),
                l.file_var_sizes.get(idx).copied(),
                None,
            ],
            var_tile_sizes: l.tile_var_sizes.lists.get(idx).map(|t| t.values.clone()),
        },
    }
}

fn check_fragment(frag: &Fragment, opts: &ReadOptions, report: &mut Report) {
    let schema = &frag.schema;
    let mut fields: Vec<FieldInfo> = schema
        .attributes
        .iter()
        .filter_map(|a| FieldInfo::lookup(schema, &String::from_utf8_lossy(&a.name)))
        .collect();
    if !frag.dense && !has_split_coordinates(frag.version()) {
        // One zipped coordinates file for every dimension.
        fields.extend(FieldInfo::zipped_coords(schema));
    } else if !frag.dense {
        fields.extend(
            schema
                .domain
                .dimensions
                .iter()
                .filter_map(|d| FieldInfo::lookup(schema, &String::from_utf8_lossy(&d.name))),
        );
    }
    for field in fields {
        report.fields += 1;
        // The data files are as long as the fragment metadata says.
        let rec = recorded(frag, field.idx, opts);
        let mut files = vec![(data_file(frag, &field, DataFile::Fixed), rec.sizes[0])];
        if field.cell_val_num.is_none() {
            files.push((data_file(frag, &field, DataFile::Var), rec.sizes[1]));
        }
        if field.nullable {
            files.push((data_file(frag, &field, DataFile::Validity), rec.sizes[2]));
        }
        for (p, expected) in files {
            match (file_len(&p), expected) {
                (None, _) => report.problems.push(Problem {
                    path: p,
                    what: "the data file is missing".into(),
                }),
                (Some(n), Some(x)) if n < x => report.problems.push(Problem {
                    path: p,
                    what: format!("the file has {n} bytes, the fragment metadata says {x}"),
                }),
                // The engine reads the recorded tiles and never looks past
                // them.
                (Some(n), Some(x)) if n > x => report.warnings.push(Problem {
                    path: p,
                    what: format!(
                        "{} bytes past the {x} the fragment metadata records (the file has {n})",
                        n - x
                    ),
                }),
                _ => {}
            }
        }
        match read_field_tiles(frag, &field, opts) {
            Ok(tiles) => {
                report.tiles += tiles.len();
                // Var tiles unfilter to the sizes the metadata records.
                if let (None, Some(sizes)) = (field.cell_val_num, &rec.var_tile_sizes) {
                    for (t, tile) in tiles.iter().enumerate() {
                        let got = tile.var.as_ref().map_or(0, |v| v.len() as u64);
                        if sizes.get(t).is_some_and(|s| *s != got) {
                            report.problems.push(Problem {
                                path: frag.path.clone(),
                                what: format!(
                                    "field {:?} var tile {t} holds {got} bytes, the metadata says {}",
                                    field.name, sizes[t]
                                ),
                            });
                        }
                    }
                }
            }
            Err(err) => report.problems.push(Problem {
                path: frag.path.clone(),
                what: format!("field {:?}: {err}", field.name),
            }),
        }
    }
}

/// One cell of a field's data (`None`: past its end).
fn cell_of<'a>(d: &'a FieldData, f: &FieldInfo, i: usize) -> Option<&'a [u8]> {
    match &d.offsets {
        Some(o) => {
            let s = usize::try_from(*o.get(i)?).ok()?;
            let e = match o.get(i + 1) {
                Some(e) => usize::try_from(*e).ok()?,
                None => d.values.len(),
            };
            d.values.get(s..e)
        }
        None => {
            let cs = usize::try_from(f.cell_size()).ok()?;
            d.values.get(i.checked_mul(cs)?..(i + 1).checked_mul(cs)?)
        }
    }
}

/// A sparse fragment of an array without duplicates holds each coordinate
/// once: its cells are in the global order, so a repeat follows the cell
/// it repeats (the engine's writer refuses such cells; a fragment holding
/// them was made some other way, and reads of it are undefined).
fn check_duplicates(frag: &Fragment, opts: &ReadOptions, report: &mut Report) {
    let schema = &frag.schema;
    if frag.dense || schema.allows_dups.unwrap_or(0) != 0 || !has_split_coordinates(frag.version())
    {
        return;
    }
    // A fragment consolidated with timestamps keeps every write of a
    // coordinate (a read takes the newest).
    if matches!(&frag.metadata, Metadata::Footer(f) if f.includes_timestamps == Some(1)) {
        return;
    }
    let dims: Vec<FieldInfo> = schema
        .domain
        .dimensions
        .iter()
        .filter_map(|d| FieldInfo::lookup(schema, &String::from_utf8_lossy(&d.name)))
        .collect();
    if dims.is_empty() || dims.len() != schema.domain.dimensions.len() {
        return;
    }
    // A field that does not decode is reported by `check_fragment`.
    let Ok(data) = dims
        .iter()
        .map(|d| read_field(frag, d, opts))
        .collect::<Result<Vec<FieldData>>>()
    else {
        return;
    };
    let n = data
        .iter()
        .zip(&dims)
        .map(|(d, f)| d.len(f.cell_size()))
        .min()
        .unwrap_or(0);
    let same = |i: usize| {
        data.iter()
            .zip(&dims)
            .all(|(d, f)| cell_of(d, f, i - 1).is_some_and(|a| Some(a) == cell_of(d, f, i)))
    };
    let repeats: Vec<usize> = (1..n).filter(|&i| same(i)).collect();
    let Some(&first) = repeats.first() else {
        return;
    };
    let coords: Vec<String> = data
        .iter()
        .zip(&dims)
        .map(|(d, f)| {
            let v = cell_of(d, f, first).unwrap_or_default();
            format!(
                "{}={}",
                f.name,
                tiledb_codec::raw::model::value::cell(f.datatype, v)
            )
        })
        .collect();
    report.problems.push(Problem {
        path: frag.path.clone(),
        what: format!(
            "{} cell(s) repeat the coordinates of the cell before them (the first: cell {first}, ({})), in an array that does not allow duplicates",
            repeats.len(),
            coords.join(", ")
        ),
    });
}
