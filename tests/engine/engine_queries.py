#!/usr/bin/env python3
"""Answer read queries with the TileDB engine: many in one process.

Usage:  python engine_queries.py [REQUESTS.json | -]      (default: stdin)

The input is a JSON list of requests (or one request object):

  {"array": PATH,                      the array folder
   "key": KEY or null,                 AES-256-GCM key of an encrypted array
   "ranges": {DIM: [[LO, HI], ...]},   inclusive ranges per dimension (several:
                                       a multi-range); a dimension not named is
                                       not limited (dense arrays: its non-empty
                                       domain); datetime dimensions as integers
   "cond": TEXT or null,               a TileDB-Py condition (`query(cond=...)`)
   "attrs": [NAME, ...] or null,       attributes to return (null: all)
   "order": "row-major" | "col-major" | "global" | "unordered" | null,
   "aggregates": [[OP, FIELD or null], ...] or absent}

and the output is one JSON line per request, in order, each written and
flushed before the next request runs (so that a crash of the engine on one
request leaves the answers before it, and the caller knows which one):

  {"cells": [{DIM: V, ..., ATTR: V, ...}, ...]}       a read, every dimension
                                                       and the asked attributes
  {"aggregates": {"sum(a)": V, "count(*)": N, ...}}   with "aggregates"
  {"error": TEXT}                                      the engine refused it

Cells are in the shape of `engine_account.py --cells` (its cell-to-JSON code
is imported, not copied): enumerated attributes as their indexes, nulls as
null (the query's buffers are read, not multi_index's result, which turns
indexes into labels and drops validity), dense arrays every cell of
the subarray (cells failing the condition hold fill values, as the engine
returns them). OP is count, sum, min, max, mean or null_count; `count(a)` is
the engine's count of the cells (nulls too), `count(*)` the count of any
attribute; min/max of no cell is null (NaN of a float, as "NaN").
"""

import json
import os
import sys

import numpy as np
import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_account import column, count_of, num  # noqa: E402

ORDERS = {None: "C", "row-major": "C", "col-major": "F", "global": "G", "unordered": "U"}


def bound(v, dim):
    """A range bound from JSON, as TileDB-Py wants it for `dim`."""
    if np.issubdtype(dim.dtype, np.datetime64):
        unit, _ = np.datetime_data(dim.dtype)
        return np.datetime64(int(v), unit)
    if np.issubdtype(dim.dtype, np.floating):
        return float(v)
    if np.issubdtype(dim.dtype, np.integer):
        return int(v)
    return v


def selection(A, ranges):
    """The multi_index selection: per dimension a list of inclusive slices."""
    s = A.schema
    ned = None if s.sparse else A.nonempty_domain()
    sel = []
    for i, d in enumerate(s.domain):
        rs = ranges.get(d.name)
        if rs:
            sel.append([slice(bound(lo, d), bound(hi, d)) for lo, hi in rs])
        elif ned is not None:
            sel.append(slice(ned[i][0], ned[i][1]))
        else:
            sel.append(slice(None))
    return tuple(sel)


def read(A, req):
    s = A.schema
    names = req.get("attrs")
    if names is None:
        names = [s.attr(i)._internal_name for i in range(s.nattr)]
    q = A.query(attrs=names, dims=True, cond=req.get("cond") or None,
                order=ORDERS[req.get("order")])
    fields = [(d.name, d._tiledb_dtype.name, count_of(d._ncell)) for d in s.domain]
    fields += [(n, s.attr(n)._tiledb_dtype.name, count_of(s.attr(n)._ncell)) for n in names]
    mi = q.multi_index
    mi[selection(A, req.get("ranges") or {})]
    if mi.pyquery is None:  # nothing to read
        return {"cells": []}
    # The query's own buffers, not multi_index's result: that drops the
    # validity of nullable attributes and turns enumeration indexes into
    # labels.
    raw = mi.pyquery.results()
    cols = {}
    for name, dt, cvn in fields:
        data, offsets, validity = raw[name if name != "" else "__attr"]
        if len(offsets) > 0:
            arr = mi.pyquery.unpack_buffer(name, data, offsets)
        else:
            arr = data
            arr.dtype = s.attr_or_dim_dtype(name)
        if validity is not None and len(validity) > 0 and s.has_attr(name) and s.attr(name).isnullable:
            mask = np.asarray(validity[: len(arr)]) == 0
            arr = np.ma.MaskedArray(np.asarray(arr), mask=mask)
        cols[name] = column(arr, dt, cvn)
    n = len(cols[fields[0][0]])
    return {"cells": [{name: cols[name][i] for name, _, _ in fields} for i in range(n)]}


def aggregates(A, req):
    s = A.schema
    out = {}
    sel = selection(A, req.get("ranges") or {})
    for op, field in req["aggregates"]:
        key = "%s(%s)" % (op, "*" if field is None else field)
        target = field if field is not None else s.attr(0)._internal_name
        q = A.query(cond=req.get("cond") or None, order=ORDERS[req.get("order")])
        v = q.agg({target: [op]}).multi_index[sel]
        if isinstance(v, dict):
            v = v[op]
        out[key] = None if v is None else num(v)
    return {"aggregates": out}


def answer(req):
    # Aggregates on one thread: the engine's min and max of floats are a
    # race between threads otherwise (see engine_aggregate.py).
    cfg = {"sm.compute_concurrency_level": "1"} if req.get("aggregates") is not None else {}
    if req.get("key"):
        cfg.update({"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": req["key"]})
    ctx = tiledb.Ctx(tiledb.Config(cfg))
    try:
        with tiledb.open(os.path.abspath(req["array"]), "r", ctx=ctx) as A:
            if req.get("aggregates") is not None:
                return aggregates(A, req)
            return read(A, req)
    except (tiledb.TileDBError, ValueError, TypeError, KeyError) as e:
        return {"error": "%s: %s" % (type(e).__name__, e)}


def main(argv):
    src = argv[0] if argv else "-"
    text = sys.stdin.read() if src == "-" else open(src).read()
    reqs = json.loads(text)
    if isinstance(reqs, dict):
        reqs = [reqs]
    for req in reqs:
        sys.stdout.write(json.dumps(answer(req), ensure_ascii=False, allow_nan=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
