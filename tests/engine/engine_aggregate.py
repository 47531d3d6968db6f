#!/usr/bin/env python3
"""The engine's aggregates of an array, as JSON.

Usage: engine_aggregate.py ARRAY AGGS_JSON [SUBARRAY_JSON]

AGGS_JSON is a JSON list of expressions such as ["sum(a)", "count(*)",
"null_count(n)"]; SUBARRAY_JSON a JSON list with one [lo, hi] (inclusive),
a list of such ranges (a multi-range) or null per dimension. Prints one
JSON object keyed by the expressions. Each aggregate is asked of the
engine on its own (TileDB-Py's `A.query().agg({field: op})[selection]`), so
that one the engine refuses gives {"error": message} without hiding the
others. `count(*)` is the
engine's count of the first attribute. NaN and infinities print as "NaN",
"inf", "-inf", as tiledb-codec prints them.

The engine runs on one thread (sm.compute_concurrency_level=1): its min and
max of floats are otherwise a race. Each tile's (cell slab's) extreme seeds
with its first value, NaN too, and the threads merge their results in the
order they finish, a NaN result sticking only when it comes first: on
v22/types_numeric, min(f32) over d=1:4 answers NaN or 1e30 from one run to
the next. On one thread the answer is the sequential one, which is ours.
"""

import json
import math
import sys

import tiledb


def parse(expr):
    op, _, rest = expr.strip().partition("(")
    return op.strip().lower(), rest.rstrip().rstrip(")").strip()


def plain(v):
    if v is None:
        return None
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def main():
    path, aggs = sys.argv[1], json.loads(sys.argv[2])
    sub = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    out = {}
    ctx = tiledb.Ctx(tiledb.Config({"sm.compute_concurrency_level": "1"}))
    with tiledb.open(path, ctx=ctx) as A:
        ndim = A.schema.domain.ndim
        multi = sub is not None and any(
            r is not None and isinstance(r[0], list) for r in sub
        )
        if multi:
            # multi_index: inclusive slices; a dimension without ranges
            # spans the non-empty domain (dense) or everything (sparse).
            ned = None if A.schema.sparse else A.nonempty_domain()
            sel = tuple(
                [slice(lo, hi) for lo, hi in sub[d]] if sub[d] is not None and isinstance(sub[d][0], list)
                else slice(sub[d][0], sub[d][1]) if sub[d] is not None
                else slice(ned[d][0], ned[d][1]) if ned is not None
                else slice(None)
                for d in range(ndim)
            )
        else:
            sel = tuple(
                slice(None) if sub is None or sub[d] is None else slice(sub[d][0], sub[d][1] + 1)
                for d in range(ndim)
            )
        for expr in aggs:
            op, field = parse(expr)
            if field == "*":
                field = A.schema.attr(0).name
            try:
                q = A.query().agg({field: [op]})
                v = q.multi_index[sel] if multi else q[sel]
                if isinstance(v, dict):
                    v = v[op]
                out[expr] = plain(v)
            except Exception as e:  # the engine refuses: say why
                out[expr] = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
