"""Groups (TileDB-SOMA experiments, BioImaging pyramids): their members
with types and URIs, their metadata, their member arrays and groups
opened. Groups are folders: local paths or ``file://`` URIs."""

from __future__ import annotations

import os as _os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Union

from . import _native

__all__ = ["Group", "GroupMember", "open_group", "object_type"]


class GroupMember(NamedTuple):
    """A member of a group: its name (``None`` if it has none), its URI as
    the group stores it, its type (``"array"`` or ``"group"``), whether
    that URI is relative to the group, and the local path it points to
    (``None`` for a URI of another scheme)."""

    name: Optional[str]
    uri: str
    type: str
    relative: bool
    path: Optional[str]


def _meta(uri: str, key: Optional[bytes]) -> Dict[str, Any]:
    from . import _meta_value

    return {k: _meta_value(dt, raw) for k, dt, raw in _native.object_metadata(uri, key)}


class Group:
    """A group, read (made by :func:`open_group`): ``members``, ``meta``,
    iteration over the members, ``g["name"]`` for one, ``g.open("name")``
    for the array or group it is."""

    def __init__(self, uri: str, key: Optional[bytes] = None):
        self._uri = uri
        self._key = key
        self._members = [GroupMember(n, u, t, r, None if p is None else str(p))
                         for n, u, t, r, p in _native.group_members(uri, key)]
        self._meta: Optional[Dict[str, Any]] = None

    @property
    def uri(self) -> str:
        """Where the group is."""
        return self._uri

    @property
    def members(self) -> List[GroupMember]:
        """The members, ordered by name (by URI for the unnamed)."""
        return list(self._members)

    @property
    def meta(self) -> Dict[str, Any]:
        """The group's metadata (read once, when first asked for)."""
        if self._meta is None:
            self._meta = _meta(self._uri, self._key)
        return dict(self._meta)

    def __iter__(self) -> Iterator[GroupMember]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def __contains__(self, name: object) -> bool:
        return any(m.name == name or m.uri == name for m in self._members)

    def __getitem__(self, name: str) -> GroupMember:
        for m in self._members:
            if m.name == name:
                return m
        for m in self._members:
            if m.uri == name:
                return m
        from . import NotFoundError

        raise NotFoundError(f"{self._uri}: no member {name!r} (the members are: "
                            + ", ".join(m.name or m.uri for m in self._members) + ")")

    def open(self, name: str, **kwargs: Any) -> Union["Group", Any]:
        """The member ``name`` opened: a :class:`Group`, or an array
        (:func:`tiledb_codec.open`, given ``kwargs``; the group's key
        unless another is given)."""
        from . import TileDBCodecError, open as open_array

        m = self[name]
        if m.path is None:
            target = m.uri
        else:
            target = m.path
        if m.type == "group":
            return Group(target, kwargs.get("key", self._key))
        if m.type != "array":
            raise TileDBCodecError(f"{self._uri}: member {name!r} is of {m.type}, neither an array nor a group")
        kwargs.setdefault("key", self._key)
        return open_array(target, **kwargs)

    def __enter__(self) -> "Group":
        return self

    def __exit__(self, *exc: Any) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"tiledb_codec.Group({self._uri!r}, {len(self._members)} members)"


def open_group(uri: Union[str, "_os.PathLike[str]"], *, key: Union[str, bytes, None] = None) -> Group:
    """Opens the group at ``uri`` (a local path or ``file://`` URI): its
    members are read; ``key``: the 32-byte key of an encrypted group."""
    from . import _key_bytes

    return Group(str(uri), _key_bytes(key))


def object_type(uri: Union[str, "_os.PathLike[str]"]) -> Optional[str]:
    """What is at ``uri``: ``"array"``, ``"group"``, or ``None``. A URL
    of an object store is ``"array"`` when an array opens there."""
    uri = str(uri)
    if "://" in uri and not uri.startswith("file://"):
        from . import TileDBCodecError, open as open_array

        try:
            open_array(uri)
        except TileDBCodecError:
            return None
        return "array"
    return _native.object_type(uri)
