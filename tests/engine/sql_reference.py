"""The answers of tests/it/sql.rs's queries, computed without SQL: the engine
(TileDB-Py) reads the arrays, pyarrow filters, groups, sorts and joins.

Usage: python sql_reference.py FIXTURES CASE...

Prints one JSON object: {CASE: [[value, ...] per row, ...]}, the columns in
the order of the query's SELECT list. A dense array's table is the cells
of the box around its fragments' non-empty domains (what a read without
ranges returns); a sparse array's is every cell the engine reads.
"""
import json
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import tiledb


def column(v):
    if isinstance(v, np.ma.MaskedArray):
        data, mask = v.data, np.ma.getmaskarray(v)
    else:
        data, mask = v, None
    data = np.asarray(data).ravel()
    if data.dtype.kind == "S" or (data.dtype == object and len(data) and isinstance(data[0], bytes)):
        data = np.array([bytes(b).decode("utf-8") for b in data], dtype=object)
    return pa.array(data, mask=None if mask is None else np.asarray(mask).ravel())


def load(fixtures, name):
    """The array's cells as a pyarrow table, read by the engine."""
    uri = os.path.join(fixtures, name)
    with tiledb.open(uri) as A:
        if A.schema.sparse:
            cells = A[:]
        else:
            ned = A.nonempty_domain()
            cells = A.query(coords=True)[tuple(slice(lo, hi + 1) for lo, hi in ned)]
        names = [d.name for d in A.schema.domain] + [a.name for a in A.schema]
        return pa.table({n: column(cells[n]) for n in names})


def rows(t, cols):
    return [[r[c] for c in cols] for r in t.select(cols).to_pylist()]


def dims_range(f):
    t = load(f, "sparse_int_2d")
    m = pc.and_(pc.and_(pc.greater_equal(t["r"], 10), pc.less_equal(t["r"], 50)), pc.less(t["c"], 60))
    return rows(t.filter(m), ["r", "c", "a"])


def attr_condition(f):
    t = load(f, "sparse_int_2d")
    m = pc.and_(pc.greater(t["a"], 5), pc.less(t["b"], 100.0))
    return rows(t.filter(m), ["r", "c", "a", "b"])


def chunked_aggregate(f):
    t = load(f, "sparse_chunked")
    t = t.filter(pc.and_(pc.less(t["r"], 400), pc.greater_equal(t["c"], 50)))
    v = t["v"]
    return [[len(t), pc.sum(v).as_py(), pc.min(v).as_py(), pc.max(v).as_py()]]


def group_by(f):
    t = load(f, "sparse_chunked")
    t = t.filter(pc.greater(t["s"], "m"))
    t = t.append_column("k", pc.remainder(t["r"], 7))
    g = t.group_by("k").aggregate([("v", "count"), ("v", "sum")]).sort_by("k")
    return rows(g, ["k", "v_count", "v_sum"])


def enum_filter(f):
    t = load(f, "enumerations")
    t = t.filter(pc.is_in(t["color"], pa.array(["red", "blue"])))
    return rows(t, ["d", "color", "size", "x"])


def nullable(f):
    t = load(f, "nullable_var_sparse")
    t = t.filter(pc.and_(pc.is_valid(t["n"]), pc.less_equal(t["d"], 40)))
    return rows(t, ["d", "n", "s"])


def nullable_not(f):
    t = load(f, "nullable_var_sparse")
    # Filtering drops the rows whose mask is null, as WHERE does.
    t = t.filter(pc.invert(pc.less(t["n"], 3)))
    return rows(t, ["d", "f"])


def string_dim(f):
    t = load(f, "sparse_strdim")
    t = t.filter(pc.and_(pc.greater_equal(t["s"], "apple"), pc.less(t["s"], "cherry")))
    return rows(t.sort_by("s"), ["s", "i", "v", "t"])


def dense_range(f):
    t = load(f, "dense_int_2d")
    t = t.filter(pc.greater(t["cols"], 2)).sort_by([("rows", "ascending"), ("cols", "ascending")])
    return rows(t, ["rows", "cols", "a", "b"])


def float_dims(f):
    t = load(f, "sparse_float_dims")
    t = t.filter(pc.and_(pc.less(t["x"], 0.0), pc.greater_equal(t["y"], 0.25)))
    t = t.sort_by([("x", "ascending"), ("y", "ascending")])
    return rows(t, ["x", "y", "v"])


def dups(f):
    t = load(f, "sparse_dups_2d")
    g = t.group_by(["x", "y"]).aggregate([("v", "count"), ("v", "sum")])
    g = g.filter(pc.greater(g["v_count"], 1)).sort_by([("x", "ascending"), ("y", "ascending")])
    return rows(g, ["x", "y", "v_count", "v_sum"])


def join(f):
    s = load(f, "sparse_delete")
    n = load(f, "dense_var_nullable").select(["d", "n"])
    j = s.join(n, "d", join_type="inner")
    j = j.filter(pc.is_valid(j["n"])).sort_by("d")
    return rows(j, ["d", "a", "n"])


def dense_numeric(f):
    t = load(f, "types_numeric")
    t = t.filter(pc.or_(pc.less(t["i8"], 0), pc.greater(t["u16"], 3)))
    return rows(t, ["d", "i8", "u16", "u64", "b"])


def top(f):
    t = load(f, "sparse_int_2d")
    t = t.sort_by([("a", "descending"), ("r", "ascending"), ("c", "ascending")]).slice(0, 3)
    return rows(t, ["r", "c", "a"])


def count_deleted(f):
    t = load(f, "sparse_delete")
    return [[len(t), pc.sum(t["a"]).as_py()]]


def main(argv):
    fixtures = argv[1]
    out = {case: globals()[case](fixtures) for case in argv[2:]}
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
