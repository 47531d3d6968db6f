"""The engine (TileDB-Py) writing the arrays of `examples/write_dense.rs`:
a 1-D dense float64 array, 8 MiB tiles, one fragment, no filter or ZSTD
(the engine's default level), the same values.

Usage: python engine_write.py OUT [--mib 256] [--filter none|zstd]

Prints the CPU seconds of the process (every thread) and the seconds spent
creating the array and writing it (`A[:] = data`, fragment committed when
the array closes), leaving out making the values, as the example leaves
them out.
"""
import os
import sys
import time

import numpy as np
import tiledb

TILE = 1 << 20


def values(cells):
    """Cell i: a slow ramp plus 32 bits of hashed noise (`value` in
    examples/write_dense.rs; the same operations, so the same bits)."""
    i = np.arange(cells, dtype=np.uint64)
    h = (i * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
    return i.astype(np.float64) * (1.0 / 1024.0) + h.astype(np.float64) * (1.0 / 4294967296.0)


def schema(cells, filt):
    filters = [tiledb.ZstdFilter()] if filt == "zstd" else []
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, cells - 1), tile=TILE, dtype=np.int64))
    att = tiledb.Attr("v", dtype=np.float64, filters=tiledb.FilterList(filters))
    return tiledb.ArraySchema(domain=dom, attrs=[att])


def write(uri, data, filt):
    """(seconds, CPU seconds of the process in that time)."""
    c0 = os.times()
    t0 = time.perf_counter()
    tiledb.Array.create(uri, schema(len(data), filt))
    with tiledb.open(uri, "w") as A:
        A[:] = data
    t = time.perf_counter() - t0
    c1 = os.times()
    return t, (c1.user - c0.user) + (c1.system - c0.system)


def main(argv):
    out = argv[1]
    mib = int(argv[argv.index("--mib") + 1]) if "--mib" in argv else 256
    filt = argv[argv.index("--filter") + 1] if "--filter" in argv else "none"
    data = values(mib * (1 << 20) // 8)
    # The engine's context (its thread pools; about 20 ms here) is made
    # before the clock, as process start is left out on both sides.
    tiledb.default_ctx()
    t, cpu = write(out, data, filt)
    print(f"cpu {cpu:.2f} {t:.4f}")


if __name__ == "__main__":
    main(sys.argv)
