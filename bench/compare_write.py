"""Side-by-side timing of the TileDB engine (TileDB-Py) and tiledb-codec
writing the same array, in one run. Prints medians and the ratio
ours/engine.

Usage: python compare_write.py EXAMPLE OUTDIR [--mib 256] [--repeat 5]

EXAMPLE is the built `examples/write_dense.rs`. Every run is a fresh
process on each side (`engine_write.py`, EXAMPLE) that creates the array and
writes it as one fragment, and prints the seconds it spent doing so and the
CPU seconds of all its threads in that time: making the values and starting
the process are left out on both sides (the table of whole processes shows
them). On a machine other jobs load, each side's wall time follows its CPU
time and its share of the cores, so the CPU seconds are printed too. The two sides take turns, the first one
alternating, on arrays removed before each run. After the first run of each
case the engine reads the array tiledb-codec wrote and checks every value,
and the two data files are compared byte for byte.

Unfiltered, a third side takes its turn: the disk alone (EXAMPLE's `disk`
mode: the same bytes as the data file, written in 4 MiB direct writes and
synced, no array), the hardware's limit each write is measured against.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_write import values  # noqa: E402

CASES = [("none", "no filter", 0.5), ("zstd", "ZSTD (level -1)", 0.7)]


def timed(cmd):
    """(seconds the process reports, seconds of the whole process, CPU
    seconds the process reports or nan)."""
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    words = out.split()
    cpu = float(words[words.index("cpu") + 1]) if "cpu" in words else float("nan")
    return float(words[-1]), time.perf_counter() - t0, cpu


def data_files(uri):
    """The attribute's data file of the array's one fragment."""
    frags = os.path.join(uri, "__fragments")
    (frag,) = os.listdir(frags)
    return os.path.join(frags, frag, "a0.tdb")


def same_bytes(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        while True:
            p, q = x.read(1 << 24), y.read(1 << 24)
            if p != q:
                return False
            if not p:
                return True


def check(uri, mib):
    with tiledb.open(uri) as A:
        got = A[:]["v"]
    want = values(mib * (1 << 20) // 8)
    if not np.array_equal(got, want):
        raise SystemExit(f"{uri}: the engine reads other values than were written")


def main(argv):
    example, root = argv[1], argv[2]
    mib = int(argv[argv.index("--mib") + 1]) if "--mib" in argv else 256
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 5
    engine_py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_write.py")
    os.makedirs(root, exist_ok=True)
    rows = []
    for filt, label, target in CASES:
        e_uri, o_uri = os.path.join(root, f"engine_{filt}"), os.path.join(root, f"ours_{filt}")
        engine = [sys.executable, engine_py, e_uri, "--mib", str(mib), "--filter", filt]
        ours = [example, o_uri, str(mib), filt]
        runs = {"engine": [], "ours": []}
        d_uri = os.path.join(root, "disk")
        if filt == "none":
            runs["disk"] = []
        for r in range(repeat):
            order = [("engine", engine, e_uri), ("ours", ours, o_uri)]
            if filt == "none":
                order.append(("disk", [example, d_uri, str(mib), "disk"], d_uri))
            for side, cmd, uri in order if r % 2 == 0 else order[::-1]:
                shutil.rmtree(uri, ignore_errors=True)
                if os.path.isfile(uri):
                    os.remove(uri)
                runs[side].append(timed(cmd))
            (e, _, ec), (o, _, oc) = runs["engine"][-1], runs["ours"][-1]
            print(f"write {filt} run {r + 1}: engine {e:.3f} s ({ec:.2f} s CPU), tiledb-codec {o:.3f} s"
                  f" ({oc:.2f} s CPU), ratio {o / e:.2f} (CPU {oc / ec:.2f})", file=sys.stderr, flush=True)
            if r == 0:
                check(o_uri, mib)
                a, b = data_files(e_uri), data_files(o_uri)
                same = "identical" if same_bytes(a, b) else "different"
                print(f"  the engine reads back what tiledb-codec wrote; data files {same}"
                      f" ({os.path.getsize(a)} and {os.path.getsize(b)} bytes)", file=sys.stderr, flush=True)
                if "disk" in runs and not same_bytes(d_uri, b):
                    raise SystemExit("the disk-alone run wrote other bytes than tiledb-codec's data file")
            if "disk" in runs:
                d = runs["disk"][-1][0]
                print(f"  the disk alone (the same bytes): {d:.3f} s", file=sys.stderr, flush=True)
        shutil.rmtree(e_uri, ignore_errors=True)
        shutil.rmtree(o_uri, ignore_errors=True)
        if os.path.isfile(d_uri):
            os.remove(d_uri)
        med = {s: [statistics.median(t[i] for t in runs[s]) for i in (0, 1, 2)] for s in runs}
        rows.append((label, med["engine"], med["ours"], target))
        if "disk" in med:
            disk_row = (label, med["disk"][0], med["engine"][0], med["ours"][0])
    print(f"Writing {mib} MiB of float64 (1-D dense, 8 MiB tiles, one fragment); medians of {repeat} runs.")
    print()
    print("| case | engine (s) | tiledb-codec (s) | ratio | target |")
    print("|---|---|---|---|---|")
    for label, e, o, t in rows:
        print(f"| write, {label} | {e[0]:.3f} | {o[0]:.3f} | {o[0] / e[0]:.2f} | {t} |")
    print()
    print("The disk alone (the data file's bytes in 4 MiB direct writes and a sync, no array),"
          " taking its turn in the same runs, and each side's share of its bandwidth:")
    print()
    print("| case | disk alone (s) | engine | tiledb-codec |")
    print("|---|---|---|---|")
    label, d, e, o = disk_row
    print(f"| write, {label} | {d:.3f} | {d / e:.2f} | {d / o:.2f} |")
    print()
    print("CPU seconds of every thread in the same time (user and system):")
    print()
    print("| case | engine (s) | tiledb-codec (s) | ratio |")
    print("|---|---|---|---|")
    for label, e, o, _ in rows:
        print(f"| write, {label} | {e[2]:.2f} | {o[2]:.2f} | {o[2] / e[2]:.2f} |")
    print()
    print("Whole processes (with interpreter or process start and making the values):")
    print()
    print("| case | engine (s) | tiledb-codec (s) | ratio |")
    print("|---|---|---|---|")
    for label, e, o, _ in rows:
        print(f"| write, {label} | {e[1]:.3f} | {o[1]:.3f} | {o[1] / e[1]:.2f} |")


if __name__ == "__main__":
    main(sys.argv)
