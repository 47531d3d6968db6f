"""Makes the consolidation benchmark's arrays with the TileDB engine
(TileDB-Py), each fragment written at its own timestamp (1, 2, ...) in one
Python process.

Usage: python make_consolidate_arrays.py OUTDIR

Writes, unless already there (each under a temporary name, renamed when
complete):
  OUTDIR/sparse_1000: sparse 2-D, INT64 dimensions x and y in [0, 4095]
      (space tiles 512 x 512, capacity 10,000, no duplicates), INT32
      attribute a and INT64 attribute b, no filters; 1,000 fragments of
      4,096 random points each (4,096,000 cells written; the fragments
      overlap everywhere, and a point written twice keeps its newest cell);
  OUTDIR/sparse_10000: the same schema, 10,000 fragments of 10 random
      points each (100,000 cells written);
  OUTDIR/dense_1000: dense 2-D, INT64 dimensions r in [0, 3999] and c in
      [0, 1023], space tiles of 4 x 1024 (one row of tiles across the
      domain is one tile), INT32 attribute a and INT64 attribute b, no
      filters; 1,000 fragments, fragment i writing the one tile of rows
      4i..4i+3 (4,096 cells; 4,096,000 cells in all).
"""
import os
import sys
import time

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_arrays import atomic  # noqa: E402

SIDE = 4096
DENSE_ROWS_PER_FRAGMENT = 4
DENSE_COLS = 1024


def attrs():
    return [tiledb.Attr("a", dtype=np.int32), tiledb.Attr("b", dtype=np.int64)]


@atomic
def sparse(uri, fragments, cells, seed):
    dims = [tiledb.Dim(n, domain=(0, SIDE - 1), tile=512, dtype=np.int64) for n in "xy"]
    schema = tiledb.ArraySchema(domain=tiledb.Domain(*dims), attrs=attrs(), sparse=True, capacity=10000)
    tiledb.Array.create(uri, schema)
    rng = np.random.default_rng(seed)
    for i in range(fragments):
        # Distinct points within a fragment (the engine refuses duplicates
        # in one write when the array does not allow them).
        points = rng.choice(SIDE * SIDE, size=cells, replace=False)
        a = rng.integers(-(1 << 31), 1 << 31, size=cells, dtype=np.int32)
        b = rng.integers(-(1 << 62), 1 << 62, size=cells, dtype=np.int64)
        with tiledb.open(uri, "w", timestamp=i + 1) as A:
            A[points // SIDE, points % SIDE] = {"a": a, "b": b}


@atomic
def dense(uri, fragments):
    rows = fragments * DENSE_ROWS_PER_FRAGMENT
    dims = [
        tiledb.Dim("r", domain=(0, rows - 1), tile=DENSE_ROWS_PER_FRAGMENT, dtype=np.int64),
        tiledb.Dim("c", domain=(0, DENSE_COLS - 1), tile=DENSE_COLS, dtype=np.int64),
    ]
    tiledb.Array.create(uri, tiledb.ArraySchema(domain=tiledb.Domain(*dims), attrs=attrs()))
    rng = np.random.default_rng(13)
    shape = (DENSE_ROWS_PER_FRAGMENT, DENSE_COLS)
    for i in range(fragments):
        a = rng.integers(-(1 << 31), 1 << 31, size=shape, dtype=np.int32)
        b = rng.integers(-(1 << 62), 1 << 62, size=shape, dtype=np.int64)
        lo = i * DENSE_ROWS_PER_FRAGMENT
        with tiledb.open(uri, "w", timestamp=i + 1) as A:
            A[lo : lo + DENSE_ROWS_PER_FRAGMENT, :] = {"a": a, "b": b}


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make, args in [
        ("sparse_1000", sparse, (1000, 4096, 1)),
        ("dense_1000", dense, (1000,)),
        ("sparse_10000", sparse, (10000, 10, 2)),
    ]:
        uri = os.path.join(out, name)
        if not os.path.exists(uri):
            t0 = time.perf_counter()
            make(uri, *args)
            print(f"made {uri} in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv)
