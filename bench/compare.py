"""Side-by-side timing of the TileDB engine (TileDB-Py) and tiledb-codec on
the same arrays, in one run. Prints medians and the ratio ours/engine.

Usage: python compare.py BINARY ARRAYDIR [--repeat N]

Reads are timed around whole commands (`tiledb-codec scan`) against
`A[:]` in Python. Opening is timed in-process on both sides, so that
neither pays for starting a process (a few milliseconds, a sizeable part
of an open): the engine's `tiledb.open` inside Python, ours by
`examples/open_fragments.rs` next to BINARY, which prints the time of one
`ArrayReader::open` (and drop) it measured itself.
"""
import os
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


def ours_open(example, uri):
    out = subprocess.run([example, uri, "--repeat", "1"], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def side_by_side_open(example, uri, repeat):
    """Medians of the engine's and our open, run alternately."""
    engine, mine = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        engine_open(uri)
        engine.append(time.perf_counter() - t0)
        mine.append(ours_open(example, uri))
    return statistics.median(engine), statistics.median(mine)


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
    example = os.path.join(os.path.dirname(binary), "examples", "open_fragments")
    e, o = side_by_side_open(example, uri, max(repeat, 11))
    rows.append(("open frags_1000", e, o, 0.5))
    print(f"| case | engine (s) | tiledb-codec (s) | ratio | target |")
    print(f"|---|---|---|---|---|")
    for case, e, o, t in rows:
        print(f"| {case} | {e:.3f} | {o:.3f} | {o / e:.2f} | {t} |")


if __name__ == "__main__":
    main(sys.argv)
