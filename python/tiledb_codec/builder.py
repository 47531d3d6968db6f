"""Schema builders mirroring the Rust crate's (``SchemaBuilder``,
``DimensionBuilder``, ``AttributeBuilder``): the same methods, with the
same names and arguments, chained::

    from tiledb_codec import AttributeBuilder, DimensionBuilder, SchemaBuilder

    schema = (SchemaBuilder.dense()
              .dimension(DimensionBuilder("row", "INT32").domain(1, 100).tile_extent(10))
              .dimension(DimensionBuilder("col", "INT32").domain(1, 100).tile_extent(10))
              .attribute(AttributeBuilder("v", "FLOAT64").filters([{"type": "ZSTD", "level": 3}]))
              .cell_order("col-major")
              .build())
    A = tiledb_codec.create("my_array", schema)

Each method changes the builder and returns it. :meth:`SchemaBuilder.build`
checks the whole schema in the library (as the Rust ``build`` does) and
raises :class:`TileDBCodecError` naming the part that is wrong.

Datatypes are TileDB's names (``"INT64"``, ``"FLOAT32"``, ``"STRING_UTF8"``,
``"DATETIME_NS"``...) or numpy dtypes (``np.int64``, ``"datetime64[ns]"``).
Filters are dicts (``{"type": "ZSTD", "level": 3}``, ``{"type":
"BIT_WIDTH_REDUCTION", "max_window_size": 256}``) or bare filter names
(``"ZSTD"``). Layouts: ``"row-major"``, ``"col-major"``, ``"hilbert"``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _native
from ._native import TileDBCodecError

if TYPE_CHECKING:
    from . import Schema

__all__ = ["SchemaBuilder", "DimensionBuilder", "AttributeBuilder"]

DatatypeLike = Union[str, type, "np.dtype[Any]"]
FilterLike = Union[str, Dict[str, Any]]

_BY_KIND = {
    ("i", 1): "INT8", ("i", 2): "INT16", ("i", 4): "INT32", ("i", 8): "INT64",
    ("u", 1): "UINT8", ("u", 2): "UINT16", ("u", 4): "UINT32", ("u", 8): "UINT64",
    ("f", 4): "FLOAT32", ("f", 8): "FLOAT64", ("b", 1): "BOOL",
}
_DATETIME = {"Y": "YEAR", "M": "MONTH", "W": "WEEK", "D": "DAY", "h": "HR", "m": "MIN", "s": "SEC",
             "ms": "MS", "us": "US", "ns": "NS", "ps": "PS", "fs": "FS", "as": "AS"}


def datatype_name(dt: DatatypeLike) -> str:
    """The TileDB datatype name of ``dt``: a name (``"int64"`` and
    ``"INT64"`` alike) or a numpy dtype (``str`` is ``STRING_UTF8``)."""
    if isinstance(dt, str):
        if dt.upper() == dt or "_" in dt or dt.upper() in ("BLOB", "CHAR", "ANY", "BOOL"):
            return dt.upper()
        if dt.lower() in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                          "float32", "float64"):
            return dt.upper()
    if dt is str:
        return "STRING_UTF8"
    if dt is bytes:
        return "BLOB"
    try:
        d = np.dtype(dt)
    except TypeError:
        raise TileDBCodecError(f"not a datatype: {dt!r}") from None
    if d.kind == "M":
        unit = np.datetime_data(d)[0]
        if unit in _DATETIME:
            return "DATETIME_" + _DATETIME[unit]
    if d.kind == "U":
        return "STRING_UTF8"
    if d.kind == "S":
        return "BLOB"
    name = _BY_KIND.get((d.kind, d.itemsize))
    if name is None:
        raise TileDBCodecError(f"no TileDB datatype for numpy {d}")
    return name


def _filters(filters: Sequence[FilterLike]) -> List[Dict[str, Any]]:
    out = []
    for f in filters:
        if isinstance(f, str):
            out.append({"type": f.upper()})
        elif isinstance(f, dict):
            out.append(dict(f))
        else:
            raise TileDBCodecError(f"a filter is a dict such as {{'type': 'ZSTD', 'level': 3}} or a name, not {f!r}")
    return out


def _plain(v: Any) -> Any:
    """A value as JSON takes it (numpy scalars as Python numbers, bytes as
    text, datetimes as integers of their unit)."""
    if isinstance(v, np.datetime64):
        return int(v.astype("int64"))
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="surrogateescape")
    return v


class DimensionBuilder:
    """Builds a dimension: its name and datatype, then its domain and tile
    extent (string dimensions, ``STRING_ASCII``, take neither) and filters
    (default: the schema's coordinate filters)."""

    def __init__(self, name: str, datatype: DatatypeLike):
        self._name = name
        self._datatype = datatype_name(datatype)
        self._domain: Optional[List[Any]] = None
        self._tile: Any = None
        self._filters: Optional[List[Dict[str, Any]]] = None

    def domain(self, low: Any, high: Any) -> "DimensionBuilder":
        """The domain, inclusive: ``domain(1, 100)``, ``domain(-1.0, 1.0)``."""
        self._domain = [_plain(low), _plain(high)]
        return self

    def tile_extent(self, extent: Any) -> "DimensionBuilder":
        """The tile extent: one number."""
        self._tile = _plain(extent)
        return self

    def filters(self, filters: Sequence[FilterLike]) -> "DimensionBuilder":
        """Its own filters (default: the schema's coordinate filters)."""
        self._filters = _filters(filters)
        return self

    def _json(self) -> Dict[str, Any]:
        var = self._datatype == "STRING_ASCII"
        out: Dict[str, Any] = {"name": self._name, "datatype": self._datatype,
                               "cell_val_num": "var" if var else 1,
                               "domain": self._domain, "tile_extent": self._tile}
        if self._filters is not None:
            out["filters"] = self._filters
        return out

    def __repr__(self) -> str:
        return f"DimensionBuilder({json.dumps(self._json())})"


class AttributeBuilder:
    """Builds an attribute: its name and datatype, then how many values a
    cell holds (:meth:`var`, :meth:`cell_val_num`), whether it may be null,
    its fill value, filters and enumeration."""

    def __init__(self, name: str, datatype: DatatypeLike):
        self._name = name
        self._datatype = datatype_name(datatype)
        self._cell_val_num: Union[int, str] = 1
        self._nullable = False
        self._fill: Any = None
        self._filters: List[Dict[str, Any]] = []
        self._enumeration: Optional[str] = None
        self._enum_def: Optional[Dict[str, Any]] = None

    def var(self) -> "AttributeBuilder":
        """Cells of any number of values (strings: ``STRING_UTF8`` with
        ``var()``)."""
        self._cell_val_num = "var"
        return self

    def cell_val_num(self, n: int) -> "AttributeBuilder":
        """Cells of exactly ``n`` values (0 is refused by ``build``)."""
        self._cell_val_num = int(n)
        return self

    def nullable(self, yes: bool = True) -> "AttributeBuilder":
        """Cells may be null."""
        self._nullable = bool(yes)
        return self

    def fill_value(self, value: Any) -> "AttributeBuilder":
        """The value of cells never written (dense arrays); default: the
        datatype's own. A list for cells of several values, a string for
        text."""
        self._fill = [_plain(v) for v in value] if isinstance(value, (list, tuple, np.ndarray)) else _plain(value)
        return self

    def filters(self, filters: Sequence[FilterLike]) -> "AttributeBuilder":
        """Its filter pipeline."""
        self._filters = _filters(filters)
        return self

    def enumeration(self, name: str, values: Optional[Sequence[Any]] = None, *, ordered: bool = False,
                    datatype: Optional[DatatypeLike] = None) -> "AttributeBuilder":
        """Its cells are keys (indices) into enumeration ``name`` (the
        attribute's datatype is an integer one). With ``values`` the
        enumeration is defined here (datatype: ``STRING_UTF8`` for strings,
        else from the values, or ``datatype``); without, it is one given to
        :meth:`SchemaBuilder.enumeration`. Writes take the labels (see
        :meth:`tiledb_codec.Array.write`)."""
        self._enumeration = name
        if values is not None:
            self._enum_def = _enumeration_json(name, values, ordered, datatype)
        return self

    def _json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"name": self._name, "datatype": self._datatype,
                               "cell_val_num": self._cell_val_num, "nullable": self._nullable,
                               "filters": self._filters}
        if self._fill is not None:
            out["fill_value"] = self._fill
        if self._enumeration is not None:
            out["enumeration"] = self._enumeration
        return out

    def __repr__(self) -> str:
        return f"AttributeBuilder({json.dumps(self._json())})"


def _enumeration_json(name: str, values: Sequence[Any], ordered: bool,
                      datatype: Optional[DatatypeLike]) -> Dict[str, Any]:
    values = list(values)
    if datatype is not None:
        dt = datatype_name(datatype)
    elif all(isinstance(v, str) for v in values):
        dt = "STRING_UTF8"
    elif all(isinstance(v, (bytes, bytearray)) for v in values):
        dt = "BLOB"
    else:
        dt = datatype_name(np.asarray(values).dtype)
    var = dt in ("STRING_UTF8", "STRING_ASCII", "BLOB", "CHAR")
    return {"name": name, "datatype": dt, "cell_val_num": "var" if var else 1, "ordered": bool(ordered),
            "values": [_plain(v) for v in values]}


class SchemaBuilder:
    """Builds a :class:`tiledb_codec.Schema`: the array type
    (:meth:`dense`, :meth:`sparse`), dimensions, attributes, orders,
    capacity, duplicates, default filters, enumerations. :meth:`build`
    checks it."""

    def __init__(self, sparse: bool = False):
        self._sparse = bool(sparse)
        self._cell_order = "row-major"
        self._tile_order = "row-major"
        self._capacity = 10000
        self._allows_duplicates = False
        self._dims: List[DimensionBuilder] = []
        self._attrs: List[AttributeBuilder] = []
        self._enums: List[Dict[str, Any]] = []
        self._default_filters: Dict[str, List[Dict[str, Any]]] = {}

    @classmethod
    def dense(cls) -> "SchemaBuilder":
        """A dense array: every cell of the domain exists."""
        return cls(sparse=False)

    @classmethod
    def sparse(cls) -> "SchemaBuilder":
        """A sparse array: only the cells written exist."""
        return cls(sparse=True)

    def dimension(self, d: DimensionBuilder) -> "SchemaBuilder":
        """Adds a dimension (in order: the first is the slowest in row-major)."""
        if not isinstance(d, DimensionBuilder):
            raise TileDBCodecError(f"dimension takes a DimensionBuilder, not {type(d).__name__}")
        self._dims.append(d)
        return self

    def attribute(self, a: AttributeBuilder) -> "SchemaBuilder":
        """Adds an attribute (and the enumeration it defines, if any)."""
        if not isinstance(a, AttributeBuilder):
            raise TileDBCodecError(f"attribute takes an AttributeBuilder, not {type(a).__name__}")
        self._attrs.append(a)
        return self

    def enumeration(self, name: str, values: Sequence[Any], *, ordered: bool = False,
                    datatype: Optional[DatatypeLike] = None) -> "SchemaBuilder":
        """Adds enumeration ``name`` of ``values`` (the labels; datatype as
        :meth:`AttributeBuilder.enumeration` infers it), for attributes
        naming it."""
        self._enums.append(_enumeration_json(name, values, ordered, datatype))
        return self

    def cell_order(self, layout: str) -> "SchemaBuilder":
        """The order of cells within a tile (default row-major; sparse
        arrays may also take ``"hilbert"``)."""
        self._cell_order = layout
        return self

    def tile_order(self, layout: str) -> "SchemaBuilder":
        """The order of tiles (default row-major)."""
        self._tile_order = layout
        return self

    def capacity(self, cells: int) -> "SchemaBuilder":
        """Sparse arrays: cells per data tile (default 10,000)."""
        self._capacity = int(cells)
        return self

    def allows_duplicates(self, yes: bool = True) -> "SchemaBuilder":
        """Sparse arrays: keep every cell written at the same coordinates
        (default: the newest wins)."""
        self._allows_duplicates = bool(yes)
        return self

    def coords_filters(self, filters: Sequence[FilterLike]) -> "SchemaBuilder":
        """Filters of dimensions that have none of their own (default: ZSTD)."""
        self._default_filters["coords_filters"] = _filters(filters)
        return self

    def offsets_filters(self, filters: Sequence[FilterLike]) -> "SchemaBuilder":
        """Filters of the offsets of var-sized fields (default: ZSTD)."""
        self._default_filters["offsets_filters"] = _filters(filters)
        return self

    def validity_filters(self, filters: Sequence[FilterLike]) -> "SchemaBuilder":
        """Filters of the validity of nullable fields (default: RLE)."""
        self._default_filters["validity_filters"] = _filters(filters)
        return self

    def to_json(self) -> Dict[str, Any]:
        """The schema as the library's JSON, unchecked (:meth:`build` checks
        it)."""
        enums = list(self._enums)
        for a in self._attrs:
            if a._enum_def is not None:
                enums.append(a._enum_def)
        out: Dict[str, Any] = {
            "array_type": "sparse" if self._sparse else "dense",
            "cell_order": self._cell_order,
            "tile_order": self._tile_order,
            "capacity": self._capacity,
            "allows_duplicates": self._allows_duplicates,
            "dimensions": [d._json() for d in self._dims],
            "attributes": [a._json() for a in self._attrs],
            "enumerations": enums,
        }
        out.update(self._default_filters)
        return out

    def build(self) -> "Schema":
        """The schema, checked by the library (as the Rust ``build``): a
        :class:`TileDBCodecError` names the part that is wrong."""
        from . import Schema

        checked = json.loads(_native.check_schema(json.dumps(self.to_json())))
        # The library's JSON shows a dimension without filters of its own
        # with the coordinate filters; keep it without (it inherits them,
        # as the Rust builder leaves it).
        for d, j in zip(self._dims, checked["dimensions"]):
            if d._filters is None:
                j.pop("filters", None)
        return Schema(_json=checked)

    def __repr__(self) -> str:
        return f"SchemaBuilder({json.dumps(self.to_json())})"
