"""Makes the benchmark arrays with the TileDB engine (TileDB-Py).

Usage: python make_arrays.py OUTDIR [--mib 256] [--frags 10000] [--only-sparse | --only-sql]

Writes, unless already there:
  OUTDIR/f64_none, f64_zstd, f64_shuffle_lz4: dense 1-D float64, MIB MiB of
      data, 8 MiB tiles (1,048,576 cells), one fragment, no filter / ZSTD /
      BYTESHUFFLE+LZ4;
  OUTDIR/f64_big: the same as f64_none with 8 * MIB MiB (2 GiB at the
      default size), for the streamed read's peak memory;
  OUTDIR/sparse_2d: sparse 2-D, INT64 dimensions x and y, FLOAT64 attribute
      a (uniform in [0, 1)), 4,194,304 cells at the default size (16,384 per
      MiB: every point of a square grid once) in 4 fragments of random points;
  OUTDIR/f64_2d_null: dense 2-D (rows x 8,192 columns, MIB MiB of data),
      1024 x 1024 tiles, a nullable float64 attribute v with ZSTD, one
      cell in 10 null (object-store reads of N-D, nullable arrays);
  OUTDIR/frags_1000, frags_FRAGS: dense 1-D int32 with 1,000 and FRAGS small
      fragments (open time).
--only-sparse makes sparse_2d only; --only-sql sparse_2d, sparse_dups (the
same cells in an array that allows duplicates) and f64_zstd (what
bench/sql.sh reads).
"""
import functools
import os
import shutil
import sys

import numpy as np
import tiledb


def atomic(make):
    """Makes the array under a temporary name and renames it into place, so
    that an interrupted run leaves no array that looks finished."""

    @functools.wraps(make)
    def wrapper(uri, *args):
        if os.path.exists(uri):
            return
        tmp = uri + ".partial"
        shutil.rmtree(tmp, ignore_errors=True)
        make(tmp, *args)
        os.rename(tmp, uri)

    return wrapper


@atomic
def dense(uri, cells, filters):
    tile = 1 << 20
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, cells - 1), tile=tile, dtype=np.int64))
    att = tiledb.Attr("v", dtype=np.float64, filters=tiledb.FilterList(filters))
    tiledb.Array.create(uri, tiledb.ArraySchema(domain=dom, attrs=[att]))
    rng = np.random.default_rng(7)
    # Smooth data, so that the compressors have something to do.
    step = 1 << 22
    with tiledb.open(uri, "w", timestamp=1) as A:
        for lo in range(0, cells, step):
            n = min(step, cells - lo)
            x = np.cumsum(rng.normal(size=n)) + lo
            A[lo : lo + n] = x
    # One fragment: consolidate the pieces.
    tiledb.consolidate(uri)
    tiledb.vacuum(uri)


@atomic
def dense_2d_nullable(uri, cells):
    cols = 8192
    rows = max(cells // cols, 1)
    dims = [
        tiledb.Dim("r", domain=(0, rows - 1), tile=min(1024, rows), dtype=np.int64),
        tiledb.Dim("c", domain=(0, cols - 1), tile=1024, dtype=np.int64),
    ]
    att = tiledb.Attr("v", dtype=np.float64, nullable=True, filters=tiledb.FilterList([tiledb.ZstdFilter()]))
    tiledb.Array.create(uri, tiledb.ArraySchema(domain=tiledb.Domain(*dims), attrs=[att]))
    rng = np.random.default_rng(13)
    step = min(1024, rows)
    with tiledb.open(uri, "w", timestamp=1) as A:
        for lo in range(0, rows, step):
            n = min(step, rows - lo)
            x = np.cumsum(rng.normal(size=(n, cols)), axis=1) + lo
            A[lo : lo + n, :] = {"v": np.ma.masked_array(x, mask=rng.random((n, cols)) < 0.1)}
    tiledb.consolidate(uri)
    tiledb.vacuum(uri)


@atomic
def sparse_2d(uri, cells, fragments=4, dups=False):
    """Every point of a side x side grid once, shuffled, in `fragments`
    writes (`dups`: an array that allows duplicates)."""
    side = int(cells**0.5)
    dims = [tiledb.Dim(n, domain=(0, side - 1), tile=max(side // 8, 1), dtype=np.int64) for n in "xy"]
    att = tiledb.Attr("a", dtype=np.float64)
    schema = tiledb.ArraySchema(
        domain=tiledb.Domain(*dims), attrs=[att], sparse=True, capacity=10000, allows_duplicates=dups
    )
    tiledb.Array.create(uri, schema)
    rng = np.random.default_rng(11)
    points = rng.permutation(side * side)
    for i, part in enumerate(np.array_split(points, fragments)):
        with tiledb.open(uri, "w", timestamp=i + 1) as A:
            A[part // side, part % side] = rng.random(len(part))


@atomic
def many_fragments(uri, n=1000):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, n * 4 - 1), tile=4, dtype=np.int64))
    tiledb.Array.create(uri, tiledb.ArraySchema(domain=dom, attrs=[tiledb.Attr("a", dtype=np.int32)]))
    with tiledb.open(uri, "w") as A:
        pass
    for i in range(n):
        with tiledb.open(uri, "w", timestamp=i + 1) as A:
            A[i * 4 : i * 4 + 4] = np.arange(4, dtype=np.int32) + i


def main(argv):
    out = argv[1]
    mib = int(argv[argv.index("--mib") + 1]) if "--mib" in argv else 256
    frags = int(argv[argv.index("--frags") + 1]) if "--frags" in argv else 10000
    cells = mib * (1 << 20) // 8
    os.makedirs(out, exist_ok=True)
    if "--only-sparse" in argv:
        sparse_2d(os.path.join(out, "sparse_2d"), mib * 16384)
        return
    if "--only-sql" in argv:
        sparse_2d(os.path.join(out, "sparse_2d"), mib * 16384)
        sparse_2d(os.path.join(out, "sparse_dups"), mib * 16384, 4, True)
        dense(os.path.join(out, "f64_zstd"), cells, [tiledb.ZstdFilter()])
        return
    dense(os.path.join(out, "f64_none"), cells, [])
    dense(os.path.join(out, "f64_zstd"), cells, [tiledb.ZstdFilter()])
    dense(os.path.join(out, "f64_shuffle_lz4"), cells, [tiledb.ByteShuffleFilter(), tiledb.LZ4Filter()])
    dense(os.path.join(out, "f64_big"), 8 * cells, [])
    dense_2d_nullable(os.path.join(out, "f64_2d_null"), cells)
    sparse_2d(os.path.join(out, "sparse_2d"), mib * 16384)
    many_fragments(os.path.join(out, "frags_1000"))
    many_fragments(os.path.join(out, f"frags_{frags}"), frags)


if __name__ == "__main__":
    main(sys.argv)
