"""The benchmark family of sparse reads, side by side: 2-D sparse arrays of
random points and of a grid, written in 1, 4, 16 and 64 fragments that each
span the whole domain, with one or two ZSTD attributes (FLOAT64 a, INT32
b), with and without duplicates; each read (a 5% x 5% box, the selective
condition `a > 0.9`, the unselective `a > 0.1`, the full read) returns
every attribute and the coordinates. The TileDB engine (TileDB-Py, in this
Python process: `A.query(cond=...)[...]`) and tiledb-codec
(examples/family_bench.rs, a child process serving one case per line,
through the `Array` facade) take turns, case by case, each timing itself
around open + read; medians of REPEAT runs. Every case checks the engine's
cells against ours: the count and the sum of every field.

Usage: python family_bench.py EXAMPLE ARRAYDIR [--cells 4000000] [--domain 100000]
       [--repeat 5] [--only REGEX] [--s3] [--json PATH] [--order unordered|row-major]

ARRAYDIR: where the arrays are made (kept between runs; the engine writes
them). --cells: cells per array (a grid array: the largest square of at
most that many); --domain: the side of the random arrays' square domain.
--only: the cases whose label matches. --s3: the arrays are read from
moto's S3 server (copies uploaded; requests counted in its log). --order:
the order both sides are asked for, the same on both (default unordered,
the engine's default for sparse arrays; our facade's default is row-major,
so both sides are always given the order). The markdown table goes to
standard output, the JSON (bench/report.py renders it) to --json
(default bench/results/family-<date>[-s3].json).
"""
import datetime
import functools
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np
import tiledb

TARGET = 0.5
# Fragments of every array of the family.
FRAGMENTS = (1, 4, 16, 64)
# The share of a later fragment's points that rewrite earlier points.
REWRITE = 0.1


def atomic(make):
    """Makes an array under a temporary name, then renames it into place."""

    @functools.wraps(make)
    def wrapper(uri, *args, **kw):
        if os.path.exists(uri):
            return
        tmp = uri + ".partial"
        shutil.rmtree(tmp, ignore_errors=True)
        make(tmp, *args, **kw)
        os.rename(tmp, uri)

    return wrapper


@atomic
def make_array(uri, shape, cells, domain, fragments, attrs, dups):
    """Writes one array of the family (see the module's docstring)."""
    zstd = tiledb.FilterList([tiledb.ZstdFilter()])
    side = int(math.isqrt(cells)) if shape == "grid" else domain
    dims = [tiledb.Dim(n, domain=(0, side - 1), tile=max(side // 8, 1), dtype=np.int64) for n in "xy"]
    att = [tiledb.Attr("a", dtype=np.float64, filters=zstd)]
    if attrs == 2:
        att.append(tiledb.Attr("b", dtype=np.int32, filters=zstd))
    schema = tiledb.ArraySchema(
        domain=tiledb.Domain(*dims), attrs=att, sparse=True, capacity=10000, allows_duplicates=dups
    )
    tiledb.Array.create(uri, schema)
    rng = np.random.default_rng(2026 + fragments)
    if shape == "grid":
        # Every point of the grid once, shuffled across the fragments.
        parts = np.array_split(rng.permutation(side * side), fragments)
    else:
        # Random points, a tenth of each later fragment's rewriting points
        # of earlier ones (no point twice within one fragment).
        parts, seen = [], np.empty(0, dtype=np.int64)
        for i, n in enumerate(np.diff(np.linspace(0, cells, fragments + 1).astype(np.int64))):
            again = rng.choice(seen, size=int(n * REWRITE), replace=False) if i else np.empty(0, np.int64)
            fresh = rng.integers(0, side * side, size=n - len(again), dtype=np.int64)
            part = np.unique(np.concatenate([again, fresh]))
            parts.append(part)
            seen = np.concatenate([seen, part])
    for i, part in enumerate(parts):
        data = {"a": rng.random(len(part))}
        if attrs == 2:
            data["b"] = rng.integers(-(10**6), 10**6, size=len(part), dtype=np.int32)
        with tiledb.open(uri, "w", timestamp=i + 1) as A:
            A[part // side, part % side] = data


def arrays(cells, domain):
    """(name, shape, fragments, attributes, duplicates) of every array."""
    out = []
    for f in FRAGMENTS:
        out.append((f"random_f{f}_a2", "random", f, 2, False))
        out.append((f"grid_f{f}_a2", "grid", f, 2, False))
    for f in (4, 16):
        out.append((f"random_f{f}_a2_dups", "random", f, 2, True))
    out.append(("random_f4_a1", "random", 4, 1, False))
    out.append(("grid_f16_a1_dups", "grid", 16, 1, True))
    return out


def reads(shape, cells, domain):
    """(name, ranges, condition) of every read of an array."""
    side = int(math.isqrt(cells)) if shape == "grid" else domain
    box = max(side // 20, 1)
    x0, y0 = side // 3, side // 2
    return [
        ("box 5%", ((x0, x0 + box - 1), (y0, y0 + box - 1)), None),
        ("a > 0.9", None, "a > 0.9"),
        ("a > 0.1", None, "a > 0.1"),
        ("full", None, None),
    ]


class Ours:
    """The example, serving cases on its standard input."""

    def __init__(self, example, endpoint=None):
        args = [example, "serve"] + ([endpoint] if endpoint else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer:
            raise SystemExit(f"family_bench stopped on {line!r}")
        if answer.startswith("error:"):
            return None, answer
        secs, cells, sums, _cpu = answer.split()
        return float(secs), (int(cells), [float(s) for s in sums.split(",")])

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def engine_read(uri, ctx, fields, ranges, cond, order):
    """The engine's read, timed; returns (seconds, (cells, sums))."""
    kw = {"cond": cond} if cond else {}
    if order:
        kw["order"] = order
    t0 = time.perf_counter()
    with tiledb.open(uri, ctx=ctx) as A:
        q = A.query(coords=True, **kw)
        out = q[ranges[0][0] : ranges[0][1] + 1, ranges[1][0] : ranges[1][1] + 1] if ranges else q[:]
    secs = time.perf_counter() - t0
    return secs, (len(out[fields[0]]), [float(out[f].sum(dtype=np.float64)) for f in fields])


def same(engine, ours):
    """Same cells: the count, and each field's sum to a relative 1e-9."""
    if engine is None or ours is None:
        return False
    (ec, es), (oc, os_) = engine, ours
    return ec == oc and all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6) for a, b in zip(es, os_))


def machine(load):
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    return {"cpus": os.cpu_count(), "cpu_model": model, "mem_gib": round(mem, 1),
            "os": f"{platform.system()} {platform.release()}", "load_before": [round(x, 2) for x in load]}


def main(argv):
    example, root = argv[1], argv[2]

    def opt(name, default):
        return argv[argv.index(name) + 1] if name in argv else default

    cells, domain = int(opt("--cells", 4_000_000)), int(opt("--domain", 100_000))
    repeat, only = int(opt("--repeat", 5)), re.compile(opt("--only", ""))
    orders = {"unordered": "U", "row-major": "C"}
    if opt("--order", "unordered") not in orders:
        raise SystemExit(f"--order: one of {', '.join(orders)}")
    order = orders[opt("--order", "unordered")]
    s3 = "--s3" in argv
    load = os.getloadavg()
    os.makedirs(root, exist_ok=True)
    todo = []
    for name, shape, frags, attrs, dups in arrays(cells, domain):
        for read, ranges, cond in reads(shape, cells, domain):
            label = f"{shape}, {frags} fragments, {attrs} attribute{'s' if attrs > 1 else ''}" \
                    f"{', duplicates' if dups else ''}: {read}"
            if only.search(label):
                todo.append((label, name, shape, frags, attrs, dups, read, ranges, cond))
    for name, shape, frags, attrs, dups in arrays(cells, domain):
        if any(t[1] == name for t in todo):
            t = time.perf_counter()
            if not os.path.exists(os.path.join(root, name)):
                make_array(os.path.join(root, name), shape, cells, domain, frags, attrs, dups)
                print(f"made {name} in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    if "--make-only" in argv:
        return
    moto = None
    ctx = None
    if s3:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import s3_bench

        moto = s3_bench.Moto()
        ctx = s3_bench.engine_ctx(moto.endpoint)
    try:
        rows = run(example, root, todo, repeat, order, moto, ctx)
    finally:
        if moto:
            moto.close()
    report(rows, argv, cells, domain, repeat, order, s3, load, opt("--json", None))


def run(example, root, todo, repeat, order, moto, ctx):
    ours = Ours(example, moto.endpoint if moto else None)
    uris = {}
    rows = []
    for label, name, shape, frags, attrs, dups, read, ranges, cond in todo:
        if name not in uris:
            uris[name] = moto.upload(os.path.join(root, name), name) if moto else os.path.join(root, name)
        uri = uris[name]
        fields = ["a", "b", "x", "y"] if attrs == 2 else ["a", "x", "y"]
        line = f"read {uri} {','.join(fields)}"
        if order:
            line += f" order={order}"
        if ranges:
            line += f" x={ranges[0][0]}:{ranges[0][1]} y={ranges[1][0]}:{ranges[1][1]}"
        if cond:
            line += f" -- {cond}"
        e_times, o_times, e_reqs, o_reqs = [], [], [], []
        e_res = o_res = error = None
        for r in range(repeat):
            for side in ("engine", "ours") if r % 2 == 0 else ("ours", "engine"):
                before = moto.requests() if moto else 0
                if side == "engine":
                    secs, e_res = engine_read(uri, ctx, fields, ranges, cond, order)
                    e_times.append(secs)
                    if moto:
                        e_reqs.append(moto.requests() - before)
                elif error is None:
                    secs, res = ours.run(line)
                    if secs is None:
                        error = res
                        continue
                    o_times.append(secs)
                    o_res = res
                    if moto:
                        o_reqs.append(moto.requests() - before)
        e = statistics.median(e_times)
        o = statistics.median(o_times) if o_times else None
        if error:
            check = error
        elif same(e_res, o_res):
            check = "same count and sums"
        else:
            check = f"DIFFERENT CELLS: engine {e_res}, ours {o_res}"
        reqs = (statistics.median(e_reqs), statistics.median(o_reqs)) if moto and o_reqs else None
        rows.append((label, shape, frags, attrs, dups, read, e_res[0], o, e, reqs, check))
        ratio = f"{o / e:.2f}" if o else "-"
        print(f"{label}: engine {e:.4f} s, ours {o if o is None else round(o, 4)} s, ratio {ratio}; {check}",
              file=sys.stderr, flush=True)
    ours.close()
    return rows


def report(rows, argv, cells, domain, repeat, order, s3, load, json_path):
    version = ".".join(map(str, tiledb.libtiledb.version()))
    where = "from moto's S3 server" if s3 else "local files"
    named = {"U": "unordered", "C": "row-major"}[order]
    title = (f"Sparse read family, {cells:,} cells per array, {where}, {named} on both sides, "
             f"in-process on both sides, medians of {repeat}")
    columns = ["case", "shape", "fragments", "attributes", "duplicates", "read", "cells",
               "ours_s", "engine_s", "ratio"] + (["engine_requests", "our_requests"] if s3 else []) + ["check"]
    out_rows = []
    for label, shape, frags, attrs, dups, read, n, o, e, reqs, check in rows:
        row = [label, shape, frags, attrs, dups, read, n, o, e, (o / e if o else None)]
        if s3:
            row += list(reqs) if reqs else [None, None]
        out_rows.append(row + [check])
    doc = {
        "bench": "family-s3" if s3 else "family",
        "title": title,
        "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "machine": machine(load),
        "engine": f"TileDB-Py {tiledb.__version__} / TileDB {version}",
        "params": {"cells": cells, "domain": domain, "repeat": repeat, "order": order,
                   "s3": s3, "fragments": list(FRAGMENTS), "rewrite_share": REWRITE},
        "columns": columns,
        "rows": out_rows,
        "notes": ["Each side times open + read in its own process; the engine reads with "
                  "A.query(coords=True, cond=...)[...], ours with the Array facade; every field is read.",
                  "check: the engine's cell count and the sum of every field against ours."],
    }
    if json_path is None:
        stamp = doc["date"].replace(":", "").replace("-", "")[:15]
        json_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                 f"family-{stamp}{'-s3' if s3 else ''}.json")
    os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"{title}; TileDB-Py {tiledb.__version__} (TileDB {version}) against tiledb-codec; "
          f"load before the run {', '.join(f'{x:.2f}' for x in load)}.")
    print()
    head = "| case | cells | engine s | tiledb-codec s | ratio |" + (" requests (engine / ours) |" if s3 else "") \
        + " check |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for label, shape, frags, attrs, dups, read, n, o, e, reqs, check in rows:
        ot, ratio = ("-", "-") if o is None else (f"{o:.4f}", f"{o / e:.2f}")
        req = (f" {reqs[0]:.0f} / {reqs[1]:.0f} |" if reqs else " - |") if s3 else ""
        print(f"| {label} | {n:,} | {e:.4f} | {ot} | {ratio} |{req} {check} |")
    print(f"\nJSON: {json_path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
