#!/usr/bin/env python3
"""The engine's aggregates of an array, as JSON.

Usage: engine_aggregate.py ARRAY AGGS_JSON [SUBARRAY_JSON]

AGGS_JSON is a JSON list of expressions such as ["sum(a)", "count(*)",
"null_count(n)"]; SUBARRAY_JSON a JSON list with one [lo, hi] (inclusive) or
null per dimension. Prints one JSON object keyed by the expressions. Each
aggregate is asked of the engine on its own (TileDB-Py's
`A.query().agg({field: op})[selection]`), so that one the engine refuses
gives {"error": message} without hiding the others. `count(*)` is the
engine's count of the first attribute. NaN and infinities print as "NaN",
"inf", "-inf", as tiledb-codec prints them.
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
    with tiledb.open(path) as A:
        ndim = A.schema.domain.ndim
        sel = tuple(
            slice(None) if sub is None or sub[d] is None else slice(sub[d][0], sub[d][1] + 1)
            for d in range(ndim)
        )
        for expr in aggs:
            op, field = parse(expr)
            if field == "*":
                field = A.schema.attr(0).name
            try:
                v = A.query().agg({field: [op]})[sel]
                if isinstance(v, dict):
                    v = v[op]
                out[expr] = plain(v)
            except Exception as e:  # the engine refuses: say why
                out[expr] = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
