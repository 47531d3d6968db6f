"""Makes the benchmark arrays with the TileDB engine (TileDB-Py).

Usage: python make_arrays.py OUTDIR [--mib 256]

Writes, unless already there:
  OUTDIR/f64_none, f64_zstd, f64_shuffle_lz4: dense 1-D float64, MIB MiB of
      data, 8 MiB tiles (1,048,576 cells), one fragment, no filter / ZSTD /
      BYTESHUFFLE+LZ4;
  OUTDIR/frags_1000: dense 1-D int32 with 1,000 small fragments (open time).
"""
import os
import sys

import numpy as np
import tiledb


def dense(uri, cells, filters):
    if os.path.exists(uri):
        return
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


def many_fragments(uri, n=1000):
    if os.path.exists(uri):
        return
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
    cells = mib * (1 << 20) // 8
    os.makedirs(out, exist_ok=True)
    dense(os.path.join(out, "f64_none"), cells, [])
    dense(os.path.join(out, "f64_zstd"), cells, [tiledb.ZstdFilter()])
    dense(os.path.join(out, "f64_shuffle_lz4"), cells, [tiledb.ByteShuffleFilter(), tiledb.LZ4Filter()])
    many_fragments(os.path.join(out, "frags_1000"))


if __name__ == "__main__":
    main(sys.argv)
