#!/usr/bin/env python3
"""The engine's side of tests/it/delete_conditions.rs: deletes with
conditions on the kinds of fields whose comparison rules differ (fixed-size
CHAR, nullable fields, var-sized strings, enumerations, datetimes, floats
with NaNs, a string dimension, an attribute added after some fragments).

Usage:
  engine_delete_conditions.py setup ROOT CASES.json
      Makes the base arrays ROOT/base_nodups and ROOT/base_dups (sparse,
      fragments at timestamps 10, 20, 30, coordinates overlapping) and
      ROOT/base_evolved (two fragments, then the attribute `late` added by a
      schema evolution, then a fragment with it; all at the current time).
      CASES.json is a list of {"base": B, "cond": C, "path": P}: each case
      copies base B to P, where the engine deletes (unless C is empty) the
      cells for which C holds (at timestamp 40, or now for base_evolved). Prints one JSON line
      per case: {"error": null or the engine's error message}.
"""

import json
import os
import shutil
import sys

import numpy as np
import tiledb

FRUITS = ["apple", "banana", "cherry"]
WORDS = ["apple", "banana", "cherry", "date", "elder", "fig", "kiwi", ""]
TRIPLES = [b"abc", b"abz", b"bcd", b"bzz", b"xyz", b"aaa", b"cab"]
SINGLES = [b"a", b"b", b"c", b"d", b"e"]


def schema(dups):
    dom = tiledb.Domain(
        tiledb.Dim("x", domain=(0, 99), tile=10, dtype=np.int64),
        tiledb.Dim("k", dtype="ascii"),
    )
    return tiledb.ArraySchema(
        domain=dom,
        sparse=True,
        allows_duplicates=dups,
        capacity=5,
        enums=[tiledb.Enumeration("fruits", False, FRUITS)],
        attrs=[
            tiledb.Attr("c3", dtype="S3"),
            tiledb.Attr("c1", dtype="S1"),
            tiledb.Attr("n", dtype=np.int32, nullable=True),
            tiledb.Attr("ns", dtype="ascii", var=True, nullable=True),
            tiledb.Attr("s", dtype=str, var=True),
            tiledb.Attr("e", dtype=np.int8, enum_label="fruits"),
            tiledb.Attr("t", dtype="M8[D]"),
            tiledb.Attr("f", dtype=np.float32),
        ],
    )


def cells(seed, count):
    rng = np.random.default_rng(seed)
    x = np.array(rng.choice(40, count, replace=False), dtype=np.int64)
    n = rng.integers(0, 8, count).astype(np.int32)
    ns = np.array([WORDS[j] for j in rng.integers(0, len(WORDS), count)], dtype=object)
    f = np.round(rng.uniform(0, 1, count), 2).astype(np.float32)
    f[rng.integers(0, 5, count) == 0] = np.nan
    return x, np.array(["k%d" % (v % 5) for v in x], dtype=object), {
        "c3": np.array([TRIPLES[j] for j in rng.integers(0, len(TRIPLES), count)], dtype="S3"),
        "c1": np.array([SINGLES[j] for j in rng.integers(0, len(SINGLES), count)], dtype="S1"),
        "n": np.ma.masked_array(n, mask=rng.integers(0, 4, count) == 0),
        "ns": np.ma.masked_array(ns, mask=rng.integers(0, 4, count) == 0),
        "s": np.array([WORDS[j] for j in rng.integers(0, len(WORDS), count)], dtype=object),
        "e": rng.integers(0, 3, count).astype(np.int8),
        "t": rng.integers(0, 10, count).astype("M8[D]"),
        "f": f,
    }


def write(uri, t, seed, count=20, late=False):
    x, k, data = cells(seed, count)
    if late:
        data["late"] = np.arange(count, dtype=np.int32) % 10
    kw = {} if t is None else {"timestamp": t}
    with tiledb.open(uri, "w", **kw) as A:
        A[x, k] = data


def make_bases(root):
    for name, dups in (("base_nodups", False), ("base_dups", True)):
        uri = os.path.join(root, name)
        tiledb.Array.create(uri, schema(dups))
        for j, t in enumerate((10, 20, 30)):
            write(uri, t, 100 + j)
    uri = os.path.join(root, "base_evolved")
    tiledb.Array.create(uri, schema(False))
    write(uri, None, 200)
    write(uri, None, 201)
    se = tiledb.ArraySchemaEvolution(tiledb.default_ctx())
    se.add_attribute(tiledb.Attr("late", dtype=np.int32))
    se.array_evolve(uri)
    write(uri, None, 202, late=True)


def setup(root, cases):
    os.makedirs(root, exist_ok=True)
    make_bases(root)
    for c in cases:
        shutil.copytree(os.path.join(root, c["base"]), c["path"])
        err = None
        if not c["cond"]:
            print(json.dumps({"error": None}), flush=True)
            continue
        try:
            kw = {} if c["base"] == "base_evolved" else {"timestamp": 40}
            with tiledb.open(c["path"], "d", **kw) as A:
                A.query(cond=c["cond"]).submit()
        except Exception as e:  # the engine's refusal is the answer
            err = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        print(json.dumps({"error": err}), flush=True)


def main(argv):
    if argv[0] == "setup":
        with open(argv[2]) as f:
            setup(argv[1], json.load(f))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
