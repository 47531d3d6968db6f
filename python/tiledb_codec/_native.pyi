"""Type stubs of the Rust extension (python/src/lib.rs); users call the
wrappers in tiledb_codec/__init__.py."""

from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, TypedDict, Union

from typing_extensions import final

__all__ = [
    "TileDBCodecError",
    "FormatError",
    "SchemaError",
    "QueryError",
    "ConditionError",
    "StorageError",
    "EncryptionKeyError",
    "NotFoundError",
    "object_type",
    "group_members",
    "object_metadata",
    "open",
    "create",
    "check_schema",
    "schema_from_arrow",
    "NativeArray",
    "Stream",
    # Built with the fail-points feature (the tests) only.
    "_stop_after_durable_step",
]

class TileDBCodecError(Exception):
    """An error of tiledb_codec, with the library's message and where it
    happened, when the library knows."""

    file: Optional[str]
    offset: Optional[int]
    table: Optional[str]
    field: Optional[str]

class FormatError(TileDBCodecError): ...
class SchemaError(TileDBCodecError): ...
class QueryError(TileDBCodecError): ...
class ConditionError(QueryError): ...
class StorageError(TileDBCodecError): ...
class EncryptionKeyError(TileDBCodecError): ...
class NotFoundError(TileDBCodecError): ...

@final
class Stream:
    """A read not yet consumed: its batches, handed over once."""

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

_Bound = Union[int, float, str]

class _StreamOptions(TypedDict):
    """How a stream's batches are made (every key given)."""

    order: Optional[str]
    batch_size: Optional[int]
    memory_budget: Optional[int]
    coords: bool
    lazy: bool

@final
class NativeArray:
    def path(self) -> str: ...
    def schema_json(self) -> str: ...
    def fragments(self) -> List[Dict[str, Any]]: ...
    def nonempty_domain(self) -> Optional[List[Tuple[Any, Any]]]: ...
    def metadata(self) -> List[Tuple[str, str, bytes]]: ...
    def stream(
        self,
        attrs: Optional[List[str]] = None,
        ranges: List[Tuple[str, _Bound, _Bound]] = ...,
        condition: Optional[str] = None,
        options: Optional[_StreamOptions] = None,
    ) -> Stream: ...
    def read_into(
        self,
        targets: List[Tuple[str, Any, Optional[Any]]],
        ranges: List[Tuple[str, _Bound, _Bound]] = ...,
        order: Optional[str] = None,
    ) -> int:
        """Reads into writable, contiguous numpy arrays: (field, values,
        validity or None) triples; the cells read."""
        ...
    def write(self, data: object, timestamp: Optional[int] = None) -> None: ...
    def consolidate(self, mode: str = "fragments", start: Optional[int] = None, end: Optional[int] = None) -> bool: ...
    def vacuum(self, mode: str = "fragments", start: Optional[int] = None, end: Optional[int] = None) -> int: ...
    def delete(self, condition: str, timestamp: Optional[int] = None) -> None: ...
    def aggregate(
        self,
        exprs: List[str],
        ranges: List[Tuple[str, _Bound, _Bound]] = ...,
        condition: Optional[str] = None,
    ) -> List[Any]: ...
    def put_metadata(self, key: str, datatype: str, value: bytes, timestamp: Optional[int] = None) -> None: ...
    def delete_metadata(self, key: str, timestamp: Optional[int] = None) -> None: ...

def open(
    uri: Union[str, PathLike[str]],
    start: Optional[int] = None,
    end: Optional[int] = None,
    key: Optional[bytes] = None,
    options: List[Tuple[str, str]] = ...,
) -> NativeArray: ...
def create(
    uri: Union[str, PathLike[str]],
    schema_json: str,
    key: Optional[bytes] = None,
    timestamp: Optional[int] = None,
) -> NativeArray: ...
def check_schema(schema_json: str) -> str: ...
def schema_from_arrow(schema: object, dims: List[str]) -> str: ...
def object_type(uri: str) -> Optional[str]: ...
def group_members(
    uri: str, key: Optional[bytes] = None
) -> List[Tuple[Optional[str], str, str, bool, Optional[PathLike[str]]]]: ...
def object_metadata(uri: str, key: Optional[bytes] = None) -> List[Tuple[str, str, bytes]]: ...
def _stop_after_durable_step(step: Optional[int]) -> None:
    """Test-only (built with the fail-points feature): exit with status 86
    right after the step-th durable step of the writes from now."""
    ...
