#!/usr/bin/env python3
"""The engine's side of tests/it/maintain_evolve.rs: schema evolution with
TileDB-Py's ArraySchemaEvolution.

Usage:
  python engine_evolve.py make DIR     create the base arrays in DIR (dense, sparse)
  python engine_evolve.py run JOBS     run the jobs of the JSON file JOBS, in order,
                                       printing one JSON line per job

Jobs:
  {"evolve": URI, "changes": {...}}   evolve URI as the changes say; prints
                                       {"ok": true} or {"error": "..."}
  {"write": URI, "t": T}              write one fragment at T through the newest schema
                                       (every attribute, generated values)
  {"account": URI}                    engine_account.py URI --cells

Changes: add_enums [{name, datatype, ordered, values}], extend {name: [values]},
add_attrs [{name, datatype, cell_val_num, nullable, fill_value, enumeration}],
drop_attrs [names], drop_enums [names], current_domain {dim: [lo, hi]},
timestamp T.  They are applied in this order (the order of the engine's own
evolve_schema does not depend on it).
"""

import contextlib
import io
import json
import os
import sys
import traceback

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_account  # noqa: E402

NP = {
    "INT8": np.int8, "UINT8": np.uint8, "INT16": np.int16, "UINT16": np.uint16,
    "INT32": np.int32, "UINT32": np.uint32, "INT64": np.int64, "UINT64": np.uint64,
    "FLOAT32": np.float32, "FLOAT64": np.float64, "BOOL": np.bool_,
    "STRING_UTF8": str, "STRING_ASCII": "ascii",
}


def make(d):
    # Dense 1-D, an enumerated attribute, two fragments.
    uri = os.path.join(d, "dense")
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 99), tile=10, dtype=np.int32))
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[
            tiledb.Attr("a", dtype=np.int32),
            tiledb.Attr("c", dtype=np.int8, enum_label="color"),
            tiledb.Attr("v", dtype=str, var=True),
        ],
        enums=[tiledb.Enumeration("color", False, ["red", "green", "blue"]),
               tiledb.Enumeration("spare", True, np.array([1.5, 2.5], np.float64))],
    )
    tiledb.Array.create(uri, schema)
    with tiledb.open(uri, "w", timestamp=1) as A:
        A[0:10] = {"a": np.arange(10, dtype=np.int32), "c": np.arange(10, dtype=np.int8) % 3,
                   "v": np.array(["v%d" % i for i in range(10)], dtype=object)}
    with tiledb.open(uri, "w", timestamp=2) as A:
        A[5:15] = {"a": -np.arange(10, dtype=np.int32), "c": np.ones(10, np.int8),
                   "v": np.array(["w%d" % i for i in range(10)], dtype=object)}
    # Sparse 2-D with a current domain and a numeric enumeration.
    uri = os.path.join(d, "sparse")
    dom = tiledb.Domain(
        tiledb.Dim("x", domain=(0, 999), tile=10, dtype=np.int64),
        tiledb.Dim("y", domain=(0, 999), tile=10, dtype=np.int64),
    )
    schema = tiledb.ArraySchema(
        domain=dom, sparse=True,
        attrs=[
            tiledb.Attr("a", dtype=np.float64),
            tiledb.Attr("n", dtype=np.uint8, enum_label="num"),
            tiledb.Attr("s", dtype=str, var=True),
        ],
        enums=[tiledb.Enumeration("num", False, np.array([10, 20, 30], np.int32)),
               tiledb.Enumeration("unused", False, ["x", "y"])],
    )
    cd = tiledb.CurrentDomain(tiledb.default_ctx())
    ndr = tiledb.NDRectangle(tiledb.default_ctx(), dom)
    ndr.set_range("x", 0, 99)
    ndr.set_range("y", 0, 99)
    cd.set_ndrectangle(ndr)
    schema.set_current_domain(cd)
    tiledb.Array.create(uri, schema)
    for t in (1, 2):
        with tiledb.open(uri, "w", timestamp=t) as A:
            x = np.arange(6, dtype=np.int64) * t
            A[x, x + 1] = {"a": x * 0.5, "n": (x % 3).astype(np.uint8),
                           "s": np.array(["s%d" % i for i in x], dtype=object)}


def evolve(uri, ch):
    se = tiledb.ArraySchemaEvolution()
    for e in ch.get("add_enums", []):
        dt = NP[e["datatype"]]
        vals = e["values"] if dt in (str, "ascii") else np.array(e["values"], dtype=dt)
        se.add_enumeration(tiledb.Enumeration(e["name"], e.get("ordered", False), vals))
    for name, vals in ch.get("extend", {}).items():
        with tiledb.open(uri) as A:
            # Array.enum takes the enumeration's name (its docs say the
            # attribute's).
            enm = A.enum(name)
        if enm.dtype.kind not in "US":
            vals = np.array(vals, dtype=enm.dtype)
        se.extend_enumeration(enm.extend(vals))
    for a in ch.get("add_attrs", []):
        dt = NP[a["datatype"]]
        kw = {}
        if a.get("fill_value") is not None:
            kw["fill"] = a["fill_value"]
        if a.get("cell_val_num") == "var":
            kw["var"] = True
        se.add_attribute(tiledb.Attr(a["name"], dtype=dt, nullable=a.get("nullable", False),
                                     enum_label=a.get("enumeration"), **kw))
    for n in ch.get("drop_attrs", []):
        se.drop_attribute(n)
    for n in ch.get("drop_enums", []):
        se.drop_enumeration(n)
    if ch.get("current_domain"):
        with tiledb.open(uri) as A:
            dom = A.schema.domain
            old = A.schema.current_domain
        ctx = tiledb.default_ctx()
        ndr = tiledb.NDRectangle(ctx, dom)
        for i in range(dom.ndim):
            name = dom.dim(i).name
            if name in ch["current_domain"]:
                lo, hi = ch["current_domain"][name]
            else:
                lo, hi = old.ndrectangle.range(name)
            ndr.set_range(name, lo, hi)
        cd = tiledb.CurrentDomain(ctx)
        cd.set_ndrectangle(ndr)
        se.expand_current_domain(cd)
    if ch.get("timestamp"):
        se.timestamp(ch["timestamp"])
    se.array_evolve(uri)


def values_for(attr, n, nenum):
    if attr.enum_label is not None:
        return (np.arange(n) % nenum[attr.enum_label]).astype(attr.dtype)
    if attr.dtype.kind in "US" or attr.isvar:
        return np.array(["n%d" % i for i in range(n)], dtype=object)
    return (np.arange(n) + 100).astype(attr.dtype)


def write(uri, t):
    with tiledb.open(uri) as A:
        schema = A.schema
        nenum = {}
        for a in schema:
            if a.enum_label is not None:
                nenum[a.enum_label] = len(A.enum(a.enum_label).values())
    n = 4
    data = {a.name: values_for(a, n, nenum) for a in schema}
    dom = schema.domain
    with tiledb.open(uri, "w", timestamp=t) as A:
        if schema.sparse:
            coords = []
            for i in range(dom.ndim):
                lo, hi = dom.dim(i).domain
                k = 50 if hi - lo >= 60 else 0
                coords.append((np.arange(n) + lo + k).astype(dom.dim(i).dtype))
            A[tuple(coords)] = data
        else:
            lo, hi = dom.dim(0).domain
            start = int(lo) + (20 if hi - lo >= 30 else 0)
            A[start:start + n] = data


def main(argv):
    if argv[0] == "make":
        make(argv[1])
        return 0
    jobs = json.load(open(argv[1]))
    for j in jobs:
        try:
            if "evolve" in j:
                evolve(j["evolve"], j["changes"])
                res = {"ok": True}
            elif "write" in j:
                write(j["write"], j["t"])
                res = {"ok": True}
            else:
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    rc = engine_account.main([j["account"], "--cells", "--indent", "0"])
                res = json.loads(out.getvalue()) if rc == 0 else {"error": "exit %s" % rc}
        except Exception as e:  # noqa: BLE001
            res = {"error": "%s: %s" % (type(e).__name__, e)}
            if os.environ.get("EVOLVE_DEBUG"):
                traceback.print_exc()
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
