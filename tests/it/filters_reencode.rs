//! Deterministic filters re-encode byte-exactly: every tile the engine wrote
//! whose pipeline holds no general-purpose compressor (their bytes depend on
//! the compressor library's version) decodes and re-encodes, with the
//! engine's chunking, to the very bytes on disk.

use crate::common;

use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
use tiledb_codec::raw::array::{FieldInfo, FieldPipelines};
use tiledb_codec::raw::format::{Filter, FilterType};
use tiledb_codec::raw::read::field::{read_field_tiles, read_stored_tiles};
use tiledb_codec::ReadOptions;

fn deterministic(filters: &[Filter]) -> bool {
    filters.iter().all(|f| {
        !matches!(
            f.filter_type.known(),
            Some(
                FilterType::Gzip
                    | FilterType::Zstd
                    | FilterType::Lz4
                    | FilterType::Bzip2
                    | FilterType::Webp
            ) | None
        )
    })
}

#[test]
fn deterministic_pipelines_re_encode_the_engine_tiles_exactly() {
    let opts = ReadOptions::default();
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for f in common::fixtures() {
        // Encrypted tiles cannot re-encode byte-exactly: every part gets a
        // fresh random IV (the encryption filter's own tests cover it).
        if f.kind != "array" || f.key.is_some() {
            continue;
        }
        let dir = ArrayDirectory::open(&f.path).unwrap();
        for e in &dir.fragments {
            let frag = Fragment::open(&dir, e, &opts).unwrap();
            let mut names: Vec<Vec<u8>> = frag
                .schema
                .attributes
                .iter()
                .map(|a| a.name.clone())
                .collect();
            if !frag.dense {
                names.extend(frag.schema.domain.dimensions.iter().map(|d| d.name.clone()));
            }
            for name in names {
                let name = String::from_utf8_lossy(&name).into_owned();
                let field = FieldInfo::lookup(&frag.schema, &name).unwrap();
                let what = format!("{} {} field {name:?}", f.id, e.name.name);
                let pipes = match FieldPipelines::new(&frag.schema, &field, None) {
                    Ok(p) => p,
                    Err(err) => {
                        failures.push(format!("{what}: {err}"));
                        continue;
                    }
                };
                let tiles = match read_field_tiles(&frag, &field, &opts)
                    .and_then(|t| Ok(t.into_iter().zip(read_stored_tiles(&frag, &field, &opts)?)))
                {
                    Ok(t) => t.collect::<Vec<_>>(),
                    Err(err) => {
                        failures.push(format!("{what}: {err}"));
                        continue;
                    }
                };
                let offsets_filters = &frag.schema.offsets_filters.filters;
                let validity_filters = frag
                    .schema
                    .validity_filters
                    .as_ref()
                    .map_or(&[][..], |p| &p.filters);
                for (t, (tile, stored_tile)) in tiles.iter().enumerate() {
                    let mut check = |kind: &str,
                                     stored: &[u8],
                                     again: Result<
                        Vec<u8>,
                        tiledb_codec::raw::filters::FilterError,
                    >| {
                        checked += 1;
                        match again {
                            Ok(bytes) if bytes == stored => {}
                            Ok(bytes) => failures.push(format!(
                                "{what} tile {t} {kind}: {} bytes re-encode to {} different bytes",
                                stored.len(),
                                bytes.len()
                            )),
                            Err(err) => failures.push(format!("{what} tile {t} {kind}: {err}")),
                        }
                    };
                    match &tile.var {
                        None => {
                            if deterministic(&field.filters) {
                                check(
                                    "data",
                                    &stored_tile.fixed,
                                    pipes.data.forward_tile(&tile.fixed),
                                );
                            }
                        }
                        Some(plain) => {
                            let stored = stored_tile.var.as_deref().unwrap_or_default();
                            let offs = tile.var_offsets.clone().unwrap_or_default();
                            if deterministic(&field.filters) {
                                check(
                                    "var data",
                                    stored,
                                    pipes.data.forward_var_tile(plain, &offs),
                                );
                            }
                            if deterministic(offsets_filters) && !pipes.offsets_in_data {
                                let p = pipes.offsets.as_ref().unwrap();
                                check("offsets", &stored_tile.fixed, p.forward_tile(&tile.fixed));
                            }
                        }
                    }
                    if let (Some(plain), Some(stored), Some(p)) =
                        (&tile.validity, &stored_tile.validity, &pipes.validity)
                    {
                        if deterministic(validity_filters) {
                            check("validity", stored, p.forward_tile(plain));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} tiles checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} tiles:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
