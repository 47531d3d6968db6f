"""Read and write TileDB arrays with no C++ library: a pure-Rust codec
(tiledb-codec) with Arrow and numpy out.

    >>> import tiledb_codec
    >>> A = tiledb_codec.open("tests/fixtures/v22/dense_int_2d")
    >>> A.schema                                   # dimensions, attributes, filters
    >>> A.read(ranges={"rows": (1, 2)}, where="a > 5")   # a pyarrow.Table
    >>> A.to_numpy(attrs=["a"])                    # a dict of numpy arrays

Every error is a :class:`TileDBCodecError` with the library's message, of
the subclass of its kind (:class:`FormatError`, :class:`SchemaError`,
:class:`QueryError` and its :class:`ConditionError`, :class:`StorageError`,
:class:`EncryptionKeyError`, :class:`NotFoundError`), with ``file``,
``offset``, ``table`` and ``field`` where the library knows them. Groups are
read with :func:`open_group`. ``A.dataset()`` is the array as a
``pyarrow.dataset.Dataset`` that DuckDB and Polars scan with their filters
and projections pushed into the read.
Cells cross from Rust over the Arrow C stream interface
(``__arrow_c_stream__``), so pyarrow, Polars and DuckDB take them without a
copy; dense reads of fixed-size numbers are decoded straight into numpy
arrays and pyarrow buffers (``A.read_into`` does it into the caller's).
"""

from __future__ import annotations

import json as _json
import os as _os
from collections.abc import Mapping as _Mapping
from typing import TYPE_CHECKING as _TYPE_CHECKING

import numpy as _np

from . import _native
from ._native import (
    ConditionError,
    EncryptionKeyError,
    FormatError,
    NotFoundError,
    QueryError,
    SchemaError,
    StorageError,
    TileDBCodecError,
)
from ._columns import (
    _DATETIME_UNITS,
    _NUMPY,
    _arrow_column,
    _as_array,
    _column_numpy,
    _dtype_of,
    _empty,
    _field_buffer,
)
from .builder import AttributeBuilder, DimensionBuilder, SchemaBuilder

if _TYPE_CHECKING:
    from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

    import pandas
    import pyarrow

    from ._dataset import ArrayDataset

__all__ = [
    "TileDBCodecError",
    "FormatError",
    "SchemaError",
    "QueryError",
    "ConditionError",
    "StorageError",
    "EncryptionKeyError",
    "NotFoundError",
    "open_group",
    "object_type",
    "Group",
    "GroupMember",
    "open",
    "create",
    "consolidate",
    "vacuum",
    "Array",
    "Schema",
    "SchemaBuilder",
    "DimensionBuilder",
    "AttributeBuilder",
    "Dim",
    "Attr",
    "Metadata",
]

_TEXT = {"STRING_ASCII", "STRING_UTF8", "CHAR"}
# Datetimes whose Arrow type (a timestamp, or date32 for days) comes to
# numpy as datetime64 of the same unit: the ones a numpy read fills in place.
_DIRECT_DATETIMES = {"DATETIME_DAY", "DATETIME_SEC", "DATETIME_MS", "DATETIME_US", "DATETIME_NS"}
# Environment variables that configure object stores (as the command line
# reads them).
_STORE_ENV = ("AWS_", "GOOGLE_", "AZURE_")


def _key_bytes(key: Union[str, bytes, None]) -> Optional[bytes]:
    if key is None:
        return None
    return key.encode() if isinstance(key, str) else bytes(key)


def _time_range(timestamp: Any) -> Tuple[Optional[int], Optional[int]]:
    """``None``, ``t`` (everything up to t) or ``(t1, t2)`` in ms."""
    if timestamp is None:
        return None, None
    if isinstance(timestamp, (tuple, list)):
        if len(timestamp) != 2:
            raise TileDBCodecError(f"a timestamp range is (t1, t2), not {timestamp!r}")
        return timestamp[0], timestamp[1]
    return None, int(timestamp)


def open(  # noqa: A001 (the name TileDB-Py users know)
    uri: Union[str, "_os.PathLike[str]"],
    *,
    timestamp: Union[int, Tuple[Optional[int], Optional[int]], None] = None,
    key: Union[str, bytes, None] = None,
    config: Optional[_Mapping[str, Any]] = None,
) -> "Array":
    """Opens the array at ``uri``: a local path, or a URL (``s3://``,
    ``gs://``, ``az://``, ``http(s)://``, ``file://``) read through the
    object store with the usual environment credentials (``AWS_*``,
    ``GOOGLE_*``, ``AZURE_*``; ``AWS_ENDPOINT_URL`` and ``AWS_ALLOW_HTTP``
    for S3-compatible servers), ``config`` adding or replacing keys of the
    object_store crate (``aws_region``, ...).

    ``timestamp``: ``t`` reads the array as written up to ``t``
    (milliseconds since the epoch), ``(t1, t2)`` as written between them
    (either may be ``None``). ``key``: the 32-byte AES-256-GCM key of an
    encrypted array.
    """
    start, end = _time_range(timestamp)
    uri = str(uri)
    options: List[Tuple[str, str]] = []
    if "://" in uri:
        options = [(k.lower(), v) for k, v in _os.environ.items() if k.startswith(_STORE_ENV)]
        options += [(k.lower(), str(v)) for k, v in (config or {}).items()]
    return Array(_native.open(uri, start, end, _key_bytes(key), options))


def consolidate(uri: Union[str, "_os.PathLike[str]"], mode: str = "fragments", *,
                key: Union[str, bytes, None] = None,
                timestamp: Union[int, Tuple[Optional[int], Optional[int]], None] = None) -> bool:
    """Consolidates the array at ``uri`` (as TileDB-Py's
    ``tiledb.consolidate``): ``mode`` as :meth:`Array.consolidate`; ``key``:
    the 32-byte key of an encrypted array (the new fragment is written with
    it); ``timestamp``: ``(t1, t2)`` (or up to ``t``) in milliseconds, the
    fragments consolidated. Whether anything was written."""
    return open(uri, key=key).consolidate(mode, timestamp=timestamp)


def vacuum(uri: Union[str, "_os.PathLike[str]"], mode: str = "fragments", *,
           key: Union[str, bytes, None] = None,
           timestamp: Union[int, Tuple[Optional[int], Optional[int]], None] = None) -> int:
    """Vacuums the array at ``uri`` (as TileDB-Py's ``tiledb.vacuum``):
    removes what consolidations of ``mode`` within ``timestamp`` (all when
    ``None``) superseded; ``key``: the key of an encrypted array, which
    opening it needs. How many files and folders went."""
    return open(uri, key=key).vacuum(mode, timestamp=timestamp)


def create(uri: Union[str, "_os.PathLike[str]"], schema: Union["Schema", SchemaBuilder], *,
           key: Union[str, bytes, None] = None, timestamp: Optional[int] = None) -> "Array":
    """Creates an array at ``uri`` with ``schema`` (a :class:`Schema`, or a
    :class:`SchemaBuilder`, which is built) and opens it. ``key``: a 32-byte
    AES-256-GCM key: the array is encrypted, and every later open needs it
    (the opened array writes with it). ``timestamp``: the schema's time in
    milliseconds since the epoch (default now); an array opened at an
    earlier time has no schema yet."""
    if isinstance(schema, SchemaBuilder):
        schema = schema.build()
    if not isinstance(schema, Schema):
        raise TileDBCodecError(f"create takes a tiledb_codec.Schema or SchemaBuilder, not {type(schema).__name__}")
    return Array(_native.create(str(uri), _json.dumps(schema.to_json()), _key_bytes(key), timestamp))


class Dim:
    """A dimension: name, datatype (``"INT64"``, ``"STRING_ASCII"``...),
    domain ``(low, high)``, tile extent, filters (dicts such as
    ``{"type": "ZSTD", "level": 3}``)."""

    def __init__(self, name: str, datatype: str, domain: Optional[Tuple[Any, Any]] = None,
                 tile: Any = None, filters: Optional[List[Dict[str, Any]]] = None,
                 cell_val_num: Union[int, str, None] = None):
        self.name = name
        self.datatype = datatype.upper()
        self.domain = tuple(domain) if domain is not None else None
        self.tile = tile
        self.filters = list(filters or [])
        if cell_val_num is None:
            cell_val_num = "var" if self.datatype == "STRING_ASCII" else 1
        self.cell_val_num = cell_val_num

    @classmethod
    def _from_json(cls, d: Dict[str, Any]) -> "Dim":
        return cls(d["name"], d["datatype"], d.get("domain"), d.get("tile_extent"),
                   d.get("filters"), d.get("cell_val_num", 1))

    def to_json(self) -> Dict[str, Any]:
        """The dimension in the library's schema JSON."""
        out: Dict[str, Any] = {"name": self.name, "datatype": self.datatype,
                               "cell_val_num": self.cell_val_num, "filters": self.filters}
        out["domain"] = list(self.domain) if self.domain is not None else None
        out["tile_extent"] = self.tile
        return out

    def __repr__(self) -> str:
        f = f", filters={self.filters}" if self.filters else ""
        return f"Dim({self.name!r}, {self.datatype}, domain={self.domain}, tile={self.tile}{f})"


class Attr:
    """An attribute: name, datatype, ``var`` (var-sized cells),
    ``cell_val_num`` (values per fixed-size cell), nullable, fill value,
    filters, enumeration name."""

    def __init__(self, name: str, datatype: str, *, var: bool = False, cell_val_num: int = 1,
                 nullable: bool = False, fill: Any = None,
                 filters: Optional[List[Dict[str, Any]]] = None, enumeration: Optional[str] = None):
        self.name = name
        self.datatype = datatype.upper()
        self.cell_val_num: Union[int, str] = "var" if var else cell_val_num
        self.nullable = nullable
        self.fill = fill
        self.filters = list(filters or [])
        self.enumeration = enumeration

    @property
    def var(self) -> bool:
        """Whether cells are var-sized."""
        return self.cell_val_num == "var"

    @classmethod
    def _from_json(cls, d: Dict[str, Any]) -> "Attr":
        a = cls(d["name"], d["datatype"], nullable=d.get("nullable", False), fill=d.get("fill_value"),
                filters=d.get("filters"), enumeration=d.get("enumeration"))
        a.cell_val_num = d.get("cell_val_num", 1)
        return a

    def to_json(self) -> Dict[str, Any]:
        """The attribute in the library's schema JSON."""
        out: Dict[str, Any] = {"name": self.name, "datatype": self.datatype,
                               "cell_val_num": self.cell_val_num, "nullable": self.nullable,
                               "filters": self.filters}
        if self.fill is not None:
            out["fill_value"] = self.fill
        if self.enumeration is not None:
            out["enumeration"] = self.enumeration
        return out

    def __repr__(self) -> str:
        extra = ""
        if self.cell_val_num != 1:
            extra += f", cell_val_num={self.cell_val_num}"
        if self.nullable:
            extra += ", nullable"
        if self.enumeration:
            extra += f", enumeration={self.enumeration!r}"
        if self.filters:
            extra += f", filters={self.filters}"
        return f"Attr({self.name!r}, {self.datatype}{extra})"


class Schema:
    """An array schema: dimensions, attributes, orders, filters,
    enumerations (with their values), the current domain.

    Build one to create an array::

        Schema(dims=[Dim("x", "INT64", (1, 100), 10)], attrs=[Attr("a", "FLOAT64")])
    """

    def __init__(self, dims: Sequence[Dim] = (), attrs: Sequence[Attr] = (), *, sparse: bool = False,
                 cell_order: str = "row-major", tile_order: str = "row-major", capacity: int = 10000,
                 allows_duplicates: bool = False, enumerations: Sequence[Dict[str, Any]] = (),
                 _json: Optional[Dict[str, Any]] = None):
        if _json is not None:
            self._json = _json
        else:
            self._json = {
                "array_type": "sparse" if sparse else "dense",
                "cell_order": cell_order,
                "tile_order": tile_order,
                "capacity": capacity,
                "allows_duplicates": allows_duplicates,
                "dimensions": [d.to_json() for d in dims],
                "attributes": [a.to_json() for a in attrs],
                "enumerations": list(enumerations),
            }

    @classmethod
    def from_arrow(cls, schema: Any, dims: _Mapping[str, Tuple[Any, Any]], *, sparse: bool = True) -> "Schema":
        """A schema for a ``pyarrow.Schema`` (anything with
        ``__arrow_c_schema__``): ``dims`` maps the fields that become the
        dimensions, in order, to ``(domain, tile_extent)`` (``(None, None)``
        for string dimensions); the other fields become attributes (nullable
        as the fields are, dictionaries as enumerations)."""
        j = _json.loads(_native.schema_from_arrow(schema, list(dims)))
        for d in j["dimensions"]:
            domain, tile = dims[d["name"]]
            d["domain"] = list(domain) if domain is not None else None
            d["tile_extent"] = tile
        if not sparse:
            j["array_type"] = "dense"
        return cls(_json=j)

    def to_json(self) -> Dict[str, Any]:
        """The schema as the library's JSON (``inspect --json``'s ``schema``)."""
        return self._json

    @property
    def sparse(self) -> bool:
        """Whether the array is sparse."""
        return self._json["array_type"] == "sparse"

    @property
    def dims(self) -> List[Dim]:
        """The dimensions, in order."""
        return [Dim._from_json(d) for d in self._json["dimensions"]]

    @property
    def attrs(self) -> List[Attr]:
        """The attributes, in order."""
        return [Attr._from_json(a) for a in self._json["attributes"]]

    @property
    def enumerations(self) -> Dict[str, Dict[str, Any]]:
        """The enumerations by name (datatype, ordered, values)."""
        return {e["name"]: e for e in self._json.get("enumerations", [])}

    @property
    def current_domain(self) -> Any:
        """The current domain, where set (``None`` otherwise)."""
        return self._json.get("current_domain")

    @property
    def cell_order(self) -> str:
        """The order of cells in a tile (``row-major``, ``col-major``, ``hilbert``)."""
        return self._json.get("cell_order", "row-major")

    @property
    def tile_order(self) -> str:
        """The order of tiles (``row-major``, ``col-major``)."""
        return self._json.get("tile_order", "row-major")

    @property
    def capacity(self) -> int:
        """Cells per data tile of a sparse array."""
        return self._json.get("capacity", 10000)

    @property
    def allows_duplicates(self) -> bool:
        """Whether a sparse array keeps every cell of one coordinate."""
        return bool(self._json.get("allows_duplicates", False))

    @property
    def version(self) -> Optional[int]:
        """The format version it was written in."""
        return self._json.get("version")

    def dim(self, name: str) -> Dim:
        """The dimension called ``name``."""
        for d in self.dims:
            if d.name == name:
                return d
        raise TileDBCodecError(f"no dimension {name!r}")

    def attr(self, name: str) -> Attr:
        """The attribute called ``name``."""
        for a in self.attrs:
            if a.name == name:
                return a
        raise TileDBCodecError(f"no attribute {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and self._json == other._json

    def __repr__(self) -> str:
        j = self._json
        lines = [f"Schema({j['array_type']}, cell_order={self.cell_order}, tile_order={self.tile_order}"
                 + (f", capacity={self.capacity}" if self.sparse else "")
                 + (", allows_duplicates" if self.allows_duplicates else "")
                 + (f", version={self.version}" if self.version is not None else "")]
        lines.append("  dims:")
        lines += [f"    {d!r}" for d in self.dims]
        lines.append("  attrs:")
        lines += [f"    {a!r}" for a in self.attrs]
        for e in j.get("enumerations", []):
            values = e.get("values")
            lines.append(f"  enumeration {e['name']!r} {e['datatype']}"
                         + (" ordered" if e.get("ordered") else "") + f": {values}")
        for k in ("coords_filters", "offsets_filters", "validity_filters"):
            if j.get(k):
                lines.append(f"  {k}: {j[k]}")
        if j.get("current_domain") is not None:
            lines.append(f"  current_domain: {j['current_domain']}")
        return "\n".join(lines) + "\n)"


def _meta_value(datatype: str, raw: bytes) -> Any:
    if datatype in _TEXT:
        return raw.decode("utf-8", errors="surrogateescape")
    if datatype in _NUMPY:
        v = _np.frombuffer(raw, dtype=_NUMPY[datatype])
    elif datatype in _DATETIME_UNITS:
        v = _np.frombuffer(raw, dtype="<i8")
    else:
        return bytes(raw)
    items = tuple(x.item() for x in v)
    return items[0] if len(items) == 1 else items


def _meta_bytes(value: Any) -> Tuple[str, bytes]:
    if isinstance(value, str):
        return "STRING_UTF8", value.encode()
    if isinstance(value, (bytes, bytearray)):
        return "BLOB", bytes(value)
    arr = _np.asarray(value)
    if arr.ndim > 1:
        raise TileDBCodecError("a metadata value is a scalar or a 1-D list")
    if arr.dtype == _np.bool_:
        return "BOOL", arr.astype("?").tobytes()
    if arr.dtype.kind == "i":
        name = {1: "INT8", 2: "INT16", 4: "INT32", 8: "INT64"}[arr.dtype.itemsize]
        if isinstance(value, (int, list, tuple)):
            name, arr = "INT64", arr.astype("<i8")
    elif arr.dtype.kind == "u":
        name = {1: "UINT8", 2: "UINT16", 4: "UINT32", 8: "UINT64"}[arr.dtype.itemsize]
    elif arr.dtype.kind == "f":
        name = {4: "FLOAT32", 8: "FLOAT64"}.get(arr.dtype.itemsize, "FLOAT64")
        if name == "FLOAT64":
            arr = arr.astype("<f8")
    else:
        raise TileDBCodecError(f"a metadata value of type {type(value).__name__} cannot be stored")
    return name, arr.astype(_NUMPY[name]).tobytes()


class Metadata(_Mapping):
    """An array's metadata, as a mapping (read when the array was opened).
    ``A.meta["k"] = v`` and ``del A.meta["k"]`` write it; reopen to read the
    change."""

    def __init__(self, array: "Array"):
        self._array = array
        self._values = {k: _meta_value(dt, raw) for k, dt, raw in array._native.metadata()}

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __setitem__(self, key: str, value: Any) -> None:
        self.put(key, value)

    def __delitem__(self, key: str) -> None:
        self.delete(key)

    def put(self, key: str, value: Any, *, timestamp: Optional[int] = None) -> None:
        """Sets ``key`` to ``value`` (a string, bytes, a number or a 1-D
        list of numbers) at ``timestamp`` (milliseconds since the epoch;
        default now), with the array's key where it is encrypted."""
        datatype, raw = _meta_bytes(value)
        self._array._native.put_metadata(key, datatype, raw, timestamp)
        self._values[key] = _meta_value(datatype, raw)

    def delete(self, key: str, *, timestamp: Optional[int] = None) -> None:
        """Deletes ``key`` at ``timestamp`` (default now); an error when it
        is not set."""
        self._array._native.delete_metadata(key, timestamp)
        self._values.pop(key, None)

    def __repr__(self) -> str:
        return f"Metadata({self._values!r})"


def _bound(v: Any, datatype: str) -> Any:
    """A range bound as the library takes it (datetimes as integers in the
    dimension's unit, strings as str)."""
    if isinstance(v, _np.datetime64):
        unit = _DATETIME_UNITS.get(datatype)
        if unit is None:
            raise TileDBCodecError(f"a datetime bound on a {datatype} dimension")
        return int(v.astype(f"datetime64[{unit}]").astype("int64"))
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, _np.generic):
        return v.item()
    return v


class Array:
    """An opened array (made by :func:`open`). Reads go to Arrow
    (:meth:`read`, :meth:`batches`) and numpy (:meth:`to_numpy`)."""

    def __init__(self, native: Any):
        self._native = native
        self._schema: Optional[Schema] = None

    @property
    def uri(self) -> str:
        """Where the array is."""
        return str(self._native.path())

    @property
    def schema(self) -> Schema:
        """The array's schema (the newest one, which reads use)."""
        if self._schema is None:
            self._schema = Schema(_json=_json.loads(self._native.schema_json()))
        return self._schema

    @property
    def fragments(self) -> List[Dict[str, Any]]:
        """The committed fragments, oldest first: dicts of ``name``,
        ``timestamps``, ``format_version``, ``dense``, ``cell_count``,
        ``non_empty_domain``."""
        return self._native.fragments()

    @property
    def meta(self) -> Metadata:
        """The array metadata (a mapping)."""
        return Metadata(self)

    def enum(self, name: str) -> List[Any]:
        """The values of enumeration ``name``."""
        e = self.schema.enumerations.get(name)
        if e is None:
            raise TileDBCodecError(f"no enumeration {name!r} (there are: {', '.join(self.schema.enumerations)})")
        return list(e.get("values") or [])

    def nonempty_domain(self) -> Optional[Tuple[Tuple[Any, Any], ...]]:
        """The union of the fragments' non-empty domains, one ``(low,
        high)`` per dimension (``None`` when nothing is written). String
        bounds are ``bytes`` and datetime bounds ``numpy.datetime64``, as
        TileDB-Py gives them."""
        out = self._native.nonempty_domain()
        if out is None:
            return None
        res = []
        for d, (lo, hi) in zip(self.schema.dims, out):
            if d.datatype in _DATETIME_UNITS:
                unit = _DATETIME_UNITS[d.datatype]
                lo, hi = _np.datetime64(lo, unit), _np.datetime64(hi, unit)
            res.append((lo, hi))
        return tuple(res)

    def _stream(self, ranges: Any = None, where: Optional[str] = None, attrs: Optional[Sequence[str]] = None,
                order: Optional[str] = None, batch_size: Optional[int] = None,
                memory_budget: Optional[int] = None, coords: bool = True, lazy: bool = True) -> Any:
        """The native stream of a read; ``lazy``: batches made as they are
        taken (else all of them before this returns, for a whole read)."""
        options = {"order": order, "batch_size": batch_size, "memory_budget": memory_budget,
                   "coords": coords, "lazy": lazy}
        return self._native.stream(list(attrs) if attrs is not None else None, self._triples(ranges), where,
                                   options)

    def _triples(self, ranges: Any) -> List[Tuple[str, Any, Any]]:
        """``ranges`` as (dimension, low, high) triples the library takes."""
        triples: List[Tuple[str, Any, Any]] = []
        if ranges:
            types = {d.name: d.datatype for d in self.schema.dims}
            items = ranges.items() if isinstance(ranges, _Mapping) else ranges
            for dim, rs in items:
                if dim not in types:
                    raise TileDBCodecError(f"no dimension {dim!r} (the dimensions are: {', '.join(types)})")
                if isinstance(rs, slice):
                    rs = [(rs.start, rs.stop)]
                elif isinstance(rs, tuple) and len(rs) == 2 and not isinstance(rs[0], (tuple, list, slice)):
                    rs = [rs]
                elif not isinstance(rs, (list, tuple)):
                    rs = [(rs, rs)]
                for r in rs:
                    if isinstance(r, slice):
                        r = (r.start, r.stop)
                    elif not isinstance(r, (tuple, list)):
                        r = (r, r)
                    if len(r) != 2:
                        raise TileDBCodecError(f"a range on {dim!r} is (low, high), not {r!r}")
                    triples.append((dim, _bound(r[0], types[dim]), _bound(r[1], types[dim])))
        return triples

    def batches(self, ranges: Any = None, *, where: Optional[str] = None, attrs: Optional[Sequence[str]] = None,
                order: Optional[str] = None, batch_size: Optional[int] = None,
                memory_budget: Optional[int] = None, coords: bool = True) -> "pyarrow.RecordBatchReader":
        """The cells as a ``pyarrow.RecordBatchReader``, streamed in batches
        of at most ``batch_size`` cells within ``memory_budget`` bytes.

        ``ranges``: ``{dim: (low, high)}`` (inclusive) or ``{dim: [(l1, h1),
        (l2, h2)]}`` (their union); ``where``: a condition in TileDB-Py's
        syntax (``"a > 5 and s == 'x'"``); ``attrs``: the attributes to read
        (default all); ``order``: ``"row-major"``, ``"col-major"``,
        ``"global"``, ``"unordered"``; ``coords``: whether the dimensions
        come too. Errors met while streaming come as pyarrow errors carrying
        the library's message."""
        import pyarrow as pa

        return pa.RecordBatchReader.from_stream(
            self._stream(ranges, where, attrs, order, batch_size, memory_budget, coords))

    def read(self, ranges: Any = None, *, where: Optional[str] = None, attrs: Optional[Sequence[str]] = None,
             order: Optional[str] = None, coords: bool = True) -> "pyarrow.Table":
        """The cells as a ``pyarrow.Table`` (arguments as :meth:`batches`):
        dimensions then attributes; nullable attributes with nulls,
        enumerated ones as dictionaries, datetimes as timestamps.

        A dense read of fixed-width numbers and timestamps without nulls,
        ``where`` or ``coords`` is decoded straight into pyarrow buffers
        (:meth:`read_into`), one chunk per column; other reads come over the
        Arrow C stream."""
        if where is None and not coords:
            direct = self._read_direct(ranges, attrs, order)
            if direct is not None:
                return direct
        return self._read_stream(ranges, where, attrs, order, coords)

    def aggregate(self, exprs: Sequence[str], ranges: Any = None, *, where: Optional[str] = None) -> List[Any]:
        """The aggregates ``exprs`` (``"count(*)"``, ``"sum(a)"``,
        ``"min(a)"``, ``"max(a)"``, ``"mean(a)"``, ``"null_count(a)"``) over
        the cells ``ranges`` and ``where`` select (as :meth:`read`), one
        value each, computed as TileDB computes them: sums of integers are
        64-bit, nulls are skipped, and on a dense array ``count`` counts
        every cell of the region whatever ``where`` says while the others
        see only the cells it keeps. Tiles covered whole are answered from
        their metadata, without reading cells. A null value is ``None``."""
        if isinstance(exprs, str):
            raise TileDBCodecError("exprs: a list of aggregates, such as ['count(*)', 'sum(a)']")
        return self._native.aggregate(list(exprs), self._triples(ranges), where)

    def _read_stream(self, ranges: Any, where: Optional[str], attrs: Optional[Sequence[str]],
                     order: Optional[str], coords: bool) -> "pyarrow.Table":
        """:meth:`read` through the Arrow C stream (every kind of read)."""
        import pyarrow as pa

        # Read whole in the library (no thread, no waiting for batches).
        reader = pa.RecordBatchReader.from_stream(
            self._stream(ranges, where, attrs, order, None, None, coords, lazy=False))
        try:
            return reader.read_all()
        except pa.ArrowException as e:
            raise TileDBCodecError(str(e)) from e

    def _read_direct(self, ranges: Any, attrs: Optional[Sequence[str]], order: Optional[str]) -> Any:
        """:meth:`read` of a dense read of fixed-width numbers and
        timestamps, none nullable, without coordinates: into pyarrow buffers
        allocated here (:meth:`read_into`), one chunk per column, typed as
        the Arrow stream types them; ``None`` where that does not apply."""
        import pyarrow as pa

        plan = self._direct_plan(ranges, attrs, order)
        if plan is None:
            return None
        shape, fields = plan
        if any(k != 1 or nullable or dtype.kind == "b" or dtype == _np.dtype("datetime64[D]")
               for _, dtype, k, nullable in fields):
            return None  # Arrow's booleans are bits, its days 32-bit, its nulls a bitmap
        # The schema of the stream, which reads nothing before it is asked.
        stream = pa.RecordBatchReader.from_stream(self._stream(ranges, None, attrs, order, None, None, False))
        schema = stream.schema
        stream.close()
        cells = int(_np.prod(shape))
        bufs = {name: pa.allocate_buffer(cells * dtype.itemsize) for name, dtype, _, _ in fields}
        if self.read_into(bufs, ranges, order=order) != cells:
            return None
        arrays = [pa.Array.from_buffers(f.type, cells, [None, bufs[f.name]]) for f in schema]
        return pa.Table.from_arrays(arrays, schema=schema)

    def to_numpy(self, ranges: Any = None, *, where: Optional[str] = None,
                 attrs: Optional[Sequence[str]] = None, order: Optional[str] = None,
                 coords: bool = False) -> Dict[str, _np.ndarray]:
        """The cells as a dict of numpy arrays, as TileDB-Py gives them:
        dense reads shaped as the subarray (when one range per dimension is
        read and no condition), nullable attributes as masked arrays,
        var-sized cells as object arrays (strings as ``str``, others as
        arrays). ``coords``: the dimensions too.

        A dense read of fixed-size numbers, booleans and datetimes with no
        ``where`` (one range per dimension at most) is decoded straight into
        the numpy arrays (:meth:`read_into`); other reads go through Arrow."""
        if where is None:
            direct = self._to_numpy_direct(ranges, attrs, order, coords)
            if direct is not None:
                return direct
        return self._to_numpy_arrow(ranges, where, attrs, order, coords)

    def _to_numpy_arrow(self, ranges: Any, where: Optional[str], attrs: Optional[Sequence[str]],
                        order: Optional[str], coords: bool) -> Dict[str, _np.ndarray]:
        """:meth:`to_numpy` through a pyarrow Table (every kind of read)."""
        table = self.read(ranges, where=where, attrs=attrs, order=order, coords=coords)
        dims = [d.name for d in self.schema.dims]
        shape = self._dense_shape(ranges) if where is None else None
        if shape is not None and int(_np.prod(shape)) != table.num_rows:
            shape = None
        np_order = "F" if order in ("col-major", "F") else "C"
        out: Dict[str, _np.ndarray] = {}
        for name in table.column_names:
            if name in dims and not coords:
                continue
            arr = _column_numpy(table.column(name))
            if shape is not None and arr.ndim >= 1:
                arr = arr.reshape(shape + arr.shape[1:], order=np_order)
            out[name] = arr
        return out

    def _direct_plan(self, ranges: Any, attrs: Optional[Sequence[str]], order: Optional[str]
                     ) -> Optional[Tuple[Tuple[int, ...], List[Tuple[str, _np.dtype, int, bool]]]]:
        """The shape and the fields (name, numpy dtype, values per cell,
        nullable) of a read that :meth:`read_into` can make into arrays
        allocated here: a dense array, one range per dimension at most, a
        row- or col-major order, attributes of fixed-size numbers, booleans
        or datetimes (those numpy and Arrow take as datetime64 of the same
        unit); ``None`` for any other read."""
        schema = self.schema
        if schema.sparse or order not in (None, "row-major", "col-major", "C", "F"):
            return None
        triples = self._triples(ranges)
        if len({t[0] for t in triples}) != len(triples):
            return None  # several ranges on a dimension
        by_name = {a.name: a for a in schema.attrs}
        names = list(attrs) if attrs is not None else list(by_name)
        if not names or len(set(names)) != len(names):
            return None
        fields = []
        for name in names:
            a = by_name.get(name)
            if a is None or a.var or a.enumeration:
                return None  # unknown names are the Arrow path's error
            dtype = _dtype_of(a.datatype)
            if dtype is None or (dtype.kind == "M" and a.datatype not in _DIRECT_DATETIMES):
                return None
            k = int(a.cell_val_num)
            if k != 1 and a.nullable:
                return None
            fields.append((name, dtype, k, a.nullable))
        shape = self._dense_shape(ranges)
        if shape is None or any(n <= 0 for n in shape):
            return None
        return shape, fields

    def _to_numpy_direct(self, ranges: Any, attrs: Optional[Sequence[str]], order: Optional[str],
                         coords: bool) -> Optional[Dict[str, _np.ndarray]]:
        """:meth:`to_numpy` of a dense read of fixed-size attributes into
        arrays made here (:meth:`read_into`), the same arrays as
        :meth:`_to_numpy_arrow` gives; ``None`` where that read does not
        apply (the caller takes the Arrow path)."""
        plan = self._direct_plan(ranges, attrs, order)
        if plan is None:
            return None
        shape, fields = plan
        cells = int(_np.prod(shape))
        bufs: Dict[str, Any] = {}
        for name, dtype, k, nullable in fields:
            data = _empty(cells * k, dtype)
            if k != 1:
                data = data.reshape(cells, k)
            bufs[name] = (data, _empty(cells, _np.dtype(_np.uint8))) if nullable else data
        if self.read_into(bufs, ranges, order=order) != cells:
            return None
        out: Dict[str, _np.ndarray] = {}
        if coords:
            out = self._to_numpy_arrow(ranges, None, [], order, True)
        np_order = "F" if order in ("col-major", "F") else "C"
        for name, dtype, k, nullable in fields:
            if nullable:
                data, validity = bufs[name]
                mask = validity == 0
                data[mask] = _np.zeros((), dtype=dtype)  # as the Arrow path fills nulls
                arr = _np.ma.masked_array(data, mask=mask)
            else:
                arr = bufs[name]
            out[name] = arr.reshape(shape + arr.shape[1:], order=np_order)
        return out

    def read_into(self, buffers: _Mapping[str, Any], ranges: Any = None, *, order: Optional[str] = None) -> int:
        """Reads into buffers the caller owns and returns how many cells
        were read: ``buffers`` maps each field to read (attributes, or
        dimensions) to a writable buffer, or to a ``(values, validity)``
        pair for a nullable attribute (validity: one ``uint8`` or ``bool``
        per cell, 1 = a value). A buffer is a contiguous numpy array of the
        field's type (``float64`` for FLOAT64, ``bool`` or ``uint8`` for
        BOOL, ``datetime64`` of the field's unit or ``int64`` for
        datetimes), or any object with the writable buffer protocol (a
        ``pyarrow.allocate_buffer(...)``, a ``bytearray``), whose memory is
        taken as values of the field's type. Var-sized fields cannot be
        read into buffers (use :meth:`read`).

        The cells go to the start of each buffer in the read's ``order``
        (``"row-major"`` or ``"col-major"`` for a dense read; ``ranges`` as
        :meth:`batches`); a buffer may be larger than the read. A dense read
        of fixed-size attributes decodes its tiles straight into the
        buffers, in parallel: reading again into the same buffers touches
        no fresh memory. The GIL is released while the library reads; the
        buffers must not be resized or written meanwhile. A buffer too
        small or of the wrong type raises :class:`TileDBCodecError`, and
        nothing is written.

            >>> A = tiledb_codec.open("tests/fixtures/v22/dense_int_2d")
            >>> a = _np.empty((2, 4), dtype="int32")
            >>> A.read_into({"a": a}, {"rows": (1, 2), "cols": (2, 5)})
            8
        """
        schema = self.schema
        kinds = {d.name: (d.datatype, d.cell_val_num) for d in schema.dims}
        kinds.update({a.name: (a.datatype, a.cell_val_num) for a in schema.attrs})
        targets = []
        for name, buf in buffers.items():
            if name not in kinds:
                raise TileDBCodecError(f"no field {name!r} (the fields are: {', '.join(kinds)})")
            validity = None
            if isinstance(buf, tuple):
                if len(buf) != 2:
                    raise TileDBCodecError(f"the buffers of {name!r}: (values, validity), not {len(buf)} things")
                buf, validity = buf
            datatype, cvn = kinds[name]
            if cvn == "var":
                raise TileDBCodecError(f"{name!r} is var-sized: read it with read() or to_numpy()")
            values = _field_buffer(name, datatype, buf)
            if validity is not None and not isinstance(validity, _np.ndarray):
                validity = _as_array(f"the validity buffer of {name!r}", validity, _np.dtype(_np.uint8))
            targets.append((name, values, validity))
        return self._native.read_into(targets, self._triples(ranges), order)

    def dataset(self) -> "ArrayDataset":
        """The array as a ``pyarrow.dataset.Dataset`` that DuckDB and Polars
        scan with their projections and filters pushed into the read::

            ds = tiledb_codec.open(uri).dataset()
            duckdb.sql("SELECT count(*), sum(a) FROM ds WHERE a > 5")
            pl.scan_pyarrow_dataset(ds).filter(pl.col("a") > 5).select("a").collect()

        ``ds.reads`` records what each scan read (attributes, ranges,
        condition, rows)."""
        from ._dataset import ArrayDataset

        return ArrayDataset(self)

    def to_pandas(self, ranges: Any = None, *, where: Optional[str] = None,
                  attrs: Optional[Sequence[str]] = None, order: Optional[str] = None,
                  coords: bool = True) -> "pandas.DataFrame":
        """The cells as a ``pandas.DataFrame`` (pandas must be installed;
        arguments as :meth:`read`): enumerated attributes as categoricals."""
        return self.read(ranges, where=where, attrs=attrs, order=order, coords=coords).to_pandas()

    def _dense_shape(self, ranges: Any) -> Optional[Tuple[int, ...]]:
        """The shape of a dense read of ``ranges``: per dimension the cells
        of its ranges, or of the non-empty domain where none is given (as
        the library reads it); ``None`` for a sparse array."""
        if self.schema.sparse:
            return None
        given: Dict[str, List[Tuple[Any, Any]]] = {}
        for dim, lo, hi in self._triples(ranges):
            given.setdefault(dim, []).append((lo, hi))
        ned = self.nonempty_domain()
        shape = []
        for i, d in enumerate(self.schema.dims):
            rs = given.get(d.name) or ([ned[i]] if ned is not None else None)
            if rs is None:
                return None
            try:
                shape.append(sum(int(hi) - int(lo) + 1 for lo, hi in rs))
            except (TypeError, ValueError):
                return None
        return tuple(shape)

    def write(self, data: Any, *, timestamp: Optional[int] = None) -> None:
        """Writes ``data`` as one fragment: a pyarrow Table or RecordBatch
        (anything with ``__arrow_c_stream__``), a pandas DataFrame, or a
        dict of numpy arrays / lists, each with a column for every dimension
        (a dense array takes the cells of a whole rectangle, each once).

        ``timestamp``: the fragment's time in milliseconds since the epoch
        (default now); opens at an earlier time do not see it. An encrypted
        array (opened or created with ``key=``) is written with its key.

        An attribute with an enumeration takes its labels: a pyarrow
        dictionary array, a pandas Categorical, or plain values (strings),
        each stored as the key of its label (a label the enumeration lacks
        is an error); integer columns are taken as the keys themselves."""
        import pyarrow as pa

        if type(data).__name__ == "DataFrame" and hasattr(data, "to_records"):
            data = pa.Table.from_pandas(data, preserve_index=False)
        if isinstance(data, _Mapping):
            data = pa.table({k: (v if isinstance(v, (pa.Array, pa.ChunkedArray)) else _arrow_column(v))
                             for k, v in data.items()})
        elif isinstance(data, pa.RecordBatch):
            data = pa.Table.from_batches([data])
        if not hasattr(data, "__arrow_c_stream__"):
            raise TileDBCodecError(f"cannot write a {type(data).__name__} (a pyarrow Table or a dict of arrays)")
        if isinstance(data, pa.Table):
            data = self._labels_as_dictionaries(data)
        self._native.write(data, timestamp)

    def _labels_as_dictionaries(self, table: Any) -> Any:
        """``table`` with the plain label columns of enumerated attributes
        dictionary-encoded (the library maps dictionaries to keys)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        enumerated = {a.name for a in self.schema.attrs if a.enumeration}
        for i, name in enumerate(table.column_names):
            t = table.schema.field(i).type
            if name in enumerated and not (pa.types.is_dictionary(t) or pa.types.is_integer(t)):
                table = table.set_column(i, name, pc.dictionary_encode(table.column(i)))
        return table

    def delete(self, where: str, *, timestamp: Optional[int] = None) -> None:
        """Deletes the cells for which ``where`` holds (sparse arrays)."""
        self._native.delete(where, timestamp)

    def consolidate(self, mode: str = "fragments", *, timestamp: Optional[Tuple[int, int]] = None) -> bool:
        """Consolidates ``mode`` (``fragments``, ``fragment_meta``,
        ``commits``, ``array_meta``); whether anything was written."""
        start, end = _time_range(timestamp) if timestamp is not None else (None, None)
        return self._native.consolidate(mode, start, end)

    def vacuum(self, mode: str = "fragments", *,
               timestamp: Union[int, Tuple[Optional[int], Optional[int]], None] = None) -> int:
        """Removes what consolidations of ``mode`` superseded; how many
        files and folders went. ``timestamp``: only what was consolidated
        within ``(t1, t2)`` (or up to ``t``), in milliseconds, as
        TileDB-Py's ``vacuum(..., timestamp=)``."""
        start, end = _time_range(timestamp)
        return self._native.vacuum(mode, start, end)

    def __enter__(self) -> "Array":
        """``with tiledb_codec.open(uri) as A:``, as TileDB-Py's arrays are
        used."""
        return self

    def __exit__(self, *exc: Any) -> None:
        """Nothing to release: the array's files go with the object."""

    def __repr__(self) -> str:
        return f"tiledb_codec.Array({self.uri!r})"


from ._group import Group, GroupMember, object_type, open_group  # noqa: E402 (needs the names above)


def __dir__() -> "List[str]":
    """The API (``__all__``) and the ``compat`` module: what ``dir()``
    lists, without the imports the package uses."""
    return sorted([*__all__, "compat"])
