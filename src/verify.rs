//! `verify`: decodes every tile of every fragment, checking checksums (the
//! checksum filters verify on read), sizes and offsets against the fragment
//! metadata.

use std::path::{Path, PathBuf};

use crate::array::fragment::{Fragment, Metadata};
use crate::array::ArrayDirectory;
use crate::error::Result;
use crate::filters::ReadOptions;
use crate::read::field::{read_field_tiles, FieldInfo};

/// One thing found wrong.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    pub path: PathBuf,
    pub what: String,
}

/// What `verify` found.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Report {
    pub fragments: usize,
    pub fields: usize,
    pub tiles: usize,
    pub problems: Vec<Problem>,
}

impl Report {
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
    let dir = ArrayDirectory::open(path)?;
    let mut report = Report::default();
    for e in &dir.fragments {
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
    }
    Ok(report)
}

fn check_fragment(frag: &Fragment, opts: &ReadOptions, report: &mut Report) {
    let Metadata::Footer(footer) = &frag.metadata else {
        return;
    };
    let schema = &frag.schema;
    let mut fields: Vec<FieldInfo> = schema
        .attributes
        .iter()
        .filter_map(|a| FieldInfo::lookup(schema, &String::from_utf8_lossy(&a.name)))
        .collect();
    if !frag.dense {
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
        // The data files are as long as the footer says.
        let a = schema.attributes.len();
        let base = if field.is_dimension {
            format!("d{}", field.idx - a - 1)
        } else {
            format!("a{}", field.idx)
        };
        let mut files = vec![(
            format!("{base}.tdb"),
            footer.file_sizes.get(field.idx).copied(),
        )];
        if field.cell_val_num.is_none() {
            files.push((
                format!("{base}_var.tdb"),
                footer.file_var_sizes.get(field.idx).copied(),
            ));
        }
        if field.nullable {
            let v = footer
                .file_validity_sizes
                .as_ref()
                .and_then(|v| v.get(field.idx).copied());
            files.push((format!("{base}_validity.tdb"), v));
        }
        if frag.version() >= 9 {
            for (name, expected) in files {
                let p = frag.path.join(&name);
                match (file_len(&p), expected) {
                    (None, _) => report.problems.push(Problem {
                        path: p,
                        what: "the data file is missing".into(),
                    }),
                    (Some(n), Some(x)) if n != x => report.problems.push(Problem {
                        path: p,
                        what: format!("the file has {n} bytes, the fragment metadata says {x}"),
                    }),
                    _ => {}
                }
            }
        }
        match read_field_tiles(frag, &field, opts) {
            Ok(tiles) => {
                report.tiles += tiles.len();
                // Var tiles unfilter to the sizes the metadata records.
                if field.cell_val_num.is_none() {
                    let sizes = footer
                        .tile_var_sizes
                        .get(field.idx)
                        .map(|o| frag.generic_tile_offsets(*o, opts));
                    if let Some(Ok(sizes)) = sizes {
                        for (t, tile) in tiles.iter().enumerate() {
                            let got = tile.var.as_ref().map_or(0, |v| v.1.len() as u64);
                            if sizes.values.get(t).is_some_and(|s| *s != got) {
                                report.problems.push(Problem {
                                    path: frag.path.clone(),
                                    what: format!("field {:?} var tile {t} holds {got} bytes, the metadata says {}", field.name, sizes.values[t]),
                                });
                            }
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
