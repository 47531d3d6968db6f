"""TileDB-Py's schema objects (``ArraySchema``, ``Domain``, ``Dim``,
``Attr``, ``Enumeration``), read-only views of the library's schema JSON
with the numpy dtypes, values and reprs TileDB-Py gives."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as _np

import tiledb_codec as _tc

from ._filters import FilterList

__all__ = ["ArraySchema", "Domain", "Dim", "Attr", "Enumeration", "dtype_of", "TILEDB_VAR_NUM"]

#: The cell count TileDB-Py gives for var-sized cells (``TILEDB_VAR_NUM``).
TILEDB_VAR_NUM = 4294967295

_NUMBERS = {
    "INT8": "int8", "INT16": "int16", "INT32": "int32", "INT64": "int64",
    "UINT8": "uint8", "UINT16": "uint16", "UINT32": "uint32", "UINT64": "uint64",
    "FLOAT32": "float32", "FLOAT64": "float64", "BOOL": "bool",
}
_UNITS = {"YEAR": "Y", "MONTH": "M", "WEEK": "W", "DAY": "D", "HR": "h", "MIN": "m", "SEC": "s",
          "MS": "ms", "US": "us", "NS": "ns", "PS": "ps", "FS": "fs", "AS": "as"}
_BYTES_TYPES = {"STRING_ASCII", "CHAR", "BLOB", "GEOM_WKB", "GEOM_WKT", "STRING_UTF16", "STRING_UTF32",
                "STRING_UCS2", "STRING_UCS4", "ANY"}


def unit_of(datatype: str) -> Optional[str]:
    """numpy's unit of a DATETIME_* or TIME_* datatype (``None`` for others)."""
    for prefix in ("DATETIME_", "TIME_"):
        if datatype.startswith(prefix):
            return _UNITS.get(datatype[len(prefix):])
    return None


def dtype_of(datatype: str, cell_val_num: Union[int, str, None]) -> _np.dtype:
    """The numpy dtype TileDB-Py gives a field of ``datatype`` with
    ``cell_val_num`` values per cell (``"var"`` for var-sized)."""
    var = cell_val_num == "var"
    n = 1 if var or cell_val_num is None else int(cell_val_num)
    if datatype == "STRING_UTF8":
        return _np.dtype("U" if var else f"U{n}")
    if datatype in _BYTES_TYPES:
        return _np.dtype("S" if var else f"S{n}")
    unit = unit_of(datatype)
    if unit is not None:
        base = _np.dtype(f"{'M8' if datatype.startswith('DATETIME_') else 'm8'}[{unit}]")
    elif datatype in _NUMBERS:
        base = _np.dtype(_NUMBERS[datatype])
    else:
        return _np.dtype("S")
    if var or n == 1:
        return base
    if n == 2 and datatype in ("FLOAT32", "FLOAT64"):
        return _np.dtype("complex64" if datatype == "FLOAT32" else "complex128")
    return _np.dtype([(f"f{i}", base) for i in range(n)])


def _number(v: Any) -> Any:
    """A number of the JSON: non-finite floats come as text (``"NaN"``,
    ``"-inf"``)."""
    return float(v) if isinstance(v, str) else v


def _scalar(v: Any, dtype: _np.dtype, datatype: str) -> Any:
    """A bound or extent of the JSON as TileDB-Py gives it: a numpy scalar
    of the dimension's type (datetimes of its unit)."""
    if v is None:
        return None
    if dtype.kind in "SU":
        return v
    if dtype.kind == "M":
        return _np.datetime64(int(v), unit_of(datatype))
    return dtype.type(_number(v))


def _shown(v: Any) -> str:
    """A bound or extent as TileDB-Py's reprs show it, whatever numpy's
    print options (TileDB-Py sets numpy's legacy printing when imported)."""
    if isinstance(v, _np.datetime64):
        return f"numpy.datetime64('{v}')"
    if isinstance(v, _np.timedelta64):
        unit = _np.datetime_data(v.dtype)[0]
        return f"numpy.timedelta64({v.astype('int64')},'{unit}')"
    if isinstance(v, _np.generic):
        return repr(v.item())
    return repr(v)


class Dim:
    """A dimension, as TileDB-Py's ``tiledb.Dim`` reads it."""

    def __init__(self, j: Dict[str, Any]):
        self._j = j
        self.name: str = j["name"]
        self.dtype: _np.dtype = dtype_of(j["datatype"], j.get("cell_val_num", 1))
        self.filters = FilterList._from_json(j.get("filters"))

    @property
    def isvar(self) -> bool:
        """Whether its values are var-sized (string dimensions)."""
        return self._j.get("cell_val_num") == "var"

    @property
    def isanon(self) -> bool:
        """Whether it has no name."""
        return self.name == ""

    @property
    def domain(self) -> Tuple[Any, Any]:
        """``(low, high)``, numpy scalars of the dimension's type;
        ``('', '')`` for a string dimension, as TileDB-Py gives it."""
        d = self._j.get("domain")
        if d is None or self.dtype.kind in "SU":
            return ("", "")
        return (_scalar(d[0], self.dtype, self._j["datatype"]), _scalar(d[1], self.dtype, self._j["datatype"]))

    @property
    def tile(self) -> Any:
        """The tile extent (a ``timedelta64`` for a datetime dimension;
        ``None`` for a string dimension)."""
        t = self._j.get("tile_extent")
        if t is None or self.dtype.kind in "SU":
            return None
        if self.dtype.kind == "M":
            return _np.timedelta64(int(t), unit_of(self._j["datatype"]))
        return self.dtype.type(t)

    @property
    def shape(self) -> Tuple[int]:
        """The number of cells along it (integer dimensions)."""
        lo, hi = self.domain
        if self.dtype.kind not in "iuM":
            raise TypeError("shape only valid for integer and datetime dimension domains")
        return (int((hi - lo).astype("int64") if self.dtype.kind == "M" else hi - lo) + 1,)

    @property
    def size(self) -> int:
        """The number of cells along it."""
        return self.shape[0]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dim) and other._j == self._j

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        dt = str(self.dtype)
        var = ", var=True" if self.isvar else ""
        filters = ""
        if len(self.filters):
            filters = ", filters=FilterList([" + "".join(f"{f!r}, " for f in self.filters) + "])"
        lo, hi = self.domain
        return (f"Dim(name={self.name!r}, domain=({_shown(lo)}, {_shown(hi)}), tile={_shown(self.tile)}, "
                f"dtype='{dt}'{var}{filters})")


class Domain:
    """The dimensions, as TileDB-Py's ``tiledb.Domain``: iterable,
    ``ndim``, ``dim(i or name)``, ``has_dim(name)``."""

    def __init__(self, dims: Sequence[Dim]):
        self._dims = list(dims)

    @property
    def ndim(self) -> int:
        """How many dimensions."""
        return len(self._dims)

    @property
    def dtype(self) -> _np.dtype:
        """The dimensions' dtype, when they share one (TileDB-Py's)."""
        return self._dims[0].dtype

    @property
    def shape(self) -> Tuple[int, ...]:
        """The cells along each (integer) dimension."""
        return tuple(d.size for d in self._dims)

    @property
    def size(self) -> int:
        """The cells of the whole domain (integer dimensions)."""
        return int(_np.prod(self.shape))

    @property
    def homogeneous(self) -> bool:
        """Whether every dimension has the same dtype."""
        return len({d.dtype for d in self._dims}) <= 1

    def __len__(self) -> int:
        return len(self._dims)

    def __iter__(self) -> Iterator[Dim]:
        return iter(self._dims)

    def dim(self, key: Union[int, str]) -> Dim:
        """The dimension at index ``key`` or called ``key``."""
        if isinstance(key, str):
            for d in self._dims:
                if d.name == key:
                    return d
            raise _tc.TileDBCodecError(f"no dimension {key!r}")
        if not -len(self._dims) <= key < len(self._dims):
            raise IndexError(f"dimension index {key} out of range")
        return self._dims[key]

    def has_dim(self, name: str) -> bool:
        """Whether a dimension is called ``name``."""
        return any(d.name == name for d in self._dims)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Domain) and other._dims == self._dims

    __hash__ = None  # type: ignore[assignment]

    def dump(self) -> None:
        """Prints the domain (its repr)."""
        print(repr(self))

    def __repr__(self) -> str:
        return "Domain(" + ",\n       ".join(repr(d) for d in self._dims) + ")"


class Attr:
    """An attribute, as TileDB-Py's ``tiledb.Attr`` reads it."""

    def __init__(self, j: Dict[str, Any]):
        self._j = j
        self.name: str = j["name"]
        self.dtype: _np.dtype = dtype_of(j["datatype"], j.get("cell_val_num", 1))
        self.filters = FilterList._from_json(j.get("filters"))

    @property
    def isvar(self) -> bool:
        """Whether cells are var-sized."""
        return self._j.get("cell_val_num") == "var"

    @property
    def isnullable(self) -> bool:
        """Whether cells may be null."""
        return bool(self._j.get("nullable", False))

    @property
    def isanon(self) -> bool:
        """Whether it has no name."""
        return self.name == ""

    @property
    def isascii(self) -> bool:
        """Whether it holds ASCII strings."""
        return self._j["datatype"] == "STRING_ASCII"

    @property
    def ncells(self) -> int:
        """Values per cell (``TILEDB_VAR_NUM`` for var-sized)."""
        n = self._j.get("cell_val_num", 1)
        return TILEDB_VAR_NUM if n == "var" else int(n)

    @property
    def enum_label(self) -> Optional[str]:
        """The name of its enumeration, if it has one."""
        return self._j.get("enumeration")

    @property
    def fill(self) -> Any:
        """The fill value, as TileDB-Py gives it (a one-element array of
        numbers, ``bytes`` or ``str`` for strings); a nullable attribute
        has none (an error, as TileDB-Py's)."""
        if self.isnullable:
            raise _tc.TileDBCodecError("Attribute: Cannot get fill value; Attribute is nullable")
        v = self._j.get("fill_value")
        if self.dtype.kind == "U":
            return "" if v is None else str(v)
        if self.dtype.kind == "S":
            return b"" if v is None else (v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v))
        if self.dtype.kind == "M":
            # TileDB-Py gives a datetime attribute's fill as a timedelta.
            return _np.timedelta64(int(v), unit_of(self._j["datatype"]))
        if self.dtype.kind == "m":
            return _np.array([int(v)], dtype="int64").view(self.dtype)
        if self.dtype.names:
            return _np.array([tuple(_number(x) for x in v)], dtype=self.dtype)
        if self.dtype.kind == "c":
            return _np.array([complex(_number(v[0]), _number(v[1]))], dtype=self.dtype)
        return _np.array([_number(v)], dtype=self.dtype)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Attr) and other._j == self._j

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        named = {"STRING_ASCII": "ascii", "BLOB": "blob", "GEOM_WKB": "wkb", "GEOM_WKT": "wkt"}
        dt = named.get(self._j["datatype"], str(self.dtype))
        filters = ""
        if len(self.filters):
            filters = ", filters=FilterList([" + "".join(f"{f!r}, " for f in self.filters) + "])"
        return (f"Attr(name={self.name!r}, dtype='{dt}', var={self.isvar}, nullable={self.isnullable}, "
                f"enum_label={self.enum_label!r}{filters})")


class Enumeration:
    """An enumeration, as TileDB-Py's ``tiledb.Enumeration``: ``name``,
    ``dtype``, ``cell_val_num``, ``ordered``, ``values()``."""

    def __init__(self, j: Dict[str, Any]):
        self._j = j
        self.name: str = j["name"]
        self.ordered: bool = bool(j.get("ordered", False))
        n = j.get("cell_val_num", 1)
        self.cell_val_num: int = TILEDB_VAR_NUM if n == "var" else int(n)
        dt = dtype_of(j["datatype"], n)
        # TileDB-Py gives var-sized strings' enumerations a one-character
        # dtype.
        self.dtype: _np.dtype = _np.dtype(dt.kind + "1") if dt.kind in "SU" and dt.itemsize == 0 else dt

    def values(self) -> _np.ndarray:
        """The values, in order, as a numpy array."""
        vals = list(self._j.get("values") or [])
        if self.dtype.kind == "U":
            return _np.array([str(v) for v in vals], dtype=str)
        if self.dtype.kind == "S":
            return _np.array([v.encode() if isinstance(v, str) else bytes(v) for v in vals], dtype=bytes)
        return _np.array(vals, dtype=self.dtype)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Enumeration) and other._j == self._j

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        dtype_name = {"U": "str32", "S": "bytes8"}.get(self.dtype.kind, self.dtype.name)
        vals = list(self.values())
        shown = [v.item() if isinstance(v, _np.generic) else v for v in vals]
        return (f"Enumeration(name={self.name!r}, dtype={self.dtype}, dtype_name={dtype_name!r}, "
                f"cell_val_num={self.cell_val_num}, ordered={self.ordered}, values={shown})")


class ArraySchema:
    """An array's schema, as TileDB-Py's ``tiledb.ArraySchema`` reads it."""

    def __init__(self, schema: "_tc.Schema"):
        self._schema = schema
        j = schema.to_json()
        self._j = j
        self._domain = Domain([Dim(d) for d in j["dimensions"]])
        self._attrs = [Attr(a) for a in j["attributes"]]

    @classmethod
    def load(cls, uri: Any, ctx: Any = None, key: Any = None) -> "ArraySchema":
        """The schema of the array at ``uri``."""
        from . import _config

        return cls(_tc.open(str(uri), key=_config.key_of(key, ctx), config=_config.store_options(ctx)).schema)

    @property
    def sparse(self) -> bool:
        """Whether the array is sparse."""
        return self._schema.sparse

    @property
    def domain(self) -> Domain:
        """The dimensions."""
        return self._domain

    @property
    def ndim(self) -> int:
        """How many dimensions."""
        return self._domain.ndim

    @property
    def shape(self) -> Tuple[int, ...]:
        """The cells along each dimension (integer domains)."""
        return self._domain.shape

    @property
    def nattr(self) -> int:
        """How many attributes."""
        return len(self._attrs)

    def attr(self, key: Union[int, str]) -> Attr:
        """The attribute at index ``key`` or called ``key``."""
        if isinstance(key, str):
            for a in self._attrs:
                if a.name == key:
                    return a
            raise _tc.TileDBCodecError(f"no attribute {key!r}")
        if not -len(self._attrs) <= key < len(self._attrs):
            raise IndexError(f"attribute index {key} out of range")
        return self._attrs[key]

    def has_attr(self, name: str) -> bool:
        """Whether an attribute is called ``name``."""
        return any(a.name == name for a in self._attrs)

    @property
    def cell_order(self) -> str:
        """``row-major``, ``col-major`` or ``hilbert``."""
        return self._schema.cell_order

    @property
    def tile_order(self) -> Optional[str]:
        """``row-major`` or ``col-major`` (``None`` for a Hilbert order)."""
        return None if self.cell_order == "hilbert" else self._schema.tile_order

    @property
    def capacity(self) -> int:
        """Cells per data tile of a sparse array."""
        return self._schema.capacity

    @property
    def allows_duplicates(self) -> bool:
        """Whether a sparse array keeps every cell of one coordinate (an
        error for a dense array, as in TileDB-Py)."""
        if not self.sparse:
            raise _tc.TileDBCodecError("ArraySchema.allows_duplicates does not apply to dense arrays")
        return self._schema.allows_duplicates

    @property
    def version(self) -> Optional[int]:
        """The format version of the schema."""
        return self._schema.version

    @property
    def coords_filters(self) -> FilterList:
        """The default filters of the dimensions."""
        return FilterList._from_json(self._j.get("coords_filters"))

    @property
    def offsets_filters(self) -> FilterList:
        """The filters of var-sized cells' offsets."""
        return FilterList._from_json(self._j.get("offsets_filters"))

    @property
    def validity_filters(self) -> FilterList:
        """The filters of nullable cells' validity."""
        return FilterList._from_json(self._j.get("validity_filters"))

    @property
    def enumerations(self) -> List[Enumeration]:
        """The enumerations."""
        return [Enumeration(e) for e in self._j.get("enumerations") or []]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArraySchema) and other._j == self._j

    __hash__ = None  # type: ignore[assignment]

    def dump(self) -> None:
        """Prints the schema (its repr: TileDB-Py prints the engine's own
        text here)."""
        print(repr(self))

    def __repr__(self) -> str:
        lines = ["ArraySchema(", "  domain=Domain(*["]
        lines += [f"    {d!r}," for d in self._domain]
        lines += ["  ]),", "  attrs=["]
        lines += [f"    {a!r}," for a in self._attrs]
        lines += ["  ],", f"  cell_order={self.cell_order!r},", f"  tile_order={self.tile_order!r},"]
        if self.sparse:
            lines += [f"  capacity={self.capacity},", "  sparse=True,",
                      f"  allows_duplicates={self.allows_duplicates},"]
        else:
            lines += ["  sparse=False,"]
        return "\n".join(lines) + "\n)\n"
