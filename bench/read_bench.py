"""In-process reads, side by side: the TileDB engine (TileDB-Py, in this
Python process) and tiledb-codec (examples/read_bench.rs, a child process
serving one case per line) take turns, case by case, each timing itself
around open + read + close (the engine's `with` block closes its array;
ours drops its array or reader), the result freed after the clock on both
sides. Prints medians and ratios (ours / engine) as a markdown
table, with the cells each side returned, so that a side that reads the
wrong cells is seen.

Usage: python read_bench.py EXAMPLE ARRAYDIR [--mib 256] [--frags 10000] [--repeat 5] [--cases ef]
       python read_bench.py peak ARRAY ATTR   (the engine's side of the peak-memory case)

ARRAYDIR is what bench/make_arrays.py made; EXAMPLE the built read_bench.
--cases: only the cases of these letters (a-h, k, l; i and j, the peak
memory and the memcpy bandwidth, only when named: with j, memcpy is also
taken in turns with (l) for the row m).
"""
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_json  # noqa: E402

# Read ratios must be at most this; memory within the streamed read's budget.
TARGET = 0.5
BUDGET_MIB = 256
BATCH_CELLS = 1 << 20
# The unfiltered full read's bandwidth as a fraction of memcpy's: at least.
BANDWIDTH_TARGET = 0.6
# The read into the caller's memory as a fraction of memcpy's: at least.
INTO_TARGET = 0.5


def vm_hwm():
    """Peak resident memory of this process, in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise SystemExit("no VmHWM in /proc/self/status")


def engine_peak(uri, attr):
    """A fresh process's full read `A[:]`, summed; prints VMHWM CELLS SUM."""
    with tiledb.open(uri) as A:
        data = A[:][attr]
    print(vm_hwm(), len(data), float(data.sum()))


def timed(fn):
    """Runs an engine case: the clock covers the read alone. A case that
    reads cells returns a function giving (cells, checksum), called after
    the clock stops, as our side sums its result after its clock; the
    result is freed after the clock too, on both sides."""
    t0 = time.perf_counter()
    result = fn()
    secs = time.perf_counter() - t0
    cells, check = result() if callable(result) else result
    return secs, cells, check


def checked(values):
    """The count and sum of `values`, to be taken after the clock."""
    return lambda: (len(values), float(values.sum()))


class Ours:
    """The example, serving cases on its standard input."""

    def __init__(self, example):
        self.proc = subprocess.Popen([example, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # CPU seconds (every thread) of the last case's timed part.
        self.cpu = None

    def run(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer:
            raise SystemExit(f"read_bench stopped on {line!r}")
        if answer.startswith("error:"):
            return None, answer
        secs, cells, check, cpu = answer.split()
        self.cpu = float(cpu)
        return float(secs), (int(cells), float(check))

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def cases(root, mib, frags):
    """(label, engine function, our case line, kind) per case; an engine
    function returns (cells, checksum)."""
    cells = mib * (1 << 20) // 8
    lo = cells // 2 - 500
    hi = lo + 999
    side = int((mib * 16384) ** 0.5)
    box = max(side // 20, 1)  # 5% of each dimension
    x0, y0 = side // 3, side // 2
    x1, y1 = x0 + box - 1, y0 + box - 1
    none, zstd, sparse = f"{root}/f64_none", f"{root}/f64_zstd", f"{root}/sparse_2d"
    many = f"{root}/frags_{frags}"

    def full(uri):
        def f():
            with tiledb.open(uri) as A:
                return checked(A.query(attrs=["v"])[:]["v"])

        return f

    def middle(uri):
        def f():
            with tiledb.open(uri) as A:
                return checked(A[lo : hi + 1]["v"])

        return f

    def box_read():
        with tiledb.open(sparse) as A:
            return checked(A.query(attrs=["a"])[x0 : x1 + 1, y0 : y1 + 1]["a"])

    def cond_read():
        with tiledb.open(sparse) as A:
            return checked(A.query(cond="a > 0.9", attrs=["a"])[:]["a"])

    def agg_sum():
        with tiledb.open(none) as A:
            out = A.query().agg({"v": "sum"})[:]
        s = out["v"]["sum"] if isinstance(out, dict) and isinstance(out.get("v"), dict) else out
        s = s["sum"] if isinstance(s, dict) else s
        return cells, float(s)

    def full_coords():
        with tiledb.open(none) as A:
            out = A.query(attrs=["v"], coords=True)[:]
        def check():
            cells, s = checked(out["v"])()
            return cells, s + float(out["d"].sum())

        return check

    def open_many():
        with tiledb.open(many) as A:
            A.nonempty_domain()
        return frags, 0.0

    mb = f"{mib} MiB"
    return [
        (f"a. full read, {mb} dense float64, no filter", full(none), f"read {none} v", "read"),
        (f"b. full read, {mb} dense float64, ZSTD", full(zstd), f"read {zstd} v", "read"),
        ("c. 1,000 cells from the middle, no filter", middle(none), f"read {none} v d={lo}:{hi}", "read"),
        ("d. 1,000 cells from the middle, ZSTD", middle(zstd), f"read {zstd} v d={lo}:{hi}", "read"),
        (f"e. sparse 2-D, {side * side:,} cells in 4 fragments, 5% x 5% box", box_read,
         f"read {sparse} a x={x0}:{x1} y={y0}:{y1}", "read"),
        ("f. sparse 2-D, condition a > 0.9 (~10%)", cond_read, f"cond {sparse} a a > 0.9", "read"),
        (f"g. sum over the {mb} dense array", agg_sum, f"sum {none} v", "read"),
        (f"h. open, {frags:,} fragments", open_many, f"open {many}", "open"),
        (f"k. full read with the coordinate column, {mb} dense", full_coords, f"coords {none} v", "read"),
        (f"l. full read into the caller's memory, {mb} dense float64, no filter", full(none),
         f"into {none} v", "read"),
    ]


def same(engine, ours):
    """Whether the two sides returned the same cells (count, and the sum to
    a relative 1e-9: the orders of summation differ)."""
    if engine is None or ours is None:
        return False
    (ec, es), (oc, os_) = engine, ours
    return ec == oc and math.isclose(es, os_, rel_tol=1e-9, abs_tol=1e-9)


def main(argv):
    if argv[1] == "peak":
        return engine_peak(argv[2], argv[3])
    example, root = argv[1], argv[2]
    load_before = results_json.load_average()

    def opt(name, default):
        return int(argv[argv.index(name) + 1]) if name in argv else default

    mib, frags, repeat = opt("--mib", 256), opt("--frags", 10000), opt("--repeat", 5)
    only = argv[argv.index("--cases") + 1] if "--cases" in argv else "abcdefghij"
    ours = Ours(example)
    rows = []
    full_read_ours = None
    into_ours = None
    # memcpy taken in turns with the read into the caller's memory (m), so
    # that both see the same load: (seconds, CPU seconds) each, and the
    # read's CPU seconds.
    copies_l, into_cpu = [], []
    for label, engine_fn, line, kind in cases(root, mib, frags):
        if label[0] not in only:
            continue
        e_times, o_times = [], []
        e_res = o_res = None
        error = None
        for r in range(repeat):
            # Take turns, the first side alternating.
            for side in ("engine", "ours") if r % 2 == 0 else ("ours", "engine"):
                if side == "engine":
                    secs, cells, check = timed(engine_fn)
                    e_times.append(secs)
                    e_res = (cells, check)
                elif error is None:
                    secs, res = ours.run(line)
                    if secs is None:
                        error = res
                    else:
                        o_times.append(secs)
                        o_res = res
                        if label.startswith("l.") and "j" in only:
                            into_cpu.append(ours.cpu)
                            copy = ours.run(f"memcpy {mib}")[0]
                            copies_l.append((copy, ours.cpu))
        e = statistics.median(e_times)
        o = statistics.median(o_times) if o_times else None
        if error:
            note = error
        elif kind == "open" or same(e_res, o_res):
            note = f"{e_res[0]:,} cells" if kind == "read" else f"{o_res[0]:,} fragments"
        else:
            note = f"DIFFERENT CELLS: engine {e_res[0]:,} (sum {e_res[1]:.6g}), ours {o_res[0]:,} (sum {o_res[1]:.6g})"
        rows.append((label, e, o, f"<= {TARGET}", note, "{:.4f}"))
        if label.startswith("a."):
            full_read_ours = o
        if label.startswith("l."):
            into_ours = o
        ours_text = "-" if o is None else f"{o:.4f}"
        print(f"{label}: engine {e:.4f} s, ours {ours_text} s; {note}", file=sys.stderr, flush=True)

    # i. Peak memory of a streamed read, a fresh process per side.
    if "i" in only:
        peak_rows(example, root, mib, rows)
    copies = [ours.run(f"memcpy {mib}")[0] for _ in range(repeat)] if "j" in only else None
    ours.close()
    notes = report(rows, repeat, mib, copies, full_read_ours, (into_ours, into_cpu, copies_l))
    results_json.write(
        "read",
        f"In-process reads against the engine, {mib} MiB arrays, medians of {repeat}",
        {"mib": mib, "frags": frags, "repeat": repeat, "cases": only},
        ["case", "engine_s", "ours_s", "ratio", "target", "note"],
        [[label, results_json.num(e), results_json.num(o), None if o is None else round(o / e, 3), target, note]
         for label, e, o, target, note, _ in rows],
        ["Times in seconds (open + read, in-process); the peak-memory row in MiB."] + notes,
        load_before,
    )


def peak_rows(example, root, mib, rows):
    big = f"{root}/f64_big"
    e_peak = subprocess.run([sys.executable, __file__, "peak", big, "v"], check=True, capture_output=True, text=True)
    o_peak = subprocess.run([example, "peak", big, "v", str(BUDGET_MIB), str(BATCH_CELLS)], capture_output=True, text=True)
    e_hwm, e_cells, e_sum = e_peak.stdout.split()
    if o_peak.returncode == 0:
        o_hwm, o_cells, o_sum = o_peak.stdout.split()
        ok = same((int(e_cells), float(e_sum)), (int(o_cells), float(o_sum)))
        note = f"{int(e_cells):,} cells" if ok else f"DIFFERENT CELLS: engine {e_cells}, ours {o_cells}"
        o_mib = int(o_hwm) / (1 << 20)
    else:
        note, o_mib = "error: " + o_peak.stderr.strip().replace("\n", " "), None
    rows.append((f"i. peak memory (MiB), streamed full read of {8 * mib} MiB, budget {BUDGET_MIB} MiB",
                 int(e_hwm) / (1 << 20), o_mib, f"ours <= {BUDGET_MIB} MiB", note, "{:.0f}"))


def report(rows, repeat, mib, copies, full_read_ours, into):
    # j. memcpy bandwidth in the same run, and the full read's share of it.
    bandwidth = mib / 1024 / statistics.median(copies) if copies else None
    read_bw = mib / 1024 / full_read_ours if full_read_ours else None
    into_ours, into_cpu, copies_l = into
    into_bw = mib / 1024 / into_ours if into_ours else None

    print(f"In-process reads, medians of {repeat} runs, taking turns; TileDB-Py {tiledb.__version__} "
          f"(TileDB {'.'.join(map(str, tiledb.libtiledb.version()))}) against tiledb-codec.")
    print()
    print("Times in seconds (open + read, in-process); peak memory in MiB.")
    print()
    print("| case | engine | tiledb-codec | ratio | target | cells / note |")
    print("|---|---|---|---|---|---|")
    for label, e, o, target, note, fmt in rows:
        if o is None:
            print(f"| {label} | {fmt.format(e)} | - | - | {target} | {note} |")
        else:
            print(f"| {label} | {fmt.format(e)} | {fmt.format(o)} | {o / e:.2f} | {target} | {note} |")
    notes = []
    if bandwidth is not None:
        share = f"{read_bw / bandwidth:.2f}" if read_bw else "-"
        read_bw_text = f"{read_bw:.2f} GiB/s" if read_bw else "-"
        notes.append(f"j. memcpy of {mib} MiB: {bandwidth:.2f} GiB/s; full read (a): {read_bw_text}, "
                     f"{share} of it (target >= {BANDWIDTH_TARGET})")
        print(f"| j. memcpy of {mib} MiB: {bandwidth:.2f} GiB/s; full read (a): {read_bw_text} | | | {share} "
              f"| >= {BANDWIDTH_TARGET} | |")
    if into_bw and copies_l:
        # The memcpy taken in turns with (l); CPU seconds of the timed parts
        # too (on a shared machine the ratio of wall times tends to theirs).
        copy_bw = mib / 1024 / statistics.median(c for c, _ in copies_l)
        cpu = (f"; CPU {statistics.median(into_cpu):.3f} s against memcpy's "
               f"{statistics.median(c for _, c in copies_l):.3f} s")
        print(f"| m. memcpy of {mib} MiB (in turns with l): {copy_bw:.2f} GiB/s; read into the caller's "
              f"memory (l): {into_bw:.2f} GiB/s{cpu} | | | {into_bw / copy_bw:.2f} | >= {INTO_TARGET} | |")
        notes.append(f"m. memcpy of {mib} MiB (in turns with l): {copy_bw:.2f} GiB/s; read into the caller's "
                     f"memory (l): {into_bw:.2f} GiB/s{cpu}; {into_bw / copy_bw:.2f} of it (target >= {INTO_TARGET})")
    return notes


if __name__ == "__main__":
    main(sys.argv)
