"""Arrays read as TileDB-Py reads them: ``A[...]`` (half-open slices),
``A.multi_index[...]`` (inclusive ranges, lists of ranges), ``A.query(...)``
with attributes, dimensions, a condition and an order, ``.df``, ``.agg``.

Results are ``OrderedDict``s of numpy arrays as TileDB-Py 0.36 gives them:
dense reads shaped as the subarray, attributes only unless ``coords=True``
(or ``dims=``); sparse reads 1-D with the dimensions. One difference is on
purpose: ``multi_index`` keeps the validity of nullable attributes (masked
arrays) where TileDB-Py drops it (python/tests/test_compat.py records it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as _np

import tiledb_codec as _tc
from tiledb_codec import TileDBCodecError

from ._schema import ArraySchema, Attr, Dim, Domain, Enumeration

__all__ = ["Array", "DenseArray", "SparseArray", "Query", "Aggregation", "Metadata"]

_ORDERS = {"C": "row-major", "F": "col-major", "G": "global", "U": "unordered"}


def _ranges(array: _tc.Array, sel: Any, inclusive: bool) -> List[Tuple[str, List[Tuple[Any, Any]]]]:
    """TileDB-Py's selection (per dimension: a slice, a point, a list of
    those) as ranges; ``inclusive=False``: slices are half-open (``A[...]``)."""
    dims = array.schema.dims
    if sel is Ellipsis:
        sel = ()
    if not isinstance(sel, tuple):
        sel = (sel,)
    sel = tuple(s for s in sel if s is not Ellipsis)
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
                    full = _open_bounds(array, d, inclusive)
                    lo = full[0] if lo is None else lo
                    hi = full[1] if hi is None else hi
                    if not inclusive and it.stop is not None:
                        hi = _before(hi, d.name)
                elif not inclusive:
                    hi = _before(hi, d.name)
                rs.append((lo, hi))
            elif isinstance(it, (tuple, _np.ndarray)) and not inclusive:
                raise TileDBCodecError("A[...] takes slices and points; lists of ranges go to multi_index")
            else:
                rs.append((it, it))
        if rs:
            out.append((d.name, rs))
    if not array.schema.sparse:
        # A dense dimension not selected is read whole (A[...]) or over its
        # non-empty domain (multi_index, df), as TileDB-Py reads it.
        given = {n for n, _ in out}
        out += [(d.name, [tuple(_open_bounds(array, d, inclusive))]) for d in dims
                if d.name not in given and d.domain is not None]
    return out


def _open_bounds(array: _tc.Array, d: Any, inclusive: bool) -> Tuple[Any, Any]:
    """What an open slice on ``d`` stands for: TileDB-Py's multi_index (and
    df) take the non-empty domain, its A[...] the whole domain."""
    ned = array.nonempty_domain()
    names = [x.name for x in array.schema.dims]
    if ned is not None and (inclusive or d.domain is None):
        return ned[names.index(d.name)]
    if d.domain is None:
        raise TileDBCodecError(f"an open slice on {d.name!r}, which has no domain")
    return tuple(d.domain)


def _before(hi: Any, dim: str) -> Any:
    """The last value of a half-open slice that stops at ``hi``."""
    try:
        return hi - 1
    except TypeError:
        raise TileDBCodecError(f"A[...] slices {dim!r} by numbers (half-open); other bounds go to multi_index") \
            from None


def _order(order: Optional[str]) -> Optional[str]:
    if order is None:
        return None
    if order not in _ORDERS:
        raise TileDBCodecError("order must be 'C' (TILEDB_ROW_MAJOR), 'F' (TILEDB_COL_MAJOR), "
                               "'G' (TILEDB_GLOBAL_ORDER), or 'U' (TILEDB_UNORDERED)")
    return _ORDERS[order]


_TEXT = ("STRING_ASCII", "STRING_UTF8", "CHAR")


def _as_tiledb_py(name: str, v: _np.ndarray, field: Any, enum: Optional[Enumeration]) -> _np.ndarray:
    """One result array as TileDB-Py gives it: enumerated attributes as
    their values, ASCII strings as ``bytes``, fixed-size characters as
    ``S<n>``, datetimes of units Arrow lacks (years, months, weeks) as
    ``datetime64``. Text keeps its NUL bytes as TileDB-Py's does: a
    fixed-size cell loses its trailing NULs (numpy's ``S<n>`` drops them),
    and a var-sized cell that is one NUL byte reads as empty (what older
    TileDB and TileDB-Py wrote for an empty cell, and TileDB's default fill
    of var-sized text); any other var-sized cell is kept whole."""
    mask = _np.ma.getmaskarray(v) if isinstance(v, _np.ma.MaskedArray) else None
    data = _np.ma.getdata(v) if mask is not None else v
    datatype = field.datatype
    if enum is not None:
        data = enum.values()[data.astype(_np.int64)]
    elif datatype in _TEXT and data.dtype == object:
        def text(x: Any) -> Any:
            if isinstance(x, str):
                x = x.encode("utf-8", "surrogateescape") if datatype == "STRING_ASCII" else x
            if not isinstance(x, (str, bytes)):
                return x
            nul = b"\0" if isinstance(x, bytes) else "\0"
            if var:
                return x[:0] if x == nul else x
            return x.rstrip(nul)
        var = field.cell_val_num == "var"
        out = _np.empty(data.shape, dtype=object)
        out.ravel()[:] = [text(x) for x in data.ravel()]
        data = out
        if field.cell_val_num not in ("var", 1, "1") and mask is None:
            data = data.astype(f"S{int(field.cell_val_num)}")
    elif field.cell_val_num not in ("var", 1, "1") and data.ndim >= 2 and data.dtype.kind in "iufb":
        # Several numbers per cell: one record (or complex number) each.
        from ._schema import dtype_of

        dt = dtype_of(datatype, field.cell_val_num)
        data = _np.ascontiguousarray(data).view(dt).reshape(data.shape[:-1])
    elif datatype.startswith("DATETIME_") and data.dtype.kind in "iu":
        from ._schema import unit_of

        data = data.astype(_np.int64).view(f"datetime64[{unit_of(datatype)}]")
    return _np.ma.masked_array(data, mask=mask) if mask is not None else data


class _Indexer:
    def __init__(self, fn: Any):
        self._fn = fn

    def __getitem__(self, sel: Any) -> Any:
        return self._fn(sel)


class Query:
    """``A.query(...)``: the same reads with attributes, a condition,
    dimensions and an order chosen."""

    def __init__(self, array: "Array", attrs: Optional[Sequence[str]] = None, cond: Optional[str] = None,
                 dims: Any = None, coords: Optional[bool] = None, order: Optional[str] = None,
                 return_arrow: bool = False, index_col: Any = True):
        self._a = array
        self._attrs = list(attrs) if attrs is not None else None
        if cond is not None and not isinstance(cond, str):
            raise TileDBCodecError("`cond` expects type str.")
        self._cond = cond or None
        if dims is True or dims is False:
            coords, dims = dims, None
        self._dims = list(dims) if dims is not None else None
        self._coords = coords
        self._order = order
        _order(order)
        self._return_arrow = return_arrow
        self._index_col = index_col

    @property
    def array(self) -> "Array":
        """The array queried."""
        return self._a

    @property
    def attrs(self) -> Optional[List[str]]:
        """The attributes read (``None``: all)."""
        return self._attrs

    @property
    def cond(self) -> Optional[str]:
        """The condition."""
        return self._cond

    @property
    def dims(self) -> Optional[List[str]]:
        """The dimensions given back."""
        return self._dims

    @property
    def order(self) -> Optional[str]:
        """The order letter."""
        return self._order

    def _read(self, sel: Any, inclusive: bool) -> "OrderedDict[str, _np.ndarray]":
        A = self._a._array
        sparse = A.schema.sparse
        ranges = _ranges(A, sel, inclusive)
        res = A.to_numpy(ranges, where=self._cond, attrs=self._attrs, order=_order(self._order), coords=True)
        if not sparse and self._cond is not None:
            # A dense read with a condition gives every cell of the
            # subarray (the rejected ones with the fill value): TileDB-Py
            # shapes it as the subarray too.
            shape = A._dense_shape(ranges)
            if shape is not None:
                np_order = "F" if self._order == "F" else "C"
                res = {k: v.reshape(shape + v.shape[1:], order=np_order) if v.shape[:1] == (int(_np.prod(shape)),)
                       else v for k, v in res.items()}
        dim_names = [d.name for d in A.schema.dims]
        if self._dims is not None:
            keep_dims = self._dims
        elif self._coords is not None:
            keep_dims = dim_names if self._coords else []
        else:
            keep_dims = dim_names if sparse else []
        attrs = [n for n in res if n not in dim_names]
        out: "OrderedDict[str, _np.ndarray]" = OrderedDict()
        first, second = (keep_dims, attrs) if inclusive else (attrs, keep_dims)
        fields = {f.name: f for f in [*A.schema.dims, *A.schema.attrs]}
        for n in list(first) + list(second):
            if n in res:
                # multi_index gives enumerated attributes' values, A[...]
                # their keys (TileDB-Py's two code paths).
                label = getattr(fields[n], "enumeration", None) if inclusive else None
                out[n] = _as_tiledb_py(n, res[n], fields[n], self._a.enum(label) if label else None)
        return out

    @property
    def multi_index(self) -> _Indexer:
        """Inclusive ranges, lists of ranges and points per dimension."""
        return _Indexer(lambda sel: self._read(sel, True))

    @property
    def df(self) -> _Indexer:
        """The same read (inclusive ranges) as a ``pandas.DataFrame``, the
        dimensions first, enumerations as categoricals (a ``pyarrow.Table``
        with ``return_arrow=True``)."""

        def read(sel: Any) -> Any:
            A = self._a._array
            table = A.read(_ranges(A, sel, True), where=self._cond, attrs=self._attrs,
                           order=_order(self._order))
            # TileDB-Py's dense df with a condition leaves the dimensions
            # out unless they are asked for.
            dense_cond = not A.schema.sparse and self._cond is not None and self._coords is None
            if self._dims is not None or self._coords is False or dense_cond:
                keep = set(self._dims or [])
                dims = {d.name for d in A.schema.dims}
                table = table.select([n for n in table.column_names if n not in dims or n in keep])
            return table if self._return_arrow else _to_pandas(table, A)
        return _Indexer(read)

    def agg(self, aggs: Union[str, Sequence[str], Mapping[str, Union[str, Sequence[str]]]]) -> "Aggregation":
        """Aggregates (``sum``, ``min``, ``max``, ``mean``, ``count``,
        ``null_count``): one operation or a list of them on every
        attribute, or a dict of attribute -> operation(s). Index the result
        as the query (``[...]`` half-open, ``.multi_index[...]`` inclusive)."""
        schema = self._a.schema
        names = [schema.attr(i).name for i in range(schema.nattr)]
        if isinstance(aggs, Mapping):
            plan = {a: (aggs[a],) if isinstance(aggs[a], str) else tuple(aggs[a]) for a in aggs}
        elif isinstance(aggs, str):
            plan = {a: (aggs,) for a in names}
        else:
            plan = {a: tuple(aggs) for a in names}
        return Aggregation(self, plan)

    def __getitem__(self, sel: Any) -> Any:
        out = self._read(sel, False)
        schema = self._a.schema
        if schema.sparse:
            return out
        # A dense read drops the axes given as points, and an anonymous
        # attribute read alone comes as its array, as in TileDB-Py.
        points = [i for i, s in enumerate(sel if isinstance(sel, tuple) else (sel,))
                  if not isinstance(s, (slice, list)) and s is not Ellipsis]
        if points:
            for k, v in out.items():
                if v.ndim == schema.ndim:
                    out[k] = v.squeeze(axis=tuple(points))
        if schema.nattr == 1 and schema.attr(0).isanon and list(out) == [""]:
            return out[""]
        return out


def _to_pandas(table: Any, A: _tc.Array) -> Any:
    """A table as TileDB-Py's df: nullable integer attributes as pandas'
    nullable integer types (``Int32``), the rest as pyarrow converts them
    (strings as ``str``, ASCII ones too, as TileDB-Py's Arrow path gives
    them)."""
    import pandas as pd
    import pyarrow as pa

    df = table.to_pandas()
    nullable = {a.name for a in A.schema.attrs if a.nullable and not a.enumeration}
    for name in table.column_names:
        t = table.schema.field(name).type
        if name in nullable and pa.types.is_integer(t):
            kind = ("UInt" if pa.types.is_unsigned_integer(t) else "Int") + str(t.bit_width)
            mapper = {t: pd.api.types.pandas_dtype(kind)}.get
            df[name] = table.column(name).to_pandas(types_mapper=mapper)
    return df


_AGG_OPS = ("sum", "min", "max", "mean", "count", "null_count")


class Aggregation:
    """``A.query(...).agg(...)``: ``[...]`` or ``.multi_index[...]`` gives
    the aggregates as TileDB-Py does: a dict of attribute -> operation ->
    value, a dict of operation -> value for one attribute, the value for
    one operation on one attribute. A dense read counts every cell of the
    subarray, whatever the condition, as the engine does; its other
    aggregates with a condition see only the cells the condition keeps
    (the library's aggregates, :meth:`tiledb_codec.Array.aggregate`). The
    unwritten cells of a dense nullable
    attribute are null here, as TileDB-Py's ``A[...]`` gives them (its
    aggregates count them as valid cells adding nothing: the tests record
    it)."""

    def __init__(self, query: Query, plan: Dict[str, Tuple[str, ...]]):
        self.query = query
        self._plan = plan
        for attr, ops in plan.items():
            for op in ops:
                if op not in _AGG_OPS:
                    raise TileDBCodecError(f"unknown aggregate {op!r} (there are: {', '.join(_AGG_OPS)})")

    def _compute(self, sel: Any, inclusive: bool) -> Any:
        import pyarrow.compute as pc

        q = self.query
        A = q._a._array
        ranges = _ranges(A, sel, inclusive)
        if not A.schema.sparse and q._cond is not None:
            # A dense read gives the cells the condition rejects their fill
            # value: the library's aggregates leave them out, as TileDB's.
            return self._native(A, ranges, q._cond)
        table = A.read(ranges, where=q._cond, attrs=list(self._plan), coords=False)
        cells = None
        if not A.schema.sparse:
            shape = A._dense_shape(ranges)
            cells = int(_np.prod(shape)) if shape is not None else None
        result: Dict[str, Dict[str, Any]] = {}
        for attr, ops in self._plan.items():
            a = q._a.schema.attr(attr)
            col = table.column(attr)
            if a.isnullable is False and "null_count" in ops:
                raise TileDBCodecError(f"null_count of {attr!r}, which is not nullable")
            out: Dict[str, Any] = {}
            for op in ops:
                if op == "count":
                    out[op] = cells if cells is not None else len(col)
                elif op == "null_count":
                    out[op] = int(col.null_count)
                else:
                    out[op] = self._numeric(pc, op, col, a)
            result[attr] = out
        if len(result) == 1:
            only = next(iter(result.values()))
            return next(iter(only.values())) if len(only) == 1 else only
        return result

    def _native(self, A: Any, ranges: Any, cond: str) -> Any:
        """The aggregates by the library's own (TileDB's way on a dense
        read with a condition), shaped as :meth:`_compute` shapes them."""
        exprs = [(attr, op, "count(*)" if op == "count" else f"{op}({attr})")
                 for attr, ops in self._plan.items() for op in ops]
        for attr, op, _ in exprs:
            a = self.query._a.schema.attr(attr)
            if op == "null_count" and not a.isnullable:
                raise TileDBCodecError(f"null_count of {attr!r}, which is not nullable")
            if op not in ("count", "null_count") and (a.isvar or a.dtype.kind not in "iufb"):
                raise TileDBCodecError(f"{op} of {attr!r}: a numeric attribute of one value per cell")
        values = A.aggregate([e for _, _, e in exprs], ranges, where=cond)
        result: Dict[str, Dict[str, Any]] = {}
        for (attr, op, _), v in zip(exprs, values):
            kind = self.query._a.schema.attr(attr).dtype.kind
            if op == "sum":
                v = float(v) if kind == "f" else int(v or 0)
            elif op == "mean":
                v = _np.nan if v is None else float(v)
            elif op in ("min", "max") and v is None and kind == "f":
                v = _np.nan
            result.setdefault(attr, {})[op] = v
        if len(result) == 1:
            only = next(iter(result.values()))
            return next(iter(only.values())) if len(only) == 1 else only
        return result

    @staticmethod
    def _numeric(pc: Any, op: str, col: Any, a: Attr) -> Any:
        if a.isvar or a.dtype.kind not in "iufb":
            raise TileDBCodecError(f"{op} of {a.name!r}: a numeric attribute of one value per cell")
        valid = col.length() - col.null_count
        if op == "sum":
            v = pc.sum(col, min_count=0).as_py()
            return float(v) if a.dtype.kind == "f" else int(v or 0)
        if op == "mean":
            return float(pc.mean(col).as_py()) if valid else _np.nan
        v = (pc.min if op == "min" else pc.max)(col).as_py()
        if v is None:
            return _np.nan if a.dtype.kind == "f" else None
        return v

    def __getitem__(self, sel: Any) -> Any:
        return self._compute(sel, False)

    @property
    def multi_index(self) -> _Indexer:
        """Inclusive ranges, as ``A.multi_index``."""
        return _Indexer(lambda sel: self._compute(sel, True))

    @property
    def df(self) -> Any:
        raise NotImplementedError(".df indexer not supported for Aggregations")


class Metadata(Mapping):
    """An array's (or group's) metadata, read-only, as TileDB-Py's
    ``A.meta``: a mapping of key to value (str, bytes, a number, a tuple
    of numbers)."""

    def __init__(self, values: Dict[str, Any]):
        self._values = dict(values)

    def __getitem__(self, key: str) -> Any:
        if not isinstance(key, str):
            raise TypeError(f"Unexpected key type '{type(key)}': expected str")
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __setitem__(self, key: str, value: Any) -> None:
        raise TileDBCodecError("tiledb_codec.compat reads only: write metadata with "
                               "tiledb_codec.open(uri).meta[key] = value")

    def __delitem__(self, key: str) -> None:
        raise TileDBCodecError("tiledb_codec.compat reads only: delete metadata with "
                               "tiledb_codec.open(uri).meta.delete(key)")

    def __repr__(self) -> str:
        return repr(self._values)


class Array:
    """An array opened by :func:`tiledb_codec.compat.open`, read as
    TileDB-Py reads it (the class TileDB-Py's ``tiledb.Array`` is:
    :class:`DenseArray` and :class:`SparseArray` derive from it)."""

    def __init__(self, array: _tc.Array, timestamp_range: Optional[Tuple[int, int]] = None,
                 attr: Optional[str] = None):
        self._array = array
        self._schema: Optional[ArraySchema] = None
        self._timestamp_range = timestamp_range
        self._open = True
        self._view_attr = attr

    @classmethod
    def _wrap(cls, array: _tc.Array, timestamp_range: Optional[Tuple[int, int]] = None,
              attr: Optional[str] = None) -> "Array":
        kind = SparseArray if array.schema.sparse else DenseArray
        return kind(array, timestamp_range, attr)

    def __enter__(self) -> "Array":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Marks the array closed (nothing to release)."""
        self._open = False

    def reopen(self) -> None:
        """Opens the array again, seeing what was written since."""
        t = self._timestamp_range
        self._array = _tc.open(self._array.uri, timestamp=t) if t else _tc.open(self._array.uri)
        self._schema = None

    @property
    def isopen(self) -> bool:
        """Whether the array is open."""
        return self._open

    @property
    def mode(self) -> str:
        """``"r"``: compat arrays are read."""
        return "r"

    @property
    def iswritable(self) -> bool:
        """False: compat arrays are read (writes are the native API's)."""
        return False

    @property
    def uri(self) -> str:
        """Where the array is."""
        return self._array.uri

    @property
    def timestamp_range(self) -> Optional[Tuple[int, int]]:
        """The ``(t1, t2)`` the array was opened at, when one was given
        (TileDB-Py also gives one when none was)."""
        return self._timestamp_range

    @property
    def schema(self) -> ArraySchema:
        """The schema, as ``tiledb.ArraySchema``."""
        if self._schema is None:
            self._schema = ArraySchema(self._array.schema)
        return self._schema

    @property
    def domain(self) -> Domain:
        """The schema's domain."""
        return self.schema.domain

    @property
    def ndim(self) -> int:
        """How many dimensions."""
        return self.schema.ndim

    @property
    def nattr(self) -> int:
        """How many attributes."""
        return self.schema.nattr

    @property
    def shape(self) -> Tuple[int, ...]:
        """The cells along each (integer) dimension of the domain."""
        return self.schema.shape

    def attr(self, key: Union[int, str]) -> Attr:
        """The attribute at index ``key`` or called ``key``."""
        return self.schema.attr(key)

    def dim(self, key: Union[int, str]) -> Dim:
        """The dimension at index ``key`` or called ``key``."""
        return self.schema.domain.dim(key)

    @property
    def meta(self) -> Metadata:
        """The array metadata, as TileDB-Py's mapping."""
        return Metadata(dict(self._array.meta))

    def nonempty_domain(self) -> Any:
        """One ``(low, high)`` per dimension, as TileDB-Py gives it
        (``None`` for an empty array)."""
        return self._array.nonempty_domain()

    def enum(self, name: str) -> Enumeration:
        """The enumeration called ``name``."""
        for e in self.schema.enumerations:
            if e.name == name:
                return e
        raise TileDBCodecError(f"no enumeration {name!r}")

    def query(self, attrs: Optional[Sequence[str]] = None, cond: Optional[str] = None, dims: Any = None,
              coords: Optional[bool] = None, order: Optional[str] = None, return_arrow: bool = False,
              index_col: Any = True, **_ignored: Any) -> Query:
        """A read with attributes, a condition (TileDB-Py's syntax),
        dimensions (``dims=[...]`` or ``coords=True``) and an order
        (``"C"``, ``"F"``, ``"G"``, ``"U"``)."""
        if attrs is None and self._view_attr is not None:
            attrs = [self._view_attr]
        return Query(self, attrs, cond, dims, coords, order, return_arrow, index_col)

    @property
    def multi_index(self) -> _Indexer:
        """Inclusive ranges, lists of ranges and points per dimension."""
        return self.query().multi_index

    @property
    def df(self) -> _Indexer:
        """Inclusive ranges as a ``pandas.DataFrame``, as ``query().df``."""
        return self.query().df

    def __getitem__(self, sel: Any) -> Any:
        """Half-open slices per dimension, as TileDB-Py's ``A[...]``."""
        res = self.query()[sel]
        if self._view_attr is not None:
            return res[self._view_attr]
        return res

    def __setitem__(self, sel: Any, value: Any) -> None:
        raise TileDBCodecError("tiledb_codec.compat reads only: write with tiledb_codec.open(uri).write(data)")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(uri={self.uri!r}, mode=r, ndim={self.ndim})"


class DenseArray(Array):
    """A dense array opened for reading."""


class SparseArray(Array):
    """A sparse array opened for reading."""
