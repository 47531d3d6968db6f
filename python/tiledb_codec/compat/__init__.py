"""A TileDB-Py-compatible read API, for code moving from TileDB-Py:

    import tiledb_codec.compat as tiledb
    with tiledb.open(uri) as A:
        A.schema.domain.dim(0).domain             # the schema objects of TileDB-Py
        A[1:3, 2:6]["a"]                          # half-open slices, as TileDB-Py
        A.multi_index[1:2, [2, slice(4, 5)]]      # inclusive ranges, lists of ranges
        A.query(attrs=["a"], cond="a > 5", coords=True).multi_index[:]
        A.query(attrs=["a"]).df[0:3]              # a pandas.DataFrame, as TileDB-Py
        A.query().agg({"a": ["sum", "max"]})[:]   # aggregates
    tiledb.FragmentInfoList(uri), tiledb.Group(uri), tiledb.object_type(uri)

The objects are TileDB-Py 0.36's, read-only: ``ArraySchema``, ``Domain``,
``Dim``, ``Attr``, ``FilterList`` and the filters, ``Enumeration``,
``FragmentInfoList``, ``Group``, ``Config`` and ``Ctx``. Writes stay in the
native API (:mod:`tiledb_codec`): opening for writing is refused with the
native call to use. Errors are :class:`TileDBError` (the native
:class:`tiledb_codec.TileDBCodecError` and its subclasses).
"""

from __future__ import annotations

import os as _os
from typing import Any as _Any
from typing import Optional as _Optional
from typing import Union as _Union

import tiledb_codec as _tc
from tiledb_codec import TileDBCodecError

from . import _config
from ._array import Aggregation, Array, DenseArray, Metadata, Query, SparseArray
from ._config import Config, Ctx, default_ctx
from ._filters import (
    BitShuffleFilter,
    BitWidthReductionFilter,
    ByteShuffleFilter,
    Bzip2Filter,
    ChecksumMD5Filter,
    ChecksumSHA256Filter,
    DeltaFilter,
    DictionaryFilter,
    DoubleDeltaFilter,
    Filter,
    FilterList,
    FloatScaleFilter,
    GzipFilter,
    LZ4Filter,
    NoOpFilter,
    PositiveDeltaFilter,
    RleFilter,
    WebpFilter,
    WebpInputFormat,
    XORFilter,
    ZstdFilter,
)
from ._objects import FragmentInfo, FragmentInfoList, Group, Object
from ._schema import ArraySchema, Attr, Dim, Domain, Enumeration

#: TileDB-Py's error class: the native one, so ``except tiledb.TileDBError``
#: catches every error of the package.
TileDBError = TileDBCodecError
#: The name the array class had before this module followed TileDB-Py's.
CompatArray = Array

__all__ = [
    "open", "array_exists", "object_type", "ls", "walk", "array_fragments",
    "TileDBError", "TileDBCodecError", "Config", "Ctx", "default_ctx",
    "Array", "DenseArray", "SparseArray", "Query", "Aggregation", "Metadata",
    "ArraySchema", "Domain", "Dim", "Attr", "Enumeration",
    "Filter", "FilterList", "NoOpFilter", "GzipFilter", "ZstdFilter", "LZ4Filter", "Bzip2Filter", "RleFilter",
    "DeltaFilter", "DoubleDeltaFilter", "DictionaryFilter", "BitShuffleFilter", "ByteShuffleFilter",
    "BitWidthReductionFilter", "PositiveDeltaFilter", "ChecksumMD5Filter", "ChecksumSHA256Filter",
    "FloatScaleFilter", "XORFilter", "WebpFilter", "WebpInputFormat",
    "FragmentInfo", "FragmentInfoList", "Group", "Object",
]

# What each write mode is in the native API.
_NATIVE_WRITES = {
    "w": "tiledb_codec.open(uri).write(data)",
    "m": "tiledb_codec.open(uri).meta[key] = value",
    "d": "tiledb_codec.open(uri).delete(condition)",
    "u": "tiledb_codec.open(uri).write(data)",
}


def open(uri: _Any, mode: str = "r", key: _Any = None, attr: _Optional[str] = None, config: _Any = None,
         timestamp: _Any = None, ctx: _Any = None, **_ignored: _Any) -> Array:
    """Opens an array for reading, as ``tiledb.open``: a
    :class:`DenseArray` or :class:`SparseArray`. ``timestamp``: ``t``
    (everything written up to ``t``) or ``(t1, t2)``, in milliseconds;
    ``key``, or ``sm.encryption_key`` in ``config``/``ctx``, for an
    encrypted array; the ``vfs.s3.*`` (and GCS, Azure) parameters of
    ``config``/``ctx`` configure the object store. ``attr``: a view of one
    attribute (``A[...]`` gives its array)."""
    if mode != "r":
        native = _NATIVE_WRITES.get(mode)
        if native is None:
            raise TileDBCodecError(f"unknown mode {mode!r} (tiledb_codec.compat opens with 'r')")
        raise TileDBCodecError(f"tiledb_codec.compat reads only (mode {mode!r}): use {native}")
    if isinstance(timestamp, (tuple, list)):
        if len(timestamp) != 2:
            raise TileDBCodecError(f"a timestamp range is (t1, t2), not {timestamp!r}")
        t1, t2 = timestamp
        trange = (0 if t1 is None else int(t1), t2)
    elif timestamp is not None:
        trange = (0, int(timestamp))
    else:
        trange = None
    native_array = _tc.open(uri, timestamp=timestamp, key=_config.key_of(key, ctx, config),
                            config=_config.store_options(ctx, config))
    return Array._wrap(native_array, trange, attr)  # type: ignore[arg-type]


def object_type(uri: _Union[str, "_os.PathLike[str]"], ctx: _Any = None) -> _Optional[str]:
    """``"array"``, ``"group"`` or ``None``, as ``tiledb.object_type``."""
    return _tc.object_type(uri)


def array_exists(uri: _Union[str, "_os.PathLike[str]"], isdense: bool = False, issparse: bool = False,
                 ctx: _Any = None) -> bool:
    """Whether an array is at ``uri`` (of that kind, with ``isdense`` or
    ``issparse``), as ``tiledb.array_exists``."""
    if object_type(uri, ctx) != "array":
        return False
    if not (isdense or issparse):
        return True
    sparse = ArraySchema.load(uri, ctx=ctx).sparse
    return sparse if issparse else not sparse


def array_fragments(uri: _Union[str, "_os.PathLike[str]"], include_mbrs: bool = False,
                    ctx: _Any = None) -> FragmentInfoList:
    """The array's fragments, as ``tiledb.array_fragments``."""
    return FragmentInfoList(uri, include_mbrs=include_mbrs, ctx=ctx)


def _children(path: str) -> "list[tuple[str, str, str]]":
    """The TileDB objects in the folder ``path``: (path, URI, type), by name."""
    local = path[len("file://"):] if path.startswith("file://") else path
    if "://" in local:
        raise TileDBCodecError(f"{path}: ls and walk list local folders (a path or a file:// URI)")
    if not _os.path.isdir(local):
        return []
    out = []
    for name in sorted(_os.listdir(local)):
        child = _os.path.join(local, name)
        kind = _tc.object_type(child) if _os.path.isdir(child) else None
        if kind is not None:
            out.append((child, "file://" + _os.path.abspath(child), kind))
    return out


def ls(path: _Union[str, "_os.PathLike[str]"], func: _Any, ctx: _Any = None) -> None:
    """Calls ``func(uri, type)`` for each array or group in the folder
    ``path``, as ``tiledb.ls``."""
    for _, uri, kind in _children(str(path)):
        func(uri, kind)


def walk(path: _Union[str, "_os.PathLike[str]"], func: _Any, order: str = "preorder", ctx: _Any = None) -> None:
    """Calls ``func(uri, type)`` for each array or group under ``path``,
    going into groups, parents before (``"preorder"``) or after
    (``"postorder"``) their contents, as ``tiledb.walk``."""
    if order not in ("preorder", "postorder"):
        raise TileDBCodecError(f"order is 'preorder' or 'postorder', not {order!r}")

    def visit(folder: str) -> None:
        for child, uri, kind in _children(folder):
            if order == "preorder":
                func(uri, kind)
            visit(child)
            if order == "postorder":
                func(uri, kind)

    visit(str(path))


def __dir__() -> list:
    return sorted(__all__)
