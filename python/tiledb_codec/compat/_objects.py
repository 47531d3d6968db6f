"""TileDB-Py's ``FragmentInfoList`` and ``Group`` (read), over the native
API's fragments and :func:`tiledb_codec.open_group`."""

from __future__ import annotations

import os as _os
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import tiledb_codec as _tc
from tiledb_codec import TileDBCodecError

from . import _config
from ._array import Metadata

__all__ = ["FragmentInfo", "FragmentInfoList", "Group", "Object"]


class _NotRead(TileDBCodecError, AttributeError):
    """What TileDB-Py gives and tiledb_codec does not read (an
    ``AttributeError`` too, so ``hasattr`` is false)."""


def _file_uri(path: str) -> str:
    """A local path as the ``file://`` URI TileDB-Py gives."""
    if "://" in path:
        return path
    return "file://" + _os.path.abspath(path)


class FragmentInfo:
    """One fragment, as TileDB-Py's ``FragmentInfo``."""

    def __init__(self, d: Dict[str, Any], num: int, dims: List[Any]):
        self.uri: str = _file_uri(str(d.get("path") or d["name"]))
        self.num = num
        self.timestamp_range: Tuple[int, int] = tuple(d["timestamps"])  # type: ignore[assignment]
        self.version: int = d["format_version"]
        self.sparse: bool = not d["dense"]
        self.cell_num: Optional[int] = d.get("cell_count")
        ned = d.get("non_empty_domain")
        self.nonempty_domain: Optional[Tuple[Tuple[Any, Any], ...]] = None
        if ned is not None:
            self.nonempty_domain = tuple(_bounds(lo, hi, dim) for (lo, hi), dim in zip(ned, dims))

    def __repr__(self) -> str:
        fields = {k: getattr(self, k) for k in ("cell_num", "nonempty_domain", "num", "sparse",
                                                  "timestamp_range", "uri", "version")}
        return "FragmentInfo(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")"


def _bounds(lo: Any, hi: Any, dim: Any) -> Tuple[Any, Any]:
    """A fragment's bounds on ``dim`` as TileDB-Py gives them: numbers,
    ``str`` for string dimensions, ``datetime64`` for datetimes."""
    import numpy as np

    from ._schema import unit_of

    if isinstance(lo, bytes):
        return lo.decode("utf-8", "surrogateescape"), hi.decode("utf-8", "surrogateescape")
    unit = unit_of(dim.datatype)
    if unit is not None and dim.datatype.startswith("DATETIME_"):
        return np.datetime64(lo, unit), np.datetime64(hi, unit)
    return lo, hi


class FragmentInfoList:
    """The fragments of an array, oldest first, as TileDB-Py's
    ``FragmentInfoList``: a sequence of :class:`FragmentInfo` and, per
    attribute, a tuple with one value per fragment. What the library does
    not read (the schema file of each fragment, consolidated fragment
    metadata, fragments waiting to be vacuumed) is not given."""

    def __init__(self, array_uri: Union[str, "_os.PathLike[str]"], include_mbrs: bool = False,
                 ctx: Any = None, key: Any = None):
        A = _tc.open(str(array_uri), key=_config.key_of(key, ctx), config=_config.store_options(ctx))
        self.array_uri = str(array_uri)
        dims = A.schema.dims
        self._fragments = [FragmentInfo(d, i, dims) for i, d in enumerate(A.fragments)]

    def __len__(self) -> int:
        return len(self._fragments)

    def __iter__(self) -> Iterator[FragmentInfo]:
        return iter(self._fragments)

    def __getitem__(self, i: int) -> FragmentInfo:
        return self._fragments[i]

    def _each(self, attr: str) -> Tuple[Any, ...]:
        return tuple(getattr(f, attr) for f in self._fragments)

    @property
    def uri(self) -> Tuple[str, ...]:
        """Each fragment's URI."""
        return self._each("uri")

    @property
    def timestamp_range(self) -> Tuple[Tuple[int, int], ...]:
        """Each fragment's ``(t1, t2)``."""
        return self._each("timestamp_range")

    @property
    def nonempty_domain(self) -> Tuple[Any, ...]:
        """Each fragment's non-empty domain, one ``(low, high)`` per
        dimension."""
        return self._each("nonempty_domain")

    @property
    def cell_num(self) -> Tuple[Optional[int], ...]:
        """Each fragment's cell count."""
        return self._each("cell_num")

    @property
    def sparse(self) -> Tuple[bool, ...]:
        """Whether each fragment is sparse."""
        return self._each("sparse")

    @property
    def dense(self) -> Tuple[bool, ...]:
        """Whether each fragment is dense."""
        return tuple(not s for s in self._each("sparse"))

    @property
    def version(self) -> Tuple[int, ...]:
        """Each fragment's format version."""
        return self._each("version")

    def __getattr__(self, name: str) -> Any:
        if name in ("array_schema_name", "has_consolidated_metadata", "unconsolidated_metadata_num",
                    "to_vacuum", "mbrs"):
            raise _NotRead(f"FragmentInfoList.{name} is not read by tiledb_codec.compat")
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "\n".join(repr(f) for f in self._fragments)


class Object:
    """A member of a group, as TileDB-Py's ``tiledb.Object``: ``uri``,
    ``type`` (the class :class:`tiledb_codec.compat.Array` or
    :class:`Group`), ``name``."""

    def __init__(self, type: Any, uri: str, name: Optional[str] = None):
        self.type = type
        self.uri = uri
        self.name = name

    def __repr__(self) -> str:
        kind = "ARRAY" if self.type is not Group else "GROUP"
        return f'Obj<{kind} "{self.uri}" - "{self.name}">' if self.name else f'Obj<{kind} "{self.uri}">'


class Group:
    """A group opened for reading, as TileDB-Py's ``tiledb.Group``: its
    members (iteration, ``len``, ``g[name]``, ``name in g``) as
    :class:`Object`, its metadata ``g.meta``. Writes (``mode="w"``,
    ``add``, ``remove``, ``create``) are refused: the native API makes
    groups."""

    def __init__(self, uri: Union[str, "_os.PathLike[str]"], mode: str = "r", config: Any = None,
                 ctx: Any = None):
        if mode != "r":
            raise TileDBCodecError("tiledb_codec.compat reads groups only; make and change groups with "
                                   "the `tiledb-codec group` command")
        self._uri = str(uri)
        self._key = _config.key_of(None, ctx, config)
        self._g: Optional[_tc.Group] = _tc.open_group(self._uri, key=self._key)

    @staticmethod
    def create(uri: Any, ctx: Any = None) -> None:
        """Refused: groups are made with the ``tiledb-codec group create``
        command."""
        raise TileDBCodecError("tiledb_codec.compat reads only: create groups with `tiledb-codec group create`")

    def _group(self) -> "_tc.Group":
        if self._g is None:
            raise TileDBCodecError("the group is closed")
        return self._g

    def _object(self, m: "_tc.GroupMember") -> Object:
        from ._array import Array

        kind = Group if m.type == "group" else Array
        return Object(kind, _file_uri(m.path) if m.path is not None else m.uri, m.name)

    @property
    def uri(self) -> str:
        """The group's URI, as TileDB-Py gives it (``file://``)."""
        return _file_uri(self._uri)

    @property
    def mode(self) -> str:
        """``"r"``."""
        return "r"

    @property
    def isopen(self) -> bool:
        """Whether the group is open."""
        return self._g is not None

    @property
    def meta(self) -> Metadata:
        """The group's metadata, as a read-only mapping."""
        return Metadata(self._group().meta)

    def __len__(self) -> int:
        return len(self._group())

    def __iter__(self) -> Iterator[Object]:
        return (self._object(m) for m in self._group())

    def __contains__(self, name: object) -> bool:
        return any(m.name == name for m in self._group())

    def __getitem__(self, member: Union[int, str]) -> Object:
        g = self._group()
        if isinstance(member, int):
            return self._object(g.members[member])
        return self._object(g[member])

    def is_relative(self, name: str) -> bool:
        """Whether the member ``name`` is stored with a relative URI."""
        return self._group()[name].relative

    def open(self, mode: str = "r") -> None:
        """Opens the group again (reading its members anew)."""
        if mode != "r":
            raise TileDBCodecError("tiledb_codec.compat reads groups only")
        self._g = _tc.open_group(self._uri, key=self._key)

    def close(self) -> None:
        """Closes the group."""
        self._g = None

    def __enter__(self) -> "Group":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        lines = [f"{_os.path.basename(self._uri.rstrip('/'))} GROUP"]
        for m in self._group():
            lines.append(f"|-- {m.name or m.uri} {m.type.upper()}")
        return "\n".join(lines) + "\n"
