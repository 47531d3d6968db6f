"""Consolidation side by side: the TileDB engine (TileDB-Py,
bench/engine_consolidate.py) and tiledb-codec (examples/bench_consolidate.rs)
consolidate the fragments of the same engine-written array into one and
vacuum the rest, taking turns. Prints medians of the seconds spent in the
two calls, the ratio ours/engine and the peak resident memory of each side
as a markdown table.

Usage: python compare_consolidate.py EXAMPLE ARRAYDIR WORKDIR [--repeat 5] [--cases sparse_1000,...]

ARRAYDIR is what bench/make_consolidate_arrays.py made; EXAMPLE the built
bench_consolidate, or `none` to run the engine alone. Every run is a fresh
process on a fresh copy (under WORKDIR) of the array; each process times
only the consolidation and vacuum calls, and its peak resident memory
(ru_maxrss, from /usr/bin/time) is the run's. After every run the copy
must hold exactly one fragment and no vacuum file, and the engine must
read from it the cells it reads from the original array (count and a
SHA-256 of the cells in coordinate order).
"""
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys

import numpy as np
import tiledb

HERE = os.path.dirname(os.path.abspath(__file__))
# Our time must be at most this share of the engine's.
TARGET = 0.5
# (array, label, the engine's step_max_frags or None for one step; see
# engine_consolidate.config).
CASES = [
    ("sparse_1000", "sparse 2-D, 1,000 fragments x 4,096 cells", None),
    ("sparse_10000", "sparse 2-D, 10,000 fragments x 10 cells", 1000),
    ("dense_1000", "dense 2-D, 1,000 fragments x 1 tile (4,096 cells)", None),
]


def cells_digest(uri):
    """(cells, SHA-256) of what the engine reads from the whole array, the
    coordinates and both attributes, in coordinate order."""
    with tiledb.open(uri) as A:
        data = A[:]
        dense = not A.schema.sparse
    h = hashlib.sha256()
    if dense:
        cols = [data["a"], data["b"]]
        n = data["a"].size
    else:
        order = np.lexsort((data["y"], data["x"]))
        cols = [data[k][order] for k in ("x", "y", "a", "b")]
        n = len(order)
    for c in cols:
        h.update(np.ascontiguousarray(c).tobytes())
    return n, h.hexdigest()


def reference(root, name):
    """The original array's cells (cached next to it) and fragment count."""
    path = os.path.join(root, f"{name}.ref.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    uri = os.path.join(root, name)
    cells, digest = cells_digest(uri)
    ref = {"cells": cells, "sha256": digest, "fragments": len(tiledb.array_fragments(uri))}
    with open(path + ".tmp", "w") as f:
        json.dump(ref, f)
    os.rename(path + ".tmp", path)
    return ref


def run_child(cmd, work):
    """Runs one side under GNU time; returns (consolidate s, vacuum s, peak
    RSS KiB, the child's own further output).

    The peak is what /usr/bin/time reports (its child's ru_maxrss): a child
    started straight from this process would count this process's own peak,
    which Linux carries over into the child's ru_maxrss across the exec."""
    peak_file = os.path.join(work, "peak")
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak_file] + cmd, stdout=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stdout.strip()}")
    with open(peak_file) as f:
        peak = int(f.read().split()[-1])
    fields = p.stdout.split()
    return float(fields[0]), float(fields[1]), peak, fields[2:]


def check(uri, ref):
    """Whether the consolidated, vacuumed copy is one fragment holding the
    original's cells; returns (problem or None, cells in the fragment)."""
    frags = os.listdir(os.path.join(uri, "__fragments"))
    vac = [f for f in os.listdir(os.path.join(uri, "__commits")) if f.endswith(".vac")]
    info = tiledb.array_fragments(uri)
    if len(frags) != 1 or len(info) != 1:
        return f"{len(frags)} fragment folders, {len(info)} fragments", None
    if vac:
        return f"vacuum files left: {vac}", None
    cells, digest = cells_digest(uri)
    if (cells, digest) != (ref["cells"], ref["sha256"]):
        return f"DIFFERENT CELLS: {cells:,} read, {ref['cells']:,} expected", None
    return None, info.cell_num[0]


def main(argv):
    example, root, work = argv[1], argv[2], argv[3]
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 5
    wanted = argv[argv.index("--cases") + 1].split(",") if "--cases" in argv else [c for c, _, _ in CASES]
    engine_only = example == "none"
    os.makedirs(work, exist_ok=True)
    rows = []
    for name, label, step_max in CASES:
        if name not in wanted:
            continue
        ref = reference(root, name)
        engine_py = os.path.join(HERE, "engine_consolidate.py")
        sides = {"engine": lambda uri: [sys.executable, engine_py, uri] + ([str(step_max)] if step_max else [])}
        if step_max:
            label += f" (engine: steps of <= {step_max:,})"
        if not engine_only:
            sides["ours"] = lambda uri: [example, uri]
        runs = {s: [] for s in sides}
        notes = []
        stored = {}
        for r in range(repeat):
            order = list(sides) if r % 2 == 0 else list(sides)[::-1]
            for side in order:
                uri = os.path.join(work, f"{name}-{side}")
                shutil.rmtree(uri, ignore_errors=True)
                shutil.copytree(os.path.join(root, name), uri)
                cons, vac, peak, _ = run_child(sides[side](uri), work)
                problem, stored_cells = check(uri, ref)
                shutil.rmtree(uri)
                if problem:
                    notes.append(f"{side} run {r + 1}: {problem}")
                stored[side] = stored_cells
                runs[side].append((cons, vac, peak))
                print(f"{name} run {r + 1} {side}: consolidate {cons:.3f} s, vacuum {vac:.3f} s, "
                      f"peak {peak / 1024:.0f} MiB{'; ' + problem if problem else ''}", file=sys.stderr, flush=True)
        if not engine_only and stored.get("engine") != stored.get("ours"):
            notes.append(f"cells in the consolidated fragment: engine {stored.get('engine')}, "
                         f"ours {stored.get('ours')}")
        med = {}
        for side, rs in runs.items():
            med[side] = {
                "cons": statistics.median(c for c, _, _ in rs),
                "vac": statistics.median(v for _, v, _ in rs),
                "total": statistics.median(c + v for c, v, _ in rs),
                "peak": statistics.median(p for _, _, p in rs) / 1024,
            }
        note = "; ".join(notes) if notes else f"{ref['cells']:,} cells read back on both sides"
        rows.append((label, ref["fragments"], med, note))

    print(f"Consolidating all fragments into one, then vacuuming; medians of {repeat} runs, taking turns, "
          f"each a fresh process on a fresh copy. TileDB-Py {tiledb.__version__} "
          f"(TileDB {'.'.join(map(str, tiledb.libtiledb.version()))}) against tiledb-codec.")
    print()
    print("Times in seconds (consolidate + vacuum, in-process); peak resident memory of the process in MiB.")
    print()
    print("| case | engine (s) | tiledb-codec (s) | ratio | target | engine peak (MiB) | tiledb-codec peak (MiB) | note |")
    print("|---|---|---|---|---|---|---|---|")
    for label, _, med, note in rows:
        e, o = med["engine"], med.get("ours")
        if o is None:
            print(f"| {label} | {e['total']:.3f} | - | - | <= {TARGET} | {e['peak']:.0f} | - | {note} |")
        else:
            print(f"| {label} | {e['total']:.3f} | {o['total']:.3f} | {o['total'] / e['total']:.2f} | <= {TARGET} "
                  f"| {e['peak']:.0f} | {o['peak']:.0f} | {note} |")
    print()
    print("The two calls apart (seconds):")
    print()
    print("| case | engine consolidate | engine vacuum | tiledb-codec consolidate | tiledb-codec vacuum |")
    print("|---|---|---|---|---|")
    for label, _, med, _ in rows:
        e, o = med["engine"], med.get("ours")
        ours = f"{o['cons']:.3f} | {o['vac']:.3f}" if o else "- | -"
        print(f"| {label} | {e['cons']:.3f} | {e['vac']:.3f} | {ours} |")


if __name__ == "__main__":
    main(sys.argv)
