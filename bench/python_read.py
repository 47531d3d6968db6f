"""Reads from Python: tiledb_codec against TileDB-Py 0.36.1, both in this
process, on the arrays of bench/make_arrays.py (the cases of bench/read.sh);
medians of --repeat runs, one markdown table with the ratios
tiledb_codec / TileDB-Py (numpy for both; Arrow for ours too).

Usage: python python_read.py ARRAYS --mib MIB [--frags N] [--repeat 5]
"""

import statistics
import sys
import time

import numpy as np
import tiledb

import tiledb_codec


def median_time(fn, repeat):
    fn()  # warm the page cache and both libraries
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv):
    root = argv[1]
    opt = lambda name, default: int(argv[argv.index(name) + 1]) if name in argv else default  # noqa: E731
    mib, frags, repeat = opt("--mib", 256), opt("--frags", 10000), opt("--repeat", 5)
    cells = mib * (1 << 20) // 8
    lo = cells // 2 - 500
    hi = lo + 999
    side = int((mib * 16384) ** 0.5)
    box = max(side // 20, 1)
    x0, y0 = side // 3, side // 2
    x1, y1 = x0 + box - 1, y0 + box - 1
    none, zstd, sparse = f"{root}/f64_none", f"{root}/f64_zstd", f"{root}/sparse_2d"
    many = f"{root}/frags_{frags}"

    def engine(uri, read):
        def f():
            with tiledb.open(uri) as A:
                return read(A)
        return f

    def ours(uri, ranges=None, where=None, attr="v", arrow=False):
        def f():
            A = tiledb_codec.open(uri)
            if arrow:
                return A.read(ranges, where=where, attrs=[attr], coords=False).column(attr)
            return A.to_numpy(ranges, where=where, attrs=[attr])[attr]
        return f

    cases = [
        (f"a. full read, {mib} MiB dense float64, no filter", engine(none, lambda A: A.query(attrs=["v"])[:]["v"]),
         none, None, None, "v"),
        (f"b. full read, {mib} MiB dense float64, ZSTD", engine(zstd, lambda A: A.query(attrs=["v"])[:]["v"]),
         zstd, None, None, "v"),
        ("c. 1,000 cells from the middle, no filter", engine(none, lambda A: A[lo:hi + 1]["v"]),
         none, {"d": (lo, hi)}, None, "v"),
        ("d. 1,000 cells from the middle, ZSTD", engine(zstd, lambda A: A[lo:hi + 1]["v"]),
         zstd, {"d": (lo, hi)}, None, "v"),
        ("e. sparse 2-D, 5% x 5% box", engine(sparse, lambda A: A.query(attrs=["a"])[x0:x1 + 1, y0:y1 + 1]["a"]),
         sparse, {"x": (x0, x1), "y": (y0, y1)}, None, "a"),
        ("f. sparse 2-D, condition a > 0.9", engine(sparse, lambda A: A.query(cond="a > 0.9", attrs=["a"])[:]["a"]),
         sparse, None, "a > 0.9", "a"),
    ]
    print("| case | TileDB-Py (numpy) | tiledb_codec numpy | ratio | tiledb_codec Arrow | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, eng, uri, ranges, where, attr in cases:
        e_vals, o_vals = eng(), ours(uri, ranges, where, attr)()
        assert len(np.ravel(e_vals)) == len(np.ravel(o_vals)), label
        assert np.isclose(np.nansum(e_vals), np.nansum(o_vals)), label
        te = median_time(eng, repeat)
        tn = median_time(ours(uri, ranges, where, attr), repeat)
        ta = median_time(ours(uri, ranges, where, attr, arrow=True), repeat)
        print(f"| {label} | {te * 1e3:.1f} ms | {tn * 1e3:.1f} ms | {tn / te:.2f} | {ta * 1e3:.1f} ms | {ta / te:.2f} |")

    def engine_open():
        with tiledb.open(many) as A:
            A.nonempty_domain()

    te = median_time(engine_open, repeat)
    to = median_time(lambda: tiledb_codec.open(many).nonempty_domain(), repeat)
    print(f"| h. open, {frags:,} fragments | {te * 1e3:.1f} ms | {to * 1e3:.1f} ms | {to / te:.2f} | | |")


if __name__ == "__main__":
    main(sys.argv)
