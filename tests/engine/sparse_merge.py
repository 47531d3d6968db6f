#!/usr/bin/env python3
"""Sparse arrays for tests/it/sparse_merge.rs, written by the engine.

Usage: python sparse_merge.py OUTDIR

  OUTDIR/overlap   2-D INT64 x, y in 0..15 (space tiles 4 x 4), capacity 4,
                   no duplicates, FLOAT64 a. Fragment 1 (t=1): x 0..3 with
                   a >= 1000, x 8..11 with a = 0. Fragment 2 (t=2) writes the
                   same cells again: x 0..3 with a = 0 (its tiles cannot
                   match `a > 500`, but they hide fragment 1's cells there),
                   x 8..11 with a = 2000 (fragment 1's tiles there hide
                   nothing older).
  OUTDIR/apart     1-D INT64 d in 0..2^40, capacity 3, no duplicates, INT64
                   a: three fragments in domains that do not meet, cells a
                   million apart (too far apart for a grid of coordinates),
                   written newest-first along d.
  OUTDIR/chunks    1-D INT64 d in 0..39999, one fragment of 40,000 cells in
                   one tile (capacity 40,000), INT64 a = 3 d with ZSTD in
                   chunks of 64 KiB, nullable INT32 b (every 7th null).
  OUTDIR/plane     2-D INT64 x, y in 0..199, every cell once in one tile
                   (one space tile, capacity 40,000), row-major cells;
                   the coordinates and INT64 a = 1000 x + y with ZSTD in
                   chunks of 64 KiB (five per field).
  OUTDIR/plane_col the same cells in column-major order.
  OUTDIR/spans     2-D INT64 x, y in 0..79 (space tiles 10 x 10), capacity
                   40 (data tiles spanning several space tiles), no
                   duplicates, INT64 a: three fragments of random points,
                   the later ones rewriting some earlier points.
  OUTDIR/spans_col the same, space tiles in column-major order.
"""

import os
import sys

import numpy as np
import tiledb


def overlap(uri):
    dims = [tiledb.Dim(n, domain=(0, 15), tile=4, dtype=np.int64) for n in "xy"]
    schema = tiledb.ArraySchema(
        domain=tiledb.Domain(*dims),
        attrs=[tiledb.Attr("a", dtype=np.float64)],
        sparse=True,
        capacity=4,
    )
    tiledb.Array.create(uri, schema)
    xs = np.repeat(np.arange(4), 4)
    ys = np.tile(np.arange(4), 4)
    x = np.concatenate([xs, xs + 8])
    y = np.concatenate([ys, ys])
    high = 1000.0 + np.arange(16)
    with tiledb.open(uri, "w", timestamp=1) as A:
        A[x, y] = np.concatenate([high, np.zeros(16)])
    with tiledb.open(uri, "w", timestamp=2) as A:
        A[x, y] = np.concatenate([np.zeros(16), 2000.0 + np.arange(16)])


def apart(uri):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 2**40), tile=2**20, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom, attrs=[tiledb.Attr("a", dtype=np.int64)], sparse=True, capacity=3
    )
    tiledb.Array.create(uri, schema)
    for t, base in enumerate([2 * 10**9, 10**9, 0], start=1):
        d = base + np.arange(10, dtype=np.int64) * 10**6
        with tiledb.open(uri, "w", timestamp=t) as A:
            A[d] = d // 1000 + t


def chunks(uri):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 39999), tile=40000, dtype=np.int64))
    zstd = tiledb.FilterList([tiledb.ZstdFilter()], chunksize=65536)
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[
            tiledb.Attr("a", dtype=np.int64, filters=zstd),
            tiledb.Attr("b", dtype=np.int32, nullable=True),
        ],
        sparse=True,
        capacity=40000,
    )
    tiledb.Array.create(uri, schema)
    d = np.arange(40000, dtype=np.int64)
    b = np.ma.masked_array(d.astype(np.int32), mask=(d % 7 == 0))
    with tiledb.open(uri, "w", timestamp=1) as A:
        A[d] = {"a": d * 3, "b": b}


def plane(uri, order):
    zstd = tiledb.FilterList([tiledb.ZstdFilter()], chunksize=65536)
    dims = [tiledb.Dim(n, domain=(0, 199), tile=200, dtype=np.int64) for n in "xy"]
    schema = tiledb.ArraySchema(
        domain=tiledb.Domain(*dims),
        attrs=[tiledb.Attr("a", dtype=np.int64, filters=zstd)],
        sparse=True,
        capacity=40000,
        cell_order=order,
        coords_filters=zstd,
    )
    tiledb.Array.create(uri, schema)
    x = np.repeat(np.arange(200, dtype=np.int64), 200)
    y = np.tile(np.arange(200, dtype=np.int64), 200)
    with tiledb.open(uri, "w", timestamp=1) as A:
        A[x, y] = x * 1000 + y


def spans(uri, order):
    dims = [tiledb.Dim(n, domain=(0, 79), tile=10, dtype=np.int64) for n in "xy"]
    schema = tiledb.ArraySchema(
        domain=tiledb.Domain(*dims),
        attrs=[tiledb.Attr("a", dtype=np.int64)],
        sparse=True,
        capacity=40,
        tile_order=order,
    )
    tiledb.Array.create(uri, schema)
    rng = np.random.default_rng(49)
    seen = np.empty(0, dtype=np.int64)
    for t in (1, 2, 3):
        again = rng.choice(seen, size=30, replace=False) if len(seen) else seen
        p = np.unique(np.concatenate([again, rng.integers(0, 6400, size=300)]))
        seen = np.unique(np.concatenate([seen, p]))
        with tiledb.open(uri, "w", timestamp=t) as A:
            A[p // 80, p % 80] = t * 100000 + p


def main(argv):
    out = argv[1]
    overlap(os.path.join(out, "overlap"))
    apart(os.path.join(out, "apart"))
    chunks(os.path.join(out, "chunks"))
    plane(os.path.join(out, "plane"), "row-major")
    plane(os.path.join(out, "plane_col"), "col-major")
    spans(os.path.join(out, "spans"), "row-major")
    spans(os.path.join(out, "spans_col"), "col-major")


if __name__ == "__main__":
    main(sys.argv)
