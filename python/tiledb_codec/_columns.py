"""Cells between numpy and Arrow as the package gives them: the numpy
types of TileDB datatypes, the buffers reads fill, Arrow columns as
TileDB-Py's numpy results."""

from __future__ import annotations

from typing import Any, Optional

import numpy as _np

from ._native import TileDBCodecError

# TileDB datatypes as numpy dtypes (little-endian, as the format stores them).
_NUMPY = {
    "INT8": "<i1",
    "INT16": "<i2",
    "INT32": "<i4",
    "INT64": "<i8",
    "UINT8": "<u1",
    "UINT16": "<u2",
    "UINT32": "<u4",
    "UINT64": "<u8",
    "FLOAT32": "<f4",
    "FLOAT64": "<f8",
    "BOOL": "?",
}
_DATETIME_UNITS = {
    "DATETIME_YEAR": "Y",
    "DATETIME_MONTH": "M",
    "DATETIME_WEEK": "W",
    "DATETIME_DAY": "D",
    "DATETIME_HR": "h",
    "DATETIME_MIN": "m",
    "DATETIME_SEC": "s",
    "DATETIME_MS": "ms",
    "DATETIME_US": "us",
    "DATETIME_NS": "ns",
    "DATETIME_PS": "ps",
    "DATETIME_FS": "fs",
    "DATETIME_AS": "as",
}


def _arrow_column(v: Any) -> Any:
    import pyarrow as pa

    if isinstance(v, _np.ma.MaskedArray):
        return pa.array(v.data, mask=_np.ma.getmaskarray(v))
    if isinstance(v, _np.ndarray) and v.dtype == object:
        return pa.array(list(v))
    return pa.array(v)


def _empty(n: int, dtype: _np.dtype) -> _np.ndarray:
    """An array of ``n`` values of ``dtype``, not initialised, in
    pyarrow's memory pool: the pool keeps freed memory for the next read,
    where numpy maps a large array afresh and every page of it faults when
    first written (a fifth of the time of a 256 MiB read)."""
    import pyarrow as pa

    if n == 0:
        return _np.empty(0, dtype=dtype)
    return _np.frombuffer(pa.allocate_buffer(n * dtype.itemsize), dtype=dtype)


def _as_array(what: str, buf: Any, dtype: _np.dtype) -> _np.ndarray:
    """A numpy view of the memory of ``buf`` (an object with the buffer
    protocol) as values of ``dtype``."""
    try:
        return _np.frombuffer(buf, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise TileDBCodecError(f"{what}: not a buffer of {dtype} values ({e})") from e


def _dtype_of(datatype: str) -> Optional[_np.dtype]:
    """The numpy type of a field's values: its number type, or datetime64
    of its unit; ``None`` for any other datatype."""
    if datatype in _NUMPY:
        return _np.dtype(_NUMPY[datatype])
    if datatype in _DATETIME_UNITS:
        return _np.dtype(f"datetime64[{_DATETIME_UNITS[datatype]}]")
    return None


def _field_buffer(name: str, datatype: str, buf: Any) -> _np.ndarray:
    """``buf`` as a numpy array the library can fill with the values of a
    field of ``datatype`` (datetimes as int64), its type checked."""
    what = f"the buffer of {name!r}"
    dtype = _dtype_of(datatype)
    if dtype is None:
        raise TileDBCodecError(f"{what}: {datatype} values cannot be read into a buffer (use read())")
    allowed = [dtype]
    if datatype == "BOOL":
        allowed.append(_np.dtype(_np.uint8))
    if dtype.kind == "M":
        allowed.append(_np.dtype("<i8"))
    if not isinstance(buf, _np.ndarray):
        buf = _as_array(what, buf, allowed[0])
    if buf.dtype not in allowed:
        raise TileDBCodecError(f"{what} holds {buf.dtype}; {datatype} values go into "
                               + " or ".join(str(d) for d in allowed))
    return buf.view("<i8") if buf.dtype.kind == "M" else buf


def _column_numpy(col: Any) -> _np.ndarray:
    """One Arrow column as TileDB-Py gives it in numpy."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = col.type
    if pa.types.is_dictionary(t):
        col = pa.chunked_array([c.indices for c in col.chunks], type=t.index_type) if col.num_chunks else pa.chunked_array([], type=t.index_type)
        t = col.type
    if (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or pa.types.is_list(t) or pa.types.is_large_list(t)):
        values = col.to_pylist()
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            vt = t.value_type.to_pandas_dtype()
            values = [None if x is None else _np.array(x, dtype=vt) for x in values]
        arr = _np.empty(len(values), dtype=object)
        arr[:] = values
        if col.null_count:
            return _np.ma.masked_array(arr, mask=col.is_null().to_numpy(zero_copy_only=False))
        return arr
    if pa.types.is_fixed_size_list(t):
        n = t.list_size
        flat = pa.concat_arrays([c.flatten() for c in col.chunks]) if col.num_chunks else pa.array([], t.value_type)
        return flat.to_numpy(zero_copy_only=False).reshape(-1, n)
    if col.null_count:
        mask = col.is_null().to_numpy(zero_copy_only=False)
        filled = pc.fill_null(col, pa.scalar(0, type=t) if not pa.types.is_timestamp(t) else pa.scalar(0, type=t))
        return _np.ma.masked_array(filled.to_numpy(), mask=mask)
    return col.to_numpy()
