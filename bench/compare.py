"""Side-by-side timing of the TileDB engine (TileDB-Py) and tiledb-codec on
the same arrays, in one run. Prints medians and the ratio ours/engine.

Usage: python compare.py BINARY ARRAYDIR [--repeat N]
"""
import statistics
import subprocess
import sys
import time

import tiledb


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def engine_read(uri):
    with tiledb.open(uri) as A:
        data = A[:]
    return data


def engine_open(uri):
    with tiledb.open(uri) as A:
        A.nonempty_domain()


def ours(binary, *args):
    subprocess.run([binary, *args], check=True, stdout=subprocess.DEVNULL)


def main(argv):
    binary, root = argv[1], argv[2]
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 5
    rows = []
    for name, target in [("f64_none", 0.33), ("f64_zstd", 0.6), ("f64_shuffle_lz4", 0.6)]:
        uri = f"{root}/{name}"
        e = median_time(lambda: engine_read(uri), repeat)
        o = median_time(lambda: ours(binary, "scan", uri), repeat)
        rows.append((f"read {name}", e, o, target))
    uri = f"{root}/frags_1000"
    e = median_time(lambda: engine_open(uri), repeat)
    o = median_time(lambda: ours(binary, "scan", "--open-only", uri), repeat)
    rows.append(("open frags_1000", e, o, 0.5))
    print(f"| case | engine (s) | tiledb-codec (s) | ratio | target |")
    print(f"|---|---|---|---|---|")
    for case, e, o, t in rows:
        print(f"| {case} | {e:.3f} | {o:.3f} | {o / e:.2f} | {t} |")


if __name__ == "__main__":
    main(sys.argv)
