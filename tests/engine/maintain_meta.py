#!/usr/bin/env python3
"""Engine side of tests/it/maintain_meta.rs: runs a list of tasks in one process.

Usage:  python maintain_meta.py TASKS.json

TASKS.json is a list of tasks, each an object with an "op":

  {"op": "make", "kind": K, "path": P}          an array (or group) the test
                                                  consolidates: several
                                                  fragments, deletes, metadata
                                                  puts and deletes
  {"op": "engine", "mode": M, "src": S, "con": C, "vac": V, "key": KEY|null,
   "group": bool}                                 copy S to V, consolidate V in
                                                  mode M with the engine, copy V
                                                  to C, vacuum V in mode M
  {"op": "account", "path": P, "key": KEY|null}   engine_account.py P --cells

One JSON line per task is printed: {"ok": ...} or {"error": "..."}.
"""

import contextlib
import io
import json
import os
import shutil
import sys
import time

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_account  # noqa: E402

KEY = "0123456789abcdeF0123456789abcdeF"


def ctx_for(key):
    cfg = {}
    if key:
        cfg = {"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": key}
    return tiledb.Ctx(tiledb.Config(cfg))


def make_sparse(path, key=None):
    ctx = ctx_for(key)
    dom = tiledb.Domain(tiledb.Dim("d", domain=(1, 100), tile=10, dtype=np.int32), ctx=ctx)
    sch = tiledb.ArraySchema(
        domain=dom,
        sparse=True,
        attrs=[tiledb.Attr("a", dtype=np.int32, ctx=ctx), tiledb.Attr("s", dtype=str, ctx=ctx)],
        ctx=ctx,
    )
    tiledb.Array.create(path, sch, ctx=ctx)
    for t in range(1, 5):
        with tiledb.open(path, "w", timestamp=t, ctx=ctx) as A:
            d = np.array([t, t + 10, t + 20], dtype=np.int32)
            A[d] = {"a": d * 10, "s": np.array(["x%d" % v for v in d], dtype=object)}
            A.meta["k%d" % t] = t
            A.meta["f"] = float(t) / 2
            if t == 3:
                del A.meta["k1"]
                A.meta["text"] = "hello"
    with tiledb.open(path, "d", timestamp=5, ctx=ctx) as A:
        A.query(cond="a == 20").submit()
    with tiledb.open(path, "w", timestamp=6, ctx=ctx) as A:
        A[np.array([50, 51], dtype=np.int32)] = {
            "a": np.array([500, 510], dtype=np.int32),
            "s": np.array(["y", ""], dtype=object),
        }
        A.meta["k2"] = 22
    with tiledb.open(path, "d", timestamp=7, ctx=ctx) as A:
        A.query(cond="a == 510").submit()


def make_dense(path):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(1, 20), tile=5, dtype=np.int32))
    sch = tiledb.ArraySchema(domain=dom, sparse=False, attrs=[tiledb.Attr("a", dtype=np.int64)])
    tiledb.Array.create(path, sch)
    with tiledb.open(path, "w", timestamp=1) as A:
        A[1:21] = np.arange(20, dtype=np.int64)
        A.meta["k1"] = 1
        A.meta["k2"] = (1, 2, 3)
    with tiledb.open(path, "w", timestamp=2) as A:
        A[5:9] = np.array([-1, -2, -3, -4], dtype=np.int64)
        del A.meta["k1"]
    with tiledb.open(path, "w", timestamp=3) as A:
        A[15:18] = np.array([7, 7, 7], dtype=np.int64)
        del A.meta["k2"]


def make_group(path):
    tiledb.Group.create(path)
    for i in range(3):
        with tiledb.Group(path, "w") as G:
            G.meta["g%d" % i] = i
            if i == 2:
                del G.meta["g0"]
        time.sleep(0.005)


def make(kind, path):
    if kind == "sparse":
        make_sparse(path)
    elif kind == "encrypted":
        make_sparse(path, KEY)
    elif kind == "dense":
        make_dense(path)
    elif kind == "group":
        make_group(path)
    else:
        raise ValueError(kind)


def engine(mode, src, con, vac, key, group):
    # Consolidated and vacuumed where it lies (a group's vacuum file names
    # absolute URIs); `con` is a copy of the state in between.
    shutil.copytree(src, vac)
    if group:
        tiledb.Group.consolidate_metadata(vac)
    else:
        cfg = {"sm.consolidation.mode": mode, "sm.vacuum.mode": mode}
        if key:
            cfg.update({"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": key})
        tiledb.consolidate(vac, config=tiledb.Config(cfg), ctx=ctx_for(key))
    shutil.copytree(vac, con)
    if group:
        tiledb.Group.vacuum_metadata(vac)
    else:
        tiledb.vacuum(vac, config=tiledb.Config({"sm.vacuum.mode": mode}))


def account(path, key):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        extra = ["--key", key] if key else []
        rc = engine_account.main([path, "--cells", "--indent", "0"] + extra)
    if rc:
        raise RuntimeError("engine_account exit %s" % rc)
    return json.loads(out.getvalue())


def main():
    tasks = json.load(open(sys.argv[1]))
    for t in tasks:
        try:
            op = t["op"]
            if op == "make":
                make(t["kind"], t["path"])
                res = {"ok": None}
            elif op == "engine":
                engine(t["mode"], t["src"], t["con"], t["vac"], t.get("key"), t.get("group", False))
                res = {"ok": None}
            elif op == "account":
                res = {"ok": account(t["path"], t.get("key"))}
            else:
                raise ValueError(op)
        except Exception as e:  # reported to the test, which fails on it
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
