"""The floor of bench/s3.sh's boxes on moto's S3 server: how long the server
takes to serve the bytes a box needs with the fewest requests, measured
with curl (a C client, its requests signed with --aws-sigv4), beside the
engine's and our times in the same server, taking turns; medians of
REPEAT. When the engine's time is under twice the floor, no client can read
the box in half the engine's time from this server.

- c (dense box, 3/8 of the unfiltered array): one ranged GET of the box's
  bytes of the attribute's file.
- d (sparse 5% x 5% box, 4 fragments): the listing of the array (one LIST)
  and one ranged GET of 4 KiB from each tile file the box reads (3 fields
  of 4 fragments), 12 at once; the metadata an open reads besides is left
  out (both sides may keep it between reads).

curl's own start (one 1-byte GET of the array's schema) is timed too and
taken off the floors.

Usage: python s3_floor.py S3_BENCH_EXAMPLE ARRAYDIR [--mib 64] [--repeat 7]
(ARRAYDIR: what bench/make_arrays.py made; bench/s3.sh's arrays.) Prints
one line per measurement and writes bench/results/s3-floor-<date>.json.
"""
import os
import statistics
import subprocess
import sys
import time

import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_json  # noqa: E402
import s3_bench  # noqa: E402


def main(argv):
    example, root = argv[1], argv[2]

    def opt(name, default):
        return argv[argv.index(name) + 1] if name in argv else default

    mib, repeat = int(opt("--mib", 64)), int(opt("--repeat", 7))
    load = results_json.load_average()
    moto = s3_bench.Moto()
    try:
        rows = measure(moto, example, root, mib, repeat)
    finally:
        moto.close()
    for r in rows:
        print(f"{r[0]}: median {r[1] * 1000:.1f} ms, min {r[2] * 1000:.1f} ms")
    results_json.write(
        "s3-floor",
        f"The floor of the S3 boxes on moto's server, {mib} MiB arrays, medians of {repeat}",
        {"mib": mib, "repeat": repeat},
        ["measurement", "median_s", "min_s"],
        [[m, results_json.num(a), results_json.num(b)] for m, a, b in rows],
        ["Floors: curl's time less its own start (a 1-byte GET); engine and ours: open + read, "
         "in-process, as bench/s3.sh times them.",
         "moto reads a whole object to answer a ranged GET of it: a request costs about the object's "
         "size, and concurrent requests take turns (one Python process)."],
        load,
    )


def measure(moto, example, root, mib, repeat):
    uri = {n: moto.upload(os.path.join(root, n), n) for n in ("f64_none", "sparse_2d")}
    objs = {}
    for p in ("f64_none/", "sparse_2d/"):
        for o in moto.s3.list_objects_v2(Bucket=s3_bench.BUCKET, Prefix=p)["Contents"]:
            objs[o["Key"]] = o["Size"]
    data = max((k for k in objs if k.startswith("f64_none/")), key=objs.get)
    schema = next(k for k in objs if k.startswith("f64_none/__schema/"))
    tiles = [k for k in objs if k.startswith("sparse_2d/__fragments/")
             and k.rsplit("/", 1)[1] in ("a0.tdb", "d0.tdb", "d1.tdb")]
    # The boxes of bench/s3_bench.py.
    cells = mib * (1 << 20) // 8
    lo, hi = cells // 4 + 12345, cells // 4 + cells * 3 // 8 + 12344
    side = int((mib * 16384) ** 0.5)
    box = max(side // 20, 1)
    x0, y0 = side // 3, side // 2
    x1, y1 = x0 + box - 1, y0 + box - 1
    base = f"http://{moto.endpoint}/{s3_bench.BUCKET}/"
    sign = ["--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "test:test"]

    def curl(args):
        t = time.perf_counter()
        subprocess.run(["curl", "-s", "-f"] + sign + args, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    start = ["-o", "/dev/null", "-r", "0-0", base + schema]
    floor_c = ["-o", "/dev/null", "-r", f"{lo * 8}-{hi * 8 + 7}", base + data]
    listing = ["-o", "/dev/null", f"http://{moto.endpoint}/{s3_bench.BUCKET}?list-type=2&prefix=sparse_2d/"]
    gets = []
    for k in tiles:
        gets += ["-o", "/dev/null", "-r", "0-4095", base + k]
    floor_d = listing + ["--parallel", "--parallel-max", str(len(tiles))] + gets
    ctx = s3_bench.engine_ctx(moto.endpoint)
    ours = s3_bench.Ours(example, moto.endpoint)

    def engine_c():
        t = time.perf_counter()
        with tiledb.open(uri["f64_none"], ctx=ctx) as A:
            A.query(attrs=["v"])[lo: hi + 1]["v"]
        return time.perf_counter() - t

    def engine_d():
        t = time.perf_counter()
        with tiledb.open(uri["sparse_2d"], ctx=ctx) as A:
            A.query(attrs=["a"])[x0: x1 + 1, y0: y1 + 1]["a"]
        return time.perf_counter() - t

    line_c = f"read {uri['f64_none']} v d={lo}:{hi}"
    line_d = f"read {uri['sparse_2d']} a x={x0}:{x1} y={y0}:{y1}"
    cases = [
        ("curl's start (one 1-byte GET)", lambda: curl(start)),
        ("c floor: one GET of the box's bytes", lambda: curl(floor_c)),
        ("c engine", engine_c),
        ("c ours", lambda: ours.run(line_c)[0]),
        (f"d floor: LIST + {len(tiles)} GETs at once", lambda: curl(floor_d)),
        ("d engine", engine_d),
        ("d ours", lambda: ours.run(line_d)[0]),
    ]
    # Untimed first reads: the storages made, the engine's context warm.
    engine_c(), engine_d(), ours.run(line_c), ours.run(line_d)
    times = {name: [] for name, _ in cases}
    for r in range(repeat):
        for name, f in cases if r % 2 == 0 else cases[::-1]:
            times[name].append(f())
    ours.close()
    own = statistics.median(times[cases[0][0]])
    rows = []
    for name, ts in times.items():
        if "floor" in name:
            ts = [max(t - own, 0.0) for t in ts]
        rows.append((name, statistics.median(ts), min(ts)))
    return rows


if __name__ == "__main__":
    main(sys.argv)
