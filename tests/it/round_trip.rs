//! Every table decoded from every fixture re-encodes to the very same bytes:
//! generic tile headers, schemas, footers, R-trees, tile offsets and tile
//! metadata, array metadata, enumerations, group details, commit, ignore and
//! vacuum files, and the chunk layout of every data tile.

use crate::common;

use std::path::Path;

use binrw::{BinRead, BinWrite};
use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
use tiledb_codec::raw::format::*;
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;
use tiledb_codec::ReadOptions;

/// Decodes `bytes` as `T` and checks that encoding gives them back.
fn round_trip<T>(what: &str, bytes: &[u8], args: <T as BinRead>::Args<'_>) -> T
where
    T: BinRead + BinWrite + std::fmt::Debug + tiledb_codec::raw::format::Record,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let value: T = decode_all(bytes, Path::new(what), 0, args).unwrap_or_else(|e| panic!("{e}"));
    let again = encode(&value).unwrap();
    assert!(
        again == bytes,
        "{what}: {} bytes re-encode to {} different bytes",
        bytes.len(),
        again.len()
    );
    value
}

/// A generic tile: its header re-encodes, and its data as table `T`.
fn generic_tile<T>(
    opts: &ReadOptions,
    what: &str,
    file: &MappedFile,
    offset: u64,
    args: <T as BinRead>::Args<'_>,
) -> T
where
    T: BinRead + BinWrite + std::fmt::Debug + tiledb_codec::raw::format::Record,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let tile = read_generic_tile(file, offset, opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    let header_len = 34 + tile.header.filter_pipeline_size as usize;
    let header_bytes = &file.bytes()[offset as usize..offset as usize + header_len];
    assert_eq!(
        encode(&tile.header).unwrap(),
        header_bytes,
        "{what}: generic tile header"
    );
    let data_start = offset as usize + header_len;
    let persisted = &file.bytes()[data_start..data_start + tile.header.persisted_size as usize];
    round_trip::<Tile>(&format!("{what} (chunks)"), persisted, ());
    round_trip::<T>(what, &tile.data, args)
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|r| r.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn check_array(id: &str, path: &Path, opts: &ReadOptions) -> usize {
    let mut tables = 0;
    let dir = ArrayDirectory::open(path).unwrap();
    for p in dir
        .schemas
        .iter()
        .map(|e| e.path.clone())
        .chain(dir.legacy_schema.clone())
    {
        let f = MappedFile::open(&p).unwrap();
        generic_tile::<ArraySchema>(opts, &format!("{id} {}", p.display()), &f, 0, ());
        tables += 1;
    }
    for p in &dir.enumeration_files().unwrap() {
        let f = MappedFile::open(p).unwrap();
        generic_tile::<Enumeration>(opts, &format!("{id} {}", p.display()), &f, 0, ());
        tables += 1;
    }
    for e in &dir.metadata {
        let f = MappedFile::open(&e.path).unwrap();
        generic_tile::<ArrayMetadata>(opts, &format!("{id} {}", e.path.display()), &f, 0, ());
        tables += 1;
    }
    for e in dir.consolidated_commits.iter() {
        let f = MappedFile::open(&e.path).unwrap();
        round_trip::<ConsolidatedCommits>(&format!("{id} {}", e.path.display()), f.bytes(), ());
        tables += 1;
    }
    for e in dir.ignore_files.iter() {
        let f = MappedFile::open(&e.path).unwrap();
        round_trip::<IgnoreFile>(&format!("{id} {}", e.path.display()), f.bytes(), ());
        tables += 1;
    }
    for e in dir.vacuum_files.iter() {
        let f = MappedFile::open(&e.path).unwrap();
        round_trip::<VacuumFile>(&format!("{id} {}", e.path.display()), f.bytes(), ());
        tables += 1;
    }
    for e in &dir.fragments {
        let frag = Fragment::open(&dir, e, opts).unwrap();
        let meta = MappedFile::open(frag.metadata_path()).unwrap();
        let (off, len) = frag.footer_range;
        let footer_bytes = &meta.bytes()[off as usize..(off + len) as usize];
        let dims = frag.schema.domain.coord_sizes();
        let attrs = frag.schema.attributes.len() as u64;
        let footer = round_trip::<FragmentFooter>(
            &format!("{id} footer"),
            footer_bytes,
            (dims.clone(), attrs),
        );
        let what = |k: &str| format!("{id} {} {k}", e.name.name);
        generic_tile::<RTree>(
            opts,
            &what("rtree"),
            &meta,
            footer.rtree_offset,
            (footer.version_number, dims.clone()),
        );
        tables += 2;
        let lists = [
            &footer.tile_offsets,
            &footer.tile_var_offsets,
            &footer.tile_var_sizes,
        ];
        for list in lists
            .into_iter()
            .chain(footer.tile_validity_offsets.as_ref())
        {
            for o in list {
                generic_tile::<TileOffsets>(opts, &what("tile offsets"), &meta, *o, ());
                tables += 1;
            }
        }
        for list in [&footer.tile_mins_offsets, &footer.tile_maxes_offsets]
            .into_iter()
            .flatten()
        {
            for o in list {
                generic_tile::<TileMinMax>(opts, &what("tile min/max"), &meta, *o, ());
                tables += 1;
            }
        }
        for o in footer.tile_sums_offsets.iter().flatten() {
            generic_tile::<TileSums>(opts, &what("tile sums"), &meta, *o, ());
            tables += 1;
        }
        for o in footer.tile_null_counts_offsets.iter().flatten() {
            generic_tile::<TileNullCounts>(opts, &what("tile null counts"), &meta, *o, ());
            tables += 1;
        }
        if footer.version_number >= 12 {
            if let Some(o) = footer.fragment_min_max_sum_null_count_offset {
                let n = footer.file_sizes.len() as u64;
                generic_tile::<FragmentMinMaxSumNullCount>(
                    opts,
                    &what("fragment min/max"),
                    &meta,
                    o,
                    (n,),
                );
                tables += 1;
            }
        }
        if let Some(o) = footer.processed_conditions_offset {
            generic_tile::<ProcessedConditions>(opts, &what("processed conditions"), &meta, o, ());
            tables += 1;
        }
        // The chunk layout of every data tile of the fixed-size data files.
        for (idx, off) in footer.tile_offsets.iter().enumerate() {
            let tiles = generic_tile::<TileOffsets>(opts, &what("tile offsets"), &meta, *off, ());
            let Some(size) = footer.file_sizes.get(idx).copied().filter(|s| *s > 0) else {
                continue;
            };
            let Some(file) = data_file(&frag.path, &frag, idx) else {
                continue;
            };
            let data = MappedFile::open(&file).unwrap();
            assert_eq!(
                data.len(),
                size,
                "{}: file size in the footer",
                file.display()
            );
            let mut bounds = tiles.values.clone();
            bounds.push(size);
            for w in bounds.windows(2) {
                round_trip::<Tile>(
                    &format!("{} tile at {}", file.display(), w[0]),
                    &data.bytes()[w[0] as usize..w[1] as usize],
                    (),
                );
                tables += 1;
            }
        }
    }
    tables
}

/// The data file of field `idx` of the engine's index map (version 9 on:
/// `a<i>.tdb`, `d<i>.tdb`).
fn data_file(frag_dir: &Path, frag: &Fragment, idx: usize) -> Option<std::path::PathBuf> {
    let a = frag.schema.attributes.len();
    let name = if idx < a {
        format!("a{idx}.tdb")
    } else if idx == a {
        "__coords.tdb".to_string()
    } else if idx <= a + frag.schema.domain.dimensions.len() {
        format!("d{}.tdb", idx - a - 1)
    } else {
        return None;
    };
    let p = frag_dir.join(name);
    p.is_file().then_some(p)
}

fn check_group(id: &str, path: &Path, opts: &ReadOptions) -> usize {
    let mut n = 0;
    for p in files(&path.join("__group")) {
        let f = MappedFile::open(&p).unwrap();
        generic_tile::<GroupDetails>(opts, &format!("{id} {}", p.display()), &f, 0, ());
        n += 1;
    }
    n
}

/// The fixture's key, if it is encrypted: the 32 bytes of the string.
fn read_options(f: &common::Fixture) -> ReadOptions {
    match &f.key {
        Some(k) => ReadOptions::default().with_key(k.as_bytes().try_into().expect("a 32-byte key")),
        None => ReadOptions::default(),
    }
}

#[test]
fn every_table_of_every_fixture_re_encodes_to_the_same_bytes() {
    let mut total = 0;
    for f in common::fixtures() {
        let opts = read_options(&f);
        total += match f.kind.as_str() {
            "group" => check_group(&f.id, &f.path, &opts),
            _ => check_array(&f.id, &f.path, &opts),
        };
    }
    assert!(total > 100, "only {total} tables checked");
}
