#!/usr/bin/env python3
"""Print the cells the TileDB engine returns for a query condition, as JSON.

Usage:  python engine_query.py PATH COND
        python engine_query.py PATH --tree JSON
        python engine_query.py PATH --batch JSON

COND is a TileDB-Py condition string (`A.query(cond=COND)[:]`).  --tree gives
a condition TileDB-Py's parser cannot spell (negative members of `in`, `in`
on int16/uint8, null tests), built with TileDB-Py's lower-level
PyQueryCondition; JSON is one of

  {"and": [T, ...]}   {"or": [T, ...]}   {"not": T}
  {"field": F, "op": "lt|le|gt|ge|eq|ne", "dtype": D, "value": V}
  {"field": F, "op": "eq|ne", "value": null}                   (null test)
  {"field": F, "op": "in|not_in", "dtype": D, "values": [V, ...]}

with D a PyQueryCondition type name (int8 ... float64, string).

Output: {"cells": [...]} in the shape of `engine_account.py --cells` (its
cell-to-JSON code is imported, not copied), or {"error": "..."} when the
engine refuses the condition.  --batch takes a list of {"cond": COND} or
{"tree": JSON} and prints {"results": [...]}, one output each, in one run.
"""

import argparse
import json
import os
import sys

import numpy as np
import tiledb
import tiledb.main as qc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_account import column, count_of  # noqa: E402

OPS = {
    "lt": qc.TILEDB_LT, "le": qc.TILEDB_LE, "gt": qc.TILEDB_GT,
    "ge": qc.TILEDB_GE, "eq": qc.TILEDB_EQ, "ne": qc.TILEDB_NE,
}


def build(ctx, t):
    """A PyQueryCondition from the JSON tree `t`."""
    for comb, op in (("and", qc.TILEDB_AND), ("or", qc.TILEDB_OR)):
        if comb in t:
            kids = [build(ctx, k) for k in t[comb]]
            out = kids[0]
            for k in kids[1:]:
                out = out.combine(k, op)
            return out
    if "not" in t:
        return build(ctx, t["not"]).negate()
    field, op = t["field"], t["op"]
    if op in ("in", "not_in"):
        dtype = t["dtype"]
        values = t["values"] if dtype == "string" else list(np.array(t["values"], dtype=dtype))
        mop = qc.TILEDB_IN if op == "in" else qc.TILEDB_NOT_IN
        return getattr(qc.PyQueryCondition, "create_" + dtype)(ctx, field, values, mop)
    pyqc = qc.PyQueryCondition(ctx)
    if t.get("value") is None:
        pyqc.init_null(field, OPS[op])
    else:
        dtype = t["dtype"]
        value = t["value"] if dtype == "string" else getattr(np, dtype)(t["value"])
        getattr(pyqc, "init_" + dtype)(field, value, OPS[op])
    return pyqc


class Prebuilt(tiledb.QueryCondition):
    """A QueryCondition whose engine object is already built."""

    def __init__(self, c_obj):
        self.expression = "<prebuilt>"
        self.c_obj = c_obj

    def init_query_condition(self, uri, query_attrs, ctx):
        pass


def cells(uri, cond):
    """The engine's cells of `uri` for `cond` (a string or a PyQueryCondition)."""
    import tiledb.query_condition as mod
    if isinstance(cond, qc.PyQueryCondition):
        # TileDB-Py reads `cond` only as a string and makes its
        # QueryCondition where the read happens: hand it the prebuilt one.
        pre = Prebuilt(cond)
        mod.QueryCondition = lambda _text: pre
        cond = "<prebuilt>"
    else:
        mod.QueryCondition = ORIGINAL
    try:
        with tiledb.open(uri, "r") as A:
            s = A.schema
            # As engine_account.py's cells: A.subarray keeps enumerations as
            # their indexes; a dense array over its non-empty domain (cells
            # that fail the condition come back holding fill values).
            if s.sparse:
                res = A.subarray(slice(None), cond=cond)
            else:
                sel = tuple(slice(lo, hi + 1) for lo, hi in A.nonempty_domain())
                res = A.subarray(sel, cond=cond, coords=True)
            dims = [(d.name, d._tiledb_dtype.name, count_of(d._ncell)) for d in s.domain]
            attrs = [(a._internal_name, a._tiledb_dtype.name, count_of(a._ncell))
                     for a in (s.attr(i) for i in range(s.nattr))]
            cols = {name: column(res[name], dt, cvn) for name, dt, cvn in dims + attrs}
            n = len(next(iter(cols.values()))) if cols else 0
            return {"cells": [{name: cols[name][i] for name, _, _ in dims + attrs}
                              for i in range(n)]}
    except tiledb.TileDBError as e:
        return {"error": str(e)}


ORIGINAL = tiledb.QueryCondition


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path")
    ap.add_argument("cond", nargs="?")
    ap.add_argument("--tree", default=None)
    ap.add_argument("--batch", default=None)
    args = ap.parse_args(argv)
    uri = os.path.abspath(args.path)
    ctx = tiledb.default_ctx()

    def one(spec):
        if "tree" in spec:
            try:
                return cells(uri, build(ctx, spec["tree"]))
            except tiledb.TileDBError as e:
                return {"error": str(e)}
        return cells(uri, spec["cond"])

    if args.batch is not None:
        out = {"results": [one(spec) for spec in json.loads(args.batch)]}
    elif args.tree is not None:
        out = one({"tree": json.loads(args.tree)})
    else:
        out = one({"cond": args.cond})
    print(json.dumps(out, ensure_ascii=False, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
