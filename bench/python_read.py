"""Reads from Python: tiledb_codec against TileDB-Py 0.36.1, both in this
process, on the arrays of bench/make_arrays.py (the cases of bench/read.sh);
medians of --repeat runs, one markdown table with the ratios
tiledb_codec / TileDB-Py (numpy for both; Arrow for ours too).

With --rust READ_BENCH (examples/read_bench.rs, release), the Rust read of
the full unfiltered array (ArrayReader::open + read, timed inside that
process) is measured in the same run, taking turns with the Python reads,
and the numpy read's time is given as a multiple of it.

Usage: python python_read.py ARRAYS --mib MIB [--frags N] [--repeat 5] [--rust READ_BENCH]
"""

import statistics
import subprocess
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
    rust = argv[argv.index("--rust") + 1] if "--rust" in argv else None
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

    if rust is not None:
        # The Rust read and ours into numpy, taking turns, each timed in
        # its own process (the Rust side by itself, as read_bench does).
        proc = subprocess.Popen([rust, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def rust_read():
            proc.stdin.write(f"read {none} v\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().split()
            if len(answer) != 4:
                raise SystemExit(f"read_bench: {' '.join(answer)}")
            return float(answer[0])

        ours_numpy = ours(none, None, None, "v")
        rust_read(), ours_numpy()
        tr, tn = [], []
        for _ in range(repeat):
            tr.append(rust_read())
            t = time.perf_counter()
            ours_numpy()
            tn.append(time.perf_counter() - t)
        proc.stdin.close()
        proc.wait()
        r, n = statistics.median(tr), statistics.median(tn)
        print(f"\nfull read, {mib} MiB unfiltered: Rust (ArrayReader::read) {r * 1e3:.1f} ms, "
              f"tiledb_codec into numpy {n * 1e3:.1f} ms: {n / r:.2f}x the Rust read")


if __name__ == "__main__":
    main(sys.argv)
