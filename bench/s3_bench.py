"""Reads from an S3 server, side by side: moto's S3 server (started here,
on a free port of 127.0.0.1) holds copies of the benchmark arrays; the
TileDB engine (TileDB-Py, in this Python process, its VFS pointed at the
server) and tiledb-codec (examples/s3_bench.rs, a child process serving one
case per line) take turns, case by case, each timing itself around open +
read. Prints medians, ratios (ours / engine) and requests as a markdown
table, with the cells each side returned.

Requests are counted on the server's side, the same way for both: moto's
server logs one line per HTTP request it answers (werkzeug's request log);
the lines a read adds are its requests (GET, HEAD and LIST alike). Ours
are also counted by the library (`ObjectStats`: GETs, HEADs counted as
GETs, and LIST pages), printed for comparison.

Usage: python s3_bench.py EXAMPLE ARRAYDIR [--mib 256] [--repeat 5] [--cases abcdefg]
       [--ours "gap=1 max=32 conc=8 ahead=128"]   (FetchOptions of our side, MiB)

ARRAYDIR is what bench/make_arrays.py made (read only: the arrays are
uploaded, not changed). --ours adds fetch options to our case lines (the
library's defaults otherwise).
"""
import concurrent.futures
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import boto3
import tiledb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "engine"))
from engine_s3_cells import config as s3_config  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_json  # noqa: E402

CACHES = (
    "Cases a-f read through one context (the engine) and one storage (ours) for all their runs, as a "
    "program reading again would: both keep small reads between reads (the engine's VFS keeps reads under "
    "100 KiB in a 10 MiB cache, vfs.read_ahead_size and vfs.read_ahead_cache_size; ours keeps tiles up to "
    "100 KiB in 10 MiB, FetchOptions::tile_cache), so a box read again fetches little on either side. "
    "Case g reads the box of d with nothing kept: a new context and a new storage for each read."
)
# Read ratios must be at most this, and our requests no more than the engine's.
TARGET = 0.5
BUCKET = "bench"
REQUEST = re.compile(r'"(?:\x1b\[[0-9;]*m)*(GET|HEAD|PUT|POST|DELETE) /')


class Moto:
    """moto's S3 server, its request log in a temporary file."""

    def __init__(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.dir = tempfile.TemporaryDirectory(prefix="s3-bench-")
        self.log_path = os.path.join(self.dir.name, "moto.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        start = time.time()
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port)).close()
                break
            except OSError:
                if time.time() - start > 30:
                    raise SystemExit("moto's server did not start")
                time.sleep(0.1)
        self.endpoint = f"127.0.0.1:{self.port}"
        self.s3 = boto3.client(
            "s3",
            endpoint_url=f"http://{self.endpoint}",
            aws_access_key_id="test",
            aws_secret_access_key="test",
            region_name="us-east-1",
        )
        self.s3.create_bucket(Bucket=BUCKET)

    def upload(self, local, name):
        """Copies the folder `local` to s3://BUCKET/name."""
        jobs = []
        for root, _, files in os.walk(local):
            for f in files:
                path = os.path.join(root, f)
                jobs.append((path, f"{name}/{os.path.relpath(path, local)}"))
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda j: self.s3.upload_file(j[0], BUCKET, j[1]), jobs))
        return f"s3://{BUCKET}/{name}"

    def requests(self):
        """Requests answered so far, once the log has stopped growing."""
        last, stable = None, 0
        while stable < 3:
            with open(self.log_path, errors="replace") as f:
                n = sum(1 for line in f if REQUEST.search(line))
            stable = stable + 1 if n == last else 0
            last = n
            time.sleep(0.05)
        return last

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()
        self.dir.cleanup()


def engine_ctx(endpoint):
    return tiledb.Ctx(tiledb.Config(s3_config(endpoint, None)))


class Ours:
    """The example, serving cases on its standard input."""

    def __init__(self, example, endpoint):
        self.proc = subprocess.Popen(
            [example, "serve", endpoint], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def run(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer:
            raise SystemExit(f"s3_bench stopped on {line!r}")
        if answer.startswith("error:"):
            return None, answer, None
        secs, cells, check, gets = answer.split()
        return float(secs), (int(cells), float(check)), int(gets)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def checked(values):
    return values.size, float(values.sum())


def same(engine, ours):
    """Same cells: the count, and the sum to a relative 1e-9 (the orders of
    summation differ)."""
    if engine is None or ours is None:
        return False
    (ec, es), (oc, os_) = engine, ours
    return ec == oc and math.isclose(es, os_, rel_tol=1e-9, abs_tol=1e-9)


def main(argv):
    example, root = argv[1], argv[2]

    def opt(name, default):
        return argv[argv.index(name) + 1] if name in argv else default

    mib, repeat = int(opt("--mib", 256)), int(opt("--repeat", 5))
    only = opt("--cases", "abcdefg")
    extra = opt("--ours", "")
    moto = Moto()
    try:
        run(moto, example, root, mib, repeat, only, extra)
    finally:
        moto.close()


def run(moto, example, root, mib, repeat, only, extra):
    load_before = results_json.load_average()
    ctx = engine_ctx(moto.endpoint)
    cells = mib * (1 << 20) // 8
    # A box of the dense array: 3/8 of it, starting and ending inside tiles.
    lo, hi = cells // 4 + 12345, cells // 4 + cells * 3 // 8 + 12344
    side = int((mib * 16384) ** 0.5)
    box = max(side // 20, 1)  # 5% of each dimension
    x0, y0 = side // 3, side // 2
    x1, y1 = x0 + box - 1, y0 + box - 1
    uploaded = {}

    def uri(name):
        if name not in uploaded:
            t = time.perf_counter()
            uploaded[name] = moto.upload(os.path.join(root, name), name)
            print(f"uploaded {name} in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
        return uploaded[name]

    def full(name):
        def f():
            with tiledb.open(uri(name), ctx=ctx) as A:
                return checked(A.query(attrs=["v"])[:]["v"])

        return f

    def dense_box():
        with tiledb.open(uri("f64_none"), ctx=ctx) as A:
            return checked(A.query(attrs=["v"])[lo : hi + 1]["v"])

    rows2d = max(cells // 8192, 1)
    r0, r1, c0, c1 = rows2d // 8 + 100, rows2d * 5 // 8 + 99, 1000, 6999

    def box_2d():
        with tiledb.open(uri("f64_2d_null"), ctx=ctx) as A:
            return checked(A.query(attrs=["v"])[r0 : r1 + 1, c0 : c1 + 1]["v"])

    def sparse_box(context=None):
        with tiledb.open(uri("sparse_2d"), ctx=context or ctx) as A:
            return checked(A.query(attrs=["a"])[x0 : x1 + 1, y0 : y1 + 1]["a"])

    class Cold:
        """The sparse box in a context of its own (made before the clock
        starts): nothing kept from earlier reads, as a new process reads."""

        def prepare(self):
            self.ctx = engine_ctx(moto.endpoint)

        def __call__(self):
            return sparse_box(self.ctx)

    mb = f"{mib} MiB"
    cases = [
        ("a", f"a. full read, {mb} dense float64, no filter", full("f64_none"), "f64_none", "v", ""),
        ("b", f"b. full read, {mb} dense float64, ZSTD", full("f64_zstd"), "f64_zstd", "v", ""),
        ("c", f"c. dense box, 3/8 of the {mb} array, no filter", dense_box, "f64_none", "v", f"d={lo}:{hi}"),
        ("d", "d. sparse 2-D, 4 fragments, 5% x 5% box", sparse_box, "sparse_2d", "a", f"x={x0}:{x1} y={y0}:{y1}"),
        ("e", f"e. full read, {mb} dense 2-D, nullable, ZSTD", full("f64_2d_null"), "f64_2d_null", "v", ""),
        ("f", "f. dense 2-D box, half the rows, 6,000 of 8,192 columns, nullable, ZSTD", box_2d, "f64_2d_null",
         "v", f"r={r0}:{r1} c={c0}:{c1}"),
        ("g", "g. the sparse box of d, cold (a new context and storage each read)", Cold(), "sparse_2d", "a",
         f"cold x={x0}:{x1} y={y0}:{y1}"),
    ]
    ours = Ours(example, moto.endpoint)
    rows = []
    for letter, label, engine_fn, name, attr, ranges in cases:
        if letter not in only:
            continue
        line = f"read {uri(name)} {attr} {extra} {ranges}".strip()
        e_times, o_times, e_reqs, o_reqs, o_gets = [], [], [], [], []
        e_res = o_res = None
        error = None
        for r in range(repeat):
            for side in ("engine", "ours") if r % 2 == 0 else ("ours", "engine"):
                before = moto.requests()
                if side == "engine":
                    if hasattr(engine_fn, "prepare"):
                        engine_fn.prepare()
                    t = time.perf_counter()
                    e_res = engine_fn()
                    e_times.append(time.perf_counter() - t)
                    e_reqs.append(moto.requests() - before)
                elif error is None:
                    secs, res, gets = ours.run(line)
                    if secs is None:
                        error = res
                        continue
                    o_times.append(secs)
                    o_res = res
                    o_gets.append(gets)
                    o_reqs.append(moto.requests() - before)
        e = statistics.median(e_times)
        o = statistics.median(o_times) if o_times else None
        if error:
            note = error
        elif same(e_res, o_res):
            note = f"{e_res[0]:,} cells, same sum"
        else:
            note = f"DIFFERENT CELLS: engine {e_res[0]:,} (sum {e_res[1]:.6g}), ours {o_res[0]:,} (sum {o_res[1]:.6g})"
        er = statistics.median(e_reqs)
        orq = statistics.median(o_reqs) if o_reqs else None
        og = statistics.median(o_gets) if o_gets else None
        rows.append((label, e, o, er, orq, og, note))
        ot = "-" if o is None else f"{o:.3f}"
        print(f"{label}: engine {e:.3f} s {er} requests, ours {ot} s {orq} requests; {note}",
              file=sys.stderr, flush=True)
    ours.close()
    print(f"Reads from moto's S3 server, medians of {repeat} runs, taking turns; TileDB-Py "
          f"{tiledb.__version__} (TileDB {'.'.join(map(str, tiledb.libtiledb.version()))}) against "
          f"tiledb-codec{' (' + extra + ')' if extra else ''}. Requests: the server's request log "
          f"(GET, HEAD, LIST); ours (ObjectStats): GETs and HEADs.")
    print()
    print("| case | engine s | tiledb-codec s | ratio | engine requests | our requests (ObjectStats GETs) | target | cells |")
    print("|---|---|---|---|---|---|---|---|")
    for label, e, o, er, orq, og, note in rows:
        if o is None:
            print(f"| {label} | {e:.3f} | - | - | {er:.0f} | - | <= {TARGET} | {note} |")
        else:
            print(f"| {label} | {e:.3f} | {o:.3f} | {o / e:.2f} | {er:.0f} | {orq:.0f} ({og:.0f}) | <= {TARGET}, "
                  f"requests <= engine's | {note} |")
    results_json.write(
        "s3",
        f"Reads from an S3 server (moto) against the engine, {mib} MiB arrays, medians of {repeat}",
        {"mib": mib, "repeat": repeat, "cases": only, "ours": extra or "library defaults"},
        ["case", "engine_s", "ours_s", "ratio", "engine_requests", "our_requests", "our_gets", "note"],
        [[label, results_json.num(e), results_json.num(o), None if o is None else round(o / e, 3), er, orq, og, note]
         for label, e, o, er, orq, og, note in rows],
        ["Times in seconds (open + read, in-process); requests counted in the server's log "
         "(GET, HEAD, LIST); our GETs as the library counts them (ObjectStats).",
         f"Targets: ratio <= {TARGET}, our requests <= the engine's.",
         CACHES],
        load_before,
    )


if __name__ == "__main__":
    main(sys.argv)
