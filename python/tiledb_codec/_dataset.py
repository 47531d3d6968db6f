"""An array as a ``pyarrow.dataset.Dataset``, which DuckDB (replacement
scans: ``duckdb.sql("SELECT ... FROM ds WHERE ...")``) and Polars
(``pl.scan_pyarrow_dataset(ds)``) scan with their projections and filters
pushed into the read: the columns become the attributes read (and whether
the dimensions are), comparisons of dimensions with values become ranges,
and on a sparse array the filter's comparisons, ``IN``, ``IS NULL``,
``AND``/``OR``/``NOT`` become the library's condition. A dense read with a
condition gives the rejected cells their fill value, so on a dense array
only the parts of the filter's conjunction over attributes that those fill
values fail are pushed (:func:`_dense_condition`). The whole filter is
applied here to the cells the library gives back, so the rows are exactly
the filter's.

Each scan records what it asked of the library in :attr:`ArrayDataset.reads`
(attributes, whether the dimensions were read, ranges, condition, and the
rows the library gave back)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import pyarrow as _pa
import pyarrow.dataset as _pds

from . import _expr

__all__ = ["ArrayDataset", "ArrayScanner"]

_NUMERIC = {"INT8": "int", "INT16": "int", "INT32": "int", "INT64": "int", "UINT8": "int", "UINT16": "int",
            "UINT32": "int", "UINT64": "int", "FLOAT32": "float", "FLOAT64": "float"}


def _kind(field: Any) -> str:
    """How a condition may compare a field (:func:`_expr.condition`)."""
    if getattr(field, "enumeration", None):
        return "other"
    if field.datatype in _NUMERIC and field.cell_val_num in (1, "1"):
        return _NUMERIC[field.datatype]
    if field.datatype in ("STRING_ASCII", "STRING_UTF8") and field.cell_val_num == "var":
        return "str"
    return "other"


class ArrayDataset(_pds.Dataset):
    """An array (:class:`tiledb_codec.Array`) as a ``pyarrow.dataset``
    dataset: ``schema``, ``scanner(columns=, filter=)``, ``to_table``,
    ``to_batches``, ``head``, ``count_rows``; the columns are the
    dimensions, then the attributes, as :meth:`tiledb_codec.Array.read`
    gives them."""

    def __init__(self, array: Any):  # noqa: D107 (pyarrow's own __init__ refuses to run)
        self._array = array
        self._schema: Optional[_pa.Schema] = None
        #: One entry per read the scans made: ``attrs``, ``coords``,
        #: ``ranges``, ``where``, and ``rows`` (cells the library gave).
        self.reads: List[Dict[str, Any]] = []

    @property
    def array(self) -> Any:
        """The array scanned."""
        return self._array

    @property
    def schema(self) -> _pa.Schema:
        """The Arrow schema of a whole read (no cell is decoded for it)."""
        if self._schema is None:
            dims = self._array.schema.dims
            ranges = {d.name: (d.domain[0], d.domain[0]) for d in dims if d.domain is not None}
            reader = self._array.batches(ranges if len(ranges) == len(dims) else None, batch_size=1)
            self._schema = reader.schema
            reader.close()
        return self._schema

    def scanner(self, columns: Optional[Sequence[str]] = None, filter: Any = None,
                batch_size: Optional[int] = None, **_options: Any) -> "ArrayScanner":
        """A scan of ``columns`` (default all) of the cells for which
        ``filter`` (a ``pyarrow.dataset.Expression``) holds."""
        return ArrayScanner(self, columns, filter, batch_size)

    def to_batches(self, columns: Optional[Sequence[str]] = None, filter: Any = None,
                   batch_size: Optional[int] = None, **options: Any) -> Iterator[_pa.RecordBatch]:
        """The scan's batches."""
        return self.scanner(columns, filter, batch_size, **options).to_batches()

    def to_table(self, columns: Optional[Sequence[str]] = None, filter: Any = None,
                 batch_size: Optional[int] = None, **options: Any) -> _pa.Table:
        """The scan as one table."""
        return self.scanner(columns, filter, batch_size, **options).to_table()

    def head(self, num_rows: int, columns: Optional[Sequence[str]] = None, filter: Any = None,
             **options: Any) -> _pa.Table:
        """The scan's first ``num_rows`` rows."""
        return self.scanner(columns, filter, **options).head(num_rows)

    def count_rows(self, filter: Any = None, **options: Any) -> int:
        """How many cells the filter keeps."""
        return self.scanner(None, filter, **options).count_rows()

    def __repr__(self) -> str:
        return f"ArrayDataset({self._array.uri!r})"


class ArrayScanner:
    """One scan of an :class:`ArrayDataset`: what it reads is decided when
    it is made (:attr:`attrs`, :attr:`coords`, :attr:`ranges`,
    :attr:`where`); the cells are read when they are taken
    (``to_reader``, ``to_batches``, ``to_table``)."""

    def __init__(self, dataset: ArrayDataset, columns: Optional[Sequence[str]], filter: Any,
                 batch_size: Optional[int]):
        from . import TileDBCodecError

        self._ds = dataset
        self._filter = filter
        self._batch_size = batch_size
        full = dataset.schema
        schema = dataset.array.schema
        dims = {d.name: d for d in schema.dims}
        attrs = {a.name: a for a in schema.attrs}
        if columns is not None and not isinstance(columns, (list, tuple)):
            raise TileDBCodecError("columns: a list of names (expressions are not taken)")
        self.columns = list(columns) if columns is not None else list(full.names)
        for c in self.columns:
            if c not in full.names:
                raise TileDBCodecError(f"no column {c!r} (the columns are: {', '.join(full.names)})")
        self.projected_schema = _pa.schema([full.field(c) for c in self.columns])
        node = _expr.decode(filter) if filter is not None else None
        needed = set(self.columns)
        if filter is not None:
            needed |= set(_fields_of(node)) if node is not None else set(full.names)
        self.where: Optional[str] = None
        self.empty = False
        self.ranges: Dict[str, Tuple[Any, Any]] = {}
        if node is not None:
            kinds = {n: _kind(f) for n, f in {**dims, **attrs}.items()}
            if schema.sparse:
                self.where = _expr.condition(node, kinds).text
            else:
                self.where = _dense_condition(node, kinds, attrs)
            dim_kinds = {n: k for n, k in kinds.items() if n in dims and k in ("int", "float", "str")}
            self._set_ranges(_expr.dim_bounds(node, dim_kinds), dims)
        self.attrs = [a for a in attrs if a in needed]
        # A read of nothing but the row count still needs one field.
        self.coords = any(d in needed for d in dims) or not self.attrs

    def _set_ranges(self, bounds: Dict[str, List[Any]], dims: Dict[str, Any]) -> None:
        """The dimension bounds as ranges, within each dimension's domain;
        an empty one makes the scan empty."""
        for name, (lo, hi) in bounds.items():
            dom = dims[name].domain
            if dom is not None:
                lo = dom[0] if lo is None else max(lo, dom[0])
                hi = dom[1] if hi is None else min(hi, dom[1])
            if lo is None or hi is None:
                continue  # a string dimension open on one side: the condition has it
            if lo > hi:
                self.empty = True
                return
            self.ranges[name] = (lo, hi)

    def _batches(self) -> Iterator[_pa.RecordBatch]:
        record: Dict[str, Any] = {"attrs": list(self.attrs), "coords": self.coords, "ranges": dict(self.ranges),
                                  "where": self.where, "rows": 0}
        if self.empty:
            return
        self._ds.reads.append(record)
        reader = self._ds.array.batches(self.ranges or None, where=self.where, attrs=self.attrs,
                                        coords=self.coords, batch_size=self._batch_size)
        for batch in reader:
            record["rows"] += batch.num_rows
            if self._filter is not None:
                batch = batch.filter(self._filter)
            if self.columns:
                yield _pa.RecordBatch.from_arrays([batch.column(c) for c in self.columns],
                                                  schema=self.projected_schema)
            else:
                yield batch.select([])

    def to_reader(self) -> _pa.RecordBatchReader:
        """The scan as a ``pyarrow.RecordBatchReader`` (what DuckDB takes)."""
        return _pa.RecordBatchReader.from_batches(self.projected_schema, self._batches())

    def to_batches(self) -> Iterator[_pa.RecordBatch]:
        """The scan's batches."""
        return self._batches()

    def to_table(self) -> _pa.Table:
        """The scan as one table."""
        return _pa.Table.from_batches(list(self._batches()), schema=self.projected_schema)

    def head(self, num_rows: int) -> _pa.Table:
        """The first ``num_rows`` rows."""
        out, n = [], 0
        for b in self._batches():
            if n >= num_rows:
                break
            out.append(b.slice(0, num_rows - n))
            n += out[-1].num_rows
        return _pa.Table.from_batches(out, schema=self.projected_schema)

    def count_rows(self) -> int:
        """How many rows the scan gives."""
        return sum(b.num_rows for b in self._batches())


def _dense_condition(node: _expr.Node, kinds: Dict[str, str], attrs: Dict[str, Any]) -> Optional[str]:
    """The condition a dense read can take for the filter ``node``. A dense
    read with a condition gives every cell of the subarray, the ones the
    condition rejects with each attribute's fill value (null where the
    attribute is nullable), as the engine does. So a part of the filter's
    conjunction is pushed only when it is over attributes alone and fails
    (false or null) on those values: the rejected cells then fail the
    filter applied to what comes back, whatever their coordinates."""
    pushed = []
    for part in _expr.conjuncts(node):
        names = set(_expr.fields(part))
        if not names or not names <= set(attrs):
            continue
        cond = _expr.condition(part, kinds)
        if cond.text is None or not cond.exact:
            continue
        rows: List[Dict[str, Any]] = [{}]
        for n in names:
            a = attrs[n]
            fill = float(a.fill) if kinds.get(n) == "float" and isinstance(a.fill, str) else a.fill  # "NaN"
            values = [fill, None] if a.nullable else [fill]
            rows = [{**r, n: v} for r in rows for v in values]
        if all(_expr.evaluate(part, r) is not True for r in rows):
            pushed.append(cond.text)
    if not pushed:
        return None
    return pushed[0] if len(pushed) == 1 else " and ".join(f"({t})" for t in pushed)


def _fields_of(node: Optional[_expr.Node]) -> Iterator[str]:
    if node is None:
        return
    if node.kind == "field":
        yield node.name
    for a in node.args:
        yield from _fields_of(a)
