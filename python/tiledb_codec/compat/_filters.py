"""TileDB-Py's filter classes and ``FilterList``, made from the filters of
the library's schema JSON (``{"type": "ZSTD", "level": 7}``). They describe
a schema: constructing one writes nothing."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as _np

__all__ = [
    "Filter", "FilterList", "NoOpFilter", "GzipFilter", "ZstdFilter", "LZ4Filter", "Bzip2Filter",
    "RleFilter", "DeltaFilter", "DoubleDeltaFilter", "DictionaryFilter", "BitShuffleFilter",
    "ByteShuffleFilter", "BitWidthReductionFilter", "PositiveDeltaFilter", "ChecksumMD5Filter",
    "ChecksumSHA256Filter", "FloatScaleFilter", "XORFilter", "WebpFilter", "WebpInputFormat",
]


class Filter:
    """A filter of a pipeline; its options are attributes, shown in its
    repr and compared by ``==`` as TileDB-Py's are."""

    #: The option names, in the order the repr shows them.
    _options: Sequence[str] = ()

    def _attrs_(self) -> Dict[str, Any]:
        return {k: getattr(self, k) for k in self._options}

    @property
    def filter_name(self) -> str:
        """The engine's name of the filter type (``ZSTD``, ...)."""
        return _NAME_OF[type(self)]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return False
        return self._attrs_() == other._attrs_()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(str(v) for v in self._attrs_().values())))

    def __repr__(self) -> str:
        shown = ",".join(f"{k}={v}" for k, v in self._attrs_().items())
        return f"{type(self).__name__}({shown})"


class NoOpFilter(Filter):
    """The filter that does nothing (``NONE``)."""


class _Leveled(Filter):
    _options = ("level",)

    def __init__(self, level: int = -1, ctx: Any = None):
        self.level = int(level)


class GzipFilter(_Leveled):
    """Gzip compression."""


class ZstdFilter(_Leveled):
    """Zstandard compression."""


class LZ4Filter(_Leveled):
    """LZ4 compression."""


class Bzip2Filter(_Leveled):
    """Bzip2 compression."""


class RleFilter(_Leveled):
    """Run-length encoding (TileDB-Py shows no option)."""

    _options = ()


class DictionaryFilter(_Leveled):
    """Dictionary encoding of strings (TileDB-Py shows no option)."""

    _options = ()


class _Reinterpreting(Filter):
    _options = ("reinterp_dtype",)

    def __init__(self, reinterp_dtype: Any = None, ctx: Any = None):
        self.reinterp_dtype = None if reinterp_dtype is None else _np.dtype(reinterp_dtype)
        self.level = -1


class DeltaFilter(_Reinterpreting):
    """Delta encoding."""


class DoubleDeltaFilter(_Reinterpreting):
    """Double-delta encoding."""


class BitShuffleFilter(Filter):
    """Bit shuffling."""

    def __init__(self, ctx: Any = None):
        pass


class ByteShuffleFilter(Filter):
    """Byte shuffling."""

    def __init__(self, ctx: Any = None):
        pass


class _Windowed(Filter):
    _options = ("window",)

    def __init__(self, window: int = -1, ctx: Any = None):
        self.window = int(window)


class BitWidthReductionFilter(_Windowed):
    """Bit-width reduction."""


class PositiveDeltaFilter(_Windowed):
    """Positive-delta encoding."""


class ChecksumMD5Filter(Filter):
    """An MD5 checksum of each chunk."""

    def __init__(self, ctx: Any = None):
        pass


class ChecksumSHA256Filter(Filter):
    """A SHA-256 checksum of each chunk."""

    def __init__(self, ctx: Any = None):
        pass


class XORFilter(Filter):
    """XOR of each value with the one before."""

    def __init__(self, ctx: Any = None):
        pass


class FloatScaleFilter(Filter):
    """Floats stored as scaled integers: ``(x - offset) / factor`` in
    ``bytewidth`` bytes."""

    _options = ("factor", "offset", "bytewidth")

    def __init__(self, factor: Optional[float] = None, offset: Optional[float] = None,
                 bytewidth: Optional[int] = None, ctx: Any = None):
        self.factor = 1.0 if factor is None else float(factor)
        self.offset = 0.0 if offset is None else float(offset)
        self.bytewidth = 8 if bytewidth is None else int(bytewidth)


class WebpInputFormat:
    """The pixel layout a WebP filter takes, shown as TileDB-Py shows it
    (``WebpInputFormat.WEBP_RGB``)."""

    def __init__(self, name: str):
        self.name = "WEBP_" + str(name).upper().replace("WEBP_", "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WebpInputFormat) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"WebpInputFormat.{self.name}"

    __str__ = __repr__


class WebpFilter(Filter):
    """WebP image compression of colour pixels."""

    _options = ("input_format", "quality", "lossless")

    def __init__(self, input_format: Any = None, quality: Optional[float] = None,
                 lossless: Optional[bool] = None, ctx: Any = None):
        if input_format is not None and not isinstance(input_format, WebpInputFormat):
            input_format = WebpInputFormat(str(input_format))
        self.input_format = input_format
        self.quality = 100.0 if quality is None else float(quality)
        # The engine keeps it as a byte, and TileDB-Py shows it so.
        self.lossless = int(bool(lossless))


_BY_NAME = {
    "NONE": NoOpFilter, "GZIP": GzipFilter, "ZSTD": ZstdFilter, "LZ4": LZ4Filter, "BZIP2": Bzip2Filter,
    "RLE": RleFilter, "DELTA": DeltaFilter, "DOUBLE_DELTA": DoubleDeltaFilter, "DICTIONARY": DictionaryFilter,
    "BITSHUFFLE": BitShuffleFilter, "BYTESHUFFLE": ByteShuffleFilter,
    "BIT_WIDTH_REDUCTION": BitWidthReductionFilter, "POSITIVE_DELTA": PositiveDeltaFilter,
    "CHECKSUM_MD5": ChecksumMD5Filter, "CHECKSUM_SHA256": ChecksumSHA256Filter,
    "SCALE_FLOAT": FloatScaleFilter, "XOR": XORFilter, "WEBP": WebpFilter,
}
_NAME_OF = {cls: name for name, cls in _BY_NAME.items()}


def _reinterp(name: Optional[str]) -> Any:
    if name in (None, "ANY"):
        return None
    from ._schema import dtype_of

    return dtype_of(str(name), 1)


def filter_from_json(j: Dict[str, Any]) -> Filter:
    """One filter of the schema JSON as its TileDB-Py class; an unknown type
    (or the AES filter, which TileDB-Py does not list) as ``NoOpFilter``."""
    name = str(j.get("type", "NONE")).upper()
    name = name[len("FILTER_"):] if name.startswith("FILTER_") else name
    cls = _BY_NAME.get(name)
    if cls is None:
        return NoOpFilter()
    if issubclass(cls, _Reinterpreting):
        f: Filter = cls(_reinterp(j.get("reinterpret_datatype")))
        f.level = int(j.get("level", -1))  # type: ignore[attr-defined]
        return f
    if issubclass(cls, _Leveled):
        return cls(int(j.get("level", -1)))
    if issubclass(cls, _Windowed):
        return cls(int(j.get("max_window_size", -1)))
    if cls is FloatScaleFilter:
        return FloatScaleFilter(j.get("scale"), j.get("offset"), j.get("byte_width"))
    if cls is WebpFilter:
        return WebpFilter(j.get("input_format"), j.get("quality"), j.get("lossless"))
    return cls()


class FilterList:
    """The filters of a pipeline, in order: a sequence of :class:`Filter`
    (``fl[i]``, ``len``, iteration) as TileDB-Py's ``FilterList``."""

    def __init__(self, filters: Optional[Sequence[Filter]] = None, chunksize: Optional[int] = None,
                 ctx: Any = None):
        self._filters: List[Filter] = list(filters or [])
        self.chunksize = chunksize

    @classmethod
    def _from_json(cls, filters: Optional[Sequence[Dict[str, Any]]]) -> "FilterList":
        return cls([filter_from_json(f) for f in filters or []])

    def __len__(self) -> int:
        return len(self._filters)

    def __iter__(self) -> Iterator[Filter]:
        return iter(self._filters)

    def __getitem__(self, idx: Union[int, slice]) -> Union[Filter, List[Filter]]:
        if isinstance(idx, slice):
            got = self._filters[idx]
            return got[0] if len(got) == 1 else got
        if idx < 0 or idx >= len(self._filters):
            raise IndexError("FilterList index out of range")
        return self._filters[idx]

    def __eq__(self, other: object) -> bool:
        if other is None:
            return False
        try:
            others = list(other)  # type: ignore[call-overload]
        except TypeError:
            return False
        return len(others) == len(self._filters) and all(a == b for a, b in zip(self._filters, others))

    __hash__ = None  # type: ignore[assignment]

    def append(self, filter: Filter) -> None:
        """Adds ``filter`` at the end (to describe a schema)."""
        if not isinstance(filter, Filter):
            raise ValueError("filter argument must be a TileDB Filter object")
        self._filters.append(filter)

    def __repr__(self) -> str:
        return "FilterList([{}])".format(",\n       ".join(repr(f) for f in self._filters))
