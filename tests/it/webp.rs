//! The WEBP filter decodes what the engine wrote: the `filter_webp` fixture
//! (lossless RGB, one tile) and arrays the engine writes here, with several
//! tiles, lossy and lossless, with and without alpha, RGB and BGR order.
//! A dense 2-D fragment stores whole tiles in tile order (row-major), each
//! tile's cells in row-major order; the engine's read of the array is
//! row-major over the whole domain.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
use tiledb_codec::raw::model::value;
use tiledb_codec::raw::model::DomainRange;
use tiledb_codec::raw::read::field::read_field;
use tiledb_codec::ReadOptions;

fn bounds(r: &DomainRange) -> (u64, u64) {
    let r = r.as_i128().unwrap();
    (r.start as u64, r.end as u64)
}

/// Reads attribute `rgb` of the array's one fragment, which covers the whole
/// domain, and checks every cell against the engine's read.
fn check(path: &Path) -> usize {
    let opts = ReadOptions::default();
    let dir = ArrayDirectory::open(path).unwrap();
    assert_eq!(dir.fragments.len(), 1, "{}", path.display());
    let frag = Fragment::open(&dir, &dir.fragments[0], &opts).unwrap();
    assert!(frag.dense);
    let field = FieldInfo::lookup(&frag.schema, "rgb").unwrap();
    let data = read_field(&frag, &field, &opts).unwrap_or_else(|e| panic!("{e}"));

    let dims = &frag.schema.domain.dimensions;
    assert_eq!(dims.len(), 2);
    let dt = dims[0].datatype.unwrap().known().unwrap();
    let extent = |d: &tiledb_codec::raw::format::Dimension| {
        value::cell(dt, &d.tile_extent).as_u64().unwrap()
    };
    let (ty, tx) = (extent(&dims[0]), extent(&dims[1]));
    let ned = frag.non_empty_domain().unwrap().unwrap();
    let ((y0, y1), (x0, x1)) = (bounds(&ned[0]), bounds(&ned[1]));
    let (rows, cols) = (y1 - y0 + 1, x1 - x0 + 1);
    assert!(rows % ty == 0 && cols % tx == 0, "whole tiles only");
    assert_eq!(data.values.len() as u64, rows * cols);
    assert!(data.tile_cells.iter().all(|n| *n == ty * tx));

    let engine = common::engine_cells(path, None);
    assert_eq!(engine.len() as u64, rows * cols);
    let tiles_x = cols / tx;
    let mut checked = 0;
    for (i, ours) in data.values.iter().enumerate() {
        let i = i as u64;
        let (tile, cell) = (i / (ty * tx), i % (ty * tx));
        let y = (tile / tiles_x) * ty + cell / tx;
        let x = (tile % tiles_x) * tx + cell % tx;
        let e = &engine[(y * cols + x) as usize];
        assert_eq!(e["y"].as_u64(), Some(y0 + y), "{}", path.display());
        assert_eq!(e["x"].as_u64(), Some(x0 + x), "{}", path.display());
        assert_eq!(
            e["rgb"].as_u64(),
            Some(u64::from(*ours)),
            "{}: cell y={y} x={x}",
            path.display()
        );
        checked += 1;
    }
    checked
}

#[test]
fn the_filter_webp_fixture_decodes_to_the_engine_cells() {
    let f = common::fixtures()
        .into_iter()
        .find(|f| f.id == "v22/filter_webp")
        .expect("the filter_webp fixture");
    assert_eq!(check(&f.path), 48);
}

/// Writes a dense 2-D uint8 array with the WEBP filter through the engine:
/// 2 x 3 tiles of 8 rows of 10 pixels, a seeded noisy gradient; with alpha,
/// a quarter of the pixels fully transparent.
const WRITE: &str = r#"
import sys, numpy as np, tiledb
uri, fmt, lossless, q = sys.argv[1], sys.argv[2], sys.argv[3] == "1", float(sys.argv[4])
F = tiledb.WebpFilter.WebpInputFormat
fm = {"RGB": F.WEBP_RGB, "BGR": F.WEBP_BGR, "RGBA": F.WEBP_RGBA, "BGRA": F.WEBP_BGRA}[fmt]
depth = 4 if fmt.endswith("A") else 3
ty, tx = 8, 10 * depth
Y, X = 2 * ty, 3 * tx
W = tiledb.WebpFilter(input_format=fm, quality=q, lossless=lossless)
d = tiledb.Domain(
    tiledb.Dim(name="y", domain=(0, Y - 1), tile=ty, dtype=np.uint32),
    tiledb.Dim(name="x", domain=(0, X - 1), tile=tx, dtype=np.uint32),
)
tiledb.Array.create(
    uri, tiledb.ArraySchema(domain=d, attrs=[tiledb.Attr(name="rgb", dtype=np.uint8, filters=[W])])
)
rng = np.random.default_rng(7)
yy, xx = np.mgrid[0:Y, 0:X]
img = ((yy * 13 + xx * 7) % 256).astype(np.uint8)
img = (img // 2 + rng.integers(0, 60, size=img.shape)).astype(np.uint8)
if depth == 4:
    img[:, 3::4] = np.where(rng.integers(0, 4, size=img[:, 3::4].shape) == 0, 0, 200)
with tiledb.open(uri, "w", timestamp=1) as A:
    A[:] = {"rgb": img}
"#;

fn scratch() -> PathBuf {
    let dir = common::root()
        .join("target")
        .join(format!("webp-arrays-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn engine_written_webp_arrays_decode_to_the_engine_cells() {
    let dir = scratch();
    for (format, lossless, quality) in [
        ("RGB", false, 50.0),
        ("BGR", true, 100.0),
        ("RGBA", false, 80.0),
        ("BGRA", true, 100.0),
        ("BGRA", false, 75.0),
    ] {
        let path = dir.join(format!("{format}_{lossless}_{quality}"));
        let out = Command::new(common::engine_python())
            .arg("-c")
            .arg(WRITE)
            .arg(&path)
            .arg(format)
            .arg(if lossless { "1" } else { "0" })
            .arg(quality.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "writing {}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(check(&path) > 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
