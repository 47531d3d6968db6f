"""A TileDB-Py-compatible read API, for code moving from TileDB-Py:

    import tiledb_codec.compat as tiledb
    with tiledb.open(uri) as A:
        A[1:3, 2:6]["a"]                          # half-open slices, as TileDB-Py
        A.multi_index[1:2, [2, slice(4, 5)]]      # inclusive ranges, lists of ranges
        A.query(attrs=["a"], cond="a > 5", coords=True).multi_index[:]
        A.query(attrs=["a"]).df[0:3]              # a pandas.DataFrame, as TileDB-Py

Results are ``OrderedDict``s of numpy arrays as TileDB-Py 0.36 gives them:
dense reads shaped as the subarray, attributes only unless ``coords=True``
(or ``dims=``); sparse reads 1-D with the dimensions. One difference is on
purpose: ``multi_index`` keeps the validity of nullable attributes (masked
arrays) where TileDB-Py drops it (python/tests/test_compat.py records it).
Writes stay in the native API (:mod:`tiledb_codec`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

import tiledb_codec
from tiledb_codec import TileDBCodecError

__all__ = ["open", "CompatArray", "TileDBCodecError"]


def open(uri: Any, mode: str = "r", key: Any = None, timestamp: Any = None, **_ignored: Any) -> "CompatArray":
    """Opens an array for reading (``mode="r"`` only)."""
    if mode != "r":
        raise TileDBCodecError("tiledb_codec.compat reads only; write with tiledb_codec.Array.write")
    return CompatArray(tiledb_codec.open(uri, timestamp=timestamp, key=key))


def _ranges(array: tiledb_codec.Array, sel: Any, inclusive: bool) -> List[Tuple[str, List[Tuple[Any, Any]]]]:
    """TileDB-Py's selection (per dimension: a slice, a point, a list of
    those) as ranges; ``inclusive=False``: slices are half-open (``A[...]``)."""
    dims = array.schema.dims
    if not isinstance(sel, tuple):
        sel = (sel,)
    if len(sel) > len(dims):
        raise TileDBCodecError(f"{len(sel)} selections for {len(dims)} dimensions")
    out = []
    for d, s in zip(dims, sel):
        items = s if isinstance(s, list) else [s]
        rs: List[Tuple[Any, Any]] = []
        for it in items:
            if isinstance(it, slice):
                if it.step not in (None, 1):
                    raise TileDBCodecError("slices with a step are not supported")
                if it.start is None and it.stop is None:
                    continue
                lo, hi = it.start, it.stop
                if lo is None or hi is None:
                    ned = array.nonempty_domain()
                    dom = d.domain if d.domain is not None else None
                    if ned is None and dom is None:
                        raise TileDBCodecError(f"an open slice on {d.name!r}, which has no domain")
                    full = dom if dom is not None else ned[[x.name for x in dims].index(d.name)]
                    lo = full[0] if lo is None else lo
                    hi = full[1] if hi is None else hi
                    if not inclusive and it.stop is not None:
                        hi = hi - 1
                elif not inclusive:
                    hi = hi - 1
                rs.append((lo, hi))
            else:
                rs.append((it, it))
        if rs:
            out.append((d.name, rs))
    if not array.schema.sparse:
        # A dense dimension not selected is read whole, as TileDB-Py reads it.
        given = {n for n, _ in out}
        out += [(d.name, [tuple(d.domain)]) for d in dims if d.name not in given and d.domain is not None]
    return out


class _Indexer:
    def __init__(self, fn: Any):
        self._fn = fn

    def __getitem__(self, sel: Any) -> Any:
        return self._fn(sel)


class Query:
    """``A.query(...)``: the same reads with attributes, a condition,
    dimensions and an order chosen."""

    def __init__(self, array: "CompatArray", attrs: Optional[Sequence[str]] = None, cond: Optional[str] = None,
                 dims: Any = None, coords: Optional[bool] = None, order: Optional[str] = None):
        self._a = array
        self._attrs = list(attrs) if attrs is not None else None
        self._cond = cond
        if dims is True or dims is False:
            coords, dims = dims, None
        self._dims = list(dims) if dims is not None else None
        self._coords = coords
        self._order = order

    def _read(self, sel: Any, inclusive: bool) -> "OrderedDict[str, np.ndarray]":
        A = self._a._array
        sparse = A.schema.sparse
        order = {"C": "row-major", "F": "col-major", "G": "global", "U": "unordered", None: None}.get(
            self._order, self._order)
        ranges = _ranges(A, sel, inclusive)
        res = A.to_numpy(ranges, where=self._cond, attrs=self._attrs, order=order, coords=True)
        dim_names = [d.name for d in A.schema.dims]
        if self._dims is not None:
            keep_dims = self._dims
        elif self._coords is not None:
            keep_dims = dim_names if self._coords else []
        else:
            keep_dims = dim_names if sparse else []
        attrs = [n for n in res if n not in dim_names]
        out: "OrderedDict[str, np.ndarray]" = OrderedDict()
        first, second = (keep_dims, attrs) if inclusive else (attrs, keep_dims)
        for n in list(first) + list(second):
            if n in res:
                out[n] = res[n]
        return out

    @property
    def multi_index(self) -> _Indexer:
        """Inclusive ranges, lists of ranges and points per dimension."""
        return _Indexer(lambda sel: self._read(sel, True))

    @property
    def df(self) -> _Indexer:
        """The same read (inclusive ranges) as a ``pandas.DataFrame``, the
        dimensions first, enumerations as categoricals (pandas must be
        installed)."""

        def read(sel: Any) -> Any:
            A = self._a._array
            order = {"C": "row-major", "F": "col-major", "G": "global", "U": "unordered"}.get(
                self._order, self._order)
            table = A.read(_ranges(A, sel, True), where=self._cond, attrs=self._attrs, order=order)
            if self._dims is not None or self._coords is False:
                keep = set(self._dims or [])
                dims = {d.name for d in A.schema.dims}
                table = table.select([n for n in table.column_names if n not in dims or n in keep])
            return table.to_pandas()
        return _Indexer(read)

    def __getitem__(self, sel: Any) -> "OrderedDict[str, np.ndarray]":
        return self._read(sel, False)


class CompatArray:
    """An array opened by :func:`open`, read as TileDB-Py reads it."""

    def __init__(self, array: tiledb_codec.Array):
        self._array = array

    def __enter__(self) -> "CompatArray":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release (kept for TileDB-Py code)."""

    @property
    def schema(self) -> tiledb_codec.Schema:
        """The array's schema (a :class:`tiledb_codec.Schema`)."""
        return self._array.schema

    @property
    def meta(self) -> tiledb_codec.Metadata:
        """The array metadata (a mapping)."""
        return self._array.meta

    def nonempty_domain(self) -> Any:
        """One ``(low, high)`` per dimension, as TileDB-Py gives it."""
        return self._array.nonempty_domain()

    def enum(self, name: str) -> List[Any]:
        """The values of enumeration ``name``."""
        return self._array.enum(name)

    def query(self, attrs: Optional[Sequence[str]] = None, cond: Optional[str] = None, dims: Any = None,
              coords: Optional[bool] = None, order: Optional[str] = None, **_ignored: Any) -> Query:
        """A read with attributes, a condition (TileDB-Py's syntax),
        dimensions (``dims=[...]`` or ``coords=True``) and an order
        (``"C"``, ``"F"``, ``"G"``, ``"U"``)."""
        return Query(self, attrs, cond, dims, coords, order)

    @property
    def multi_index(self) -> _Indexer:
        """Inclusive ranges, lists of ranges and points per dimension."""
        return self.query().multi_index

    @property
    def df(self) -> _Indexer:
        """Inclusive ranges as a ``pandas.DataFrame``, as ``query().df``."""
        return self.query().df

    def __getitem__(self, sel: Any) -> "OrderedDict[str, np.ndarray]":
        """Half-open slices per dimension, as TileDB-Py's ``A[...]``."""
        return self.query()[sel]
