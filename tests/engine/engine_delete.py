#!/usr/bin/env python3
"""The engine's side of tests/it/maintain_delete.rs: deletes as TileDB performs them.

Usage:
  engine_delete.py setup ROOT CASES.json
      Makes the base arrays in ROOT/base_* (sparse, several fragments at
      timestamps 10, 20, 30; see make_bases) and runs the cases. CASES.json
      is a list of
        {"kind": "delete", "base": B, "cond": C, "eng": P1, "ours": P2}
        {"kind": "refuse", "base": B, "cond": C, "eng": P1, "ours": P2}
        {"kind": "fragments", "base": B, "range": [T1, T2], "eng": P1, "ours": P2, "dry": P3}
      Each case copies base B to its paths; on P1 the engine deletes (the
      cells for which C holds, at timestamp 40, or the fragments within
      [T1, T2]). Prints one JSON line per case: {"error": null or the
      engine's error message}.
  engine_delete.py read ROOT PATH[:write] ...
      For each PATH prints one JSON line: the engine's account with cells
      (engine_account.py), or {"error": ...}; with ":write", first writes one
      more fragment at timestamp 50 (cells that the deletes' conditions
      match).
"""

import contextlib
import io
import json
import os
import shutil
import sys

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_account  # noqa: E402

COLORS = ["red", "green", "blue"]
LEVELS = np.array([10, 20, 30, 40], dtype=np.int32)
WORDS = ["apple", "banana", "cherry", "date", "elder", "fig", "grape", "kiwi", ""]


def schema(dups):
    dom = tiledb.Domain(
        tiledb.Dim("x", domain=(0, 99), tile=10, dtype=np.int64),
        tiledb.Dim("s", dtype="ascii"),
    )
    return tiledb.ArraySchema(
        domain=dom,
        sparse=True,
        allows_duplicates=dups,
        capacity=7,
        enums=[
            tiledb.Enumeration("colors", False, COLORS),
            tiledb.Enumeration("levels", True, LEVELS),
        ],
        attrs=[
            tiledb.Attr("i", dtype=np.int32),
            tiledb.Attr("f", dtype=np.float64),
            tiledb.Attr("u", dtype=np.uint8),
            tiledb.Attr("str", dtype=str, var=True),
            tiledb.Attr("n", dtype=np.int32, nullable=True),
            tiledb.Attr("ns", dtype="ascii", var=True, nullable=True),
            tiledb.Attr("e", dtype=np.int8, enum_label="colors"),
            tiledb.Attr("o", dtype=np.uint16, enum_label="levels"),
        ],
    )


def cells(seed, count, xs=None):
    rng = np.random.default_rng(seed)
    x = np.array(xs if xs is not None else rng.choice(60, count, replace=False), dtype=np.int64)
    count = len(x)
    n = rng.integers(0, 10, count).astype(np.int32)
    ns = np.array([WORDS[k] for k in rng.integers(0, len(WORDS), count)], dtype=object)
    return x, np.array(["k%d" % (v % 7) for v in x], dtype=object), {
        "i": rng.integers(0, 12, count).astype(np.int32),
        "f": np.round(rng.uniform(0, 10, count), 2),
        "u": rng.integers(0, 10, count).astype(np.uint8),
        "str": np.array([WORDS[k] for k in rng.integers(0, len(WORDS) - 1, count)], dtype=object),
        "n": np.ma.masked_array(n, mask=rng.integers(0, 4, count) == 0),
        "ns": np.ma.masked_array(ns, mask=rng.integers(0, 4, count) == 0),
        "e": rng.integers(0, 3, count).astype(np.int8),
        "o": rng.integers(0, 4, count).astype(np.uint16),
    }


def write(uri, t, seed, count=24, xs=None):
    x, s, data = cells(seed, count, xs)
    with tiledb.open(uri, "w", timestamp=t) as A:
        A[x, s] = data


def make_bases(root):
    """base_nodups / base_dups: three fragments (10, 20, 30), coordinates
    overlapping; base_concommits: base_nodups after commits consolidation;
    base_confrags: base_nodups after fragment consolidation (not vacuumed);
    base_dense: a dense array."""
    for name, dups in (("base_nodups", False), ("base_dups", True)):
        uri = os.path.join(root, name)
        tiledb.Array.create(uri, schema(dups))
        for k, t in enumerate((10, 20, 30)):
            write(uri, t, 100 + k)
    con = os.path.join(root, "base_concommits")
    shutil.copytree(os.path.join(root, "base_nodups"), con)
    write(con, 35, 200, count=5)
    tiledb.consolidate(con, config=tiledb.Config({"sm.consolidation.mode": "commits"}))
    frag = os.path.join(root, "base_confrags")
    shutil.copytree(os.path.join(root, "base_nodups"), frag)
    tiledb.consolidate(
        frag,
        config=tiledb.Config(
            {
                "sm.consolidation.mode": "fragments",
                "sm.consolidation.timestamp_start": 10,
                "sm.consolidation.timestamp_end": 20,
            }
        ),
    )
    write(frag, 30, 300, count=5)
    dense = os.path.join(root, "base_dense")
    tiledb.Array.create(
        dense,
        tiledb.ArraySchema(
            domain=tiledb.Domain(tiledb.Dim("d", domain=(0, 9), tile=5, dtype=np.int32)),
            attrs=[tiledb.Attr("a", dtype=np.int32)],
        ),
    )
    with tiledb.open(dense, "w", timestamp=10) as A:
        A[:] = np.arange(10, dtype=np.int32)


def setup(root, cases):
    os.makedirs(root, exist_ok=True)
    make_bases(root)
    for c in cases:
        base = os.path.join(root, c["base"])
        for key in ("eng", "ours", "dry"):
            if key in c:
                shutil.copytree(base, c[key])
        err = None
        try:
            if c["kind"] == "fragments":
                tiledb.Array.delete_fragments(c["eng"], c["range"][0], c["range"][1])
            else:
                with tiledb.open(c["eng"], "d", timestamp=40) as A:
                    A.query(cond=c["cond"]).submit()
        except Exception as e:  # the engine's refusal is the answer
            err = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        print(json.dumps({"error": err}), flush=True)


def read(paths):
    for p in paths:
        path, _, mode = p.partition(":")
        out = io.StringIO()
        try:
            if mode == "write":
                write(path, 50, 400, xs=list(range(0, 60, 3)))
            with contextlib.redirect_stdout(out):
                rc = engine_account.main([path, "--cells", "--indent", "0"])
            res = json.loads(out.getvalue()) if rc == 0 else {"error": "exit %s" % rc}
        except Exception as e:
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(res), flush=True)


def main(argv):
    if argv[0] == "setup":
        with open(argv[2]) as f:
            setup(argv[1], json.load(f))
    elif argv[0] == "read":
        read(argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
