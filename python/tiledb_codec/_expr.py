"""pyarrow's filter expressions (``pyarrow.dataset.Expression``, what DuckDB
and Polars hand a dataset's scanner) read as a tree, and turned into the
library's condition text and dimension ranges.

pyarrow gives no public way to walk an expression; it serializes one (for
pickling) as an Arrow IPC file whose schema metadata lists the tree in
prefix order (``call``, ``field_ref``, ``literal``, ``options``, ``end``)
with the literals and options as columns. That metadata is read here from
the schema's Arrow C interface (the ordered key-value list; the Python
``Schema.metadata`` dict keeps one value per key). Anything not understood
is not pushed: the scanner applies the whole expression to the cells it
gets back, so what is pushed only needs to keep every cell the expression
keeps."""

from __future__ import annotations

import ctypes as _ctypes
import json as _json
import math as _math
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

__all__: List[str] = []


class _CSchema(_ctypes.Structure):
    """The Arrow C data interface's ``struct ArrowSchema``."""

    _fields_ = [("format", _ctypes.c_char_p), ("name", _ctypes.c_char_p), ("metadata", _ctypes.c_void_p),
                ("flags", _ctypes.c_int64), ("n_children", _ctypes.c_int64), ("children", _ctypes.c_void_p),
                ("dictionary", _ctypes.c_void_p), ("release", _ctypes.c_void_p),
                ("private_data", _ctypes.c_void_p)]


_capsule_pointer = _ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = _ctypes.c_void_p
_capsule_pointer.argtypes = [_ctypes.py_object, _ctypes.c_char_p]


def _metadata_pairs(schema: Any) -> List[Tuple[str, str]]:
    """The key-value metadata of a ``pyarrow.Schema``, in order, with
    repeated keys (the C interface's encoding: an int32 count, then per
    pair an int32 length and the bytes of the key, then of the value)."""
    capsule = schema.__arrow_c_schema__()  # alive (and the struct with it) until this returns
    ptr = _capsule_pointer(capsule, b"arrow_schema")
    c = _CSchema.from_address(ptr)
    if not c.metadata:
        return []
    at = c.metadata

    def int32() -> int:
        nonlocal at
        v = _ctypes.c_int32.from_address(at).value
        at += 4
        return v

    def text() -> str:
        nonlocal at
        n = int32()
        s = _ctypes.string_at(at, n)
        at += n
        return s.decode("utf-8", "replace")

    out = []
    for _ in range(int32()):
        k = text()
        out.append((k, text()))
    return out


class Node(NamedTuple):
    """A node of an expression: ``kind`` is ``call`` (``name``, ``args``,
    ``options`` a dict or ``None``), ``field`` (``name``) or ``literal``
    (``value``, ``type`` its Arrow type)."""

    kind: str
    name: str = ""
    args: Tuple["Node", ...] = ()
    options: Optional[Dict[str, Any]] = None
    value: Any = None
    type: Any = None


def decode(expr: Any) -> Optional[Node]:
    """The tree of a ``pyarrow.dataset.Expression``; ``None`` when it
    cannot be read (a pyarrow that serializes otherwise)."""
    import pyarrow as pa

    try:
        reduced = expr.__reduce__()
        table = pa.ipc.open_file(reduced[1][0]).read_all()
        pairs = _metadata_pairs(table.schema)
    except Exception:  # noqa: BLE001 (any failure: nothing is pushed)
        return None
    pos = 0

    def node() -> Node:
        nonlocal pos
        key, val = pairs[pos]
        pos += 1
        if key == "field_ref":
            return Node("field", name=val)
        if key == "literal":
            col = table.column(int(val))
            return Node("literal", value=col[0].as_py(), type=col.type)
        if key != "call":
            raise ValueError(f"unexpected {key}")
        args: List[Node] = []
        options = None
        while pairs[pos][0] != "end":
            if pairs[pos][0] == "options":
                options = table.column(int(pairs[pos][1]))[0].as_py()
                pos += 1
            else:
                args.append(node())
        pos += 1
        return Node("call", name=val, args=tuple(args), options=options)

    try:
        tree = node()
    except (IndexError, ValueError, KeyError, TypeError):
        return None
    return tree if pos == len(pairs) else None


_CMP = {"equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
        "greater_equal": ">="}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _literal(v: Any, kind: str) -> Optional[str]:
    """A value as the condition's syntax writes it, for a field of
    ``kind`` (``int``, ``float``, ``str``); ``None`` when it cannot be."""
    if isinstance(v, bool) or v is None:
        return None
    if kind in ("int", "float") and isinstance(v, int):
        return str(v)
    if kind == "float" and isinstance(v, float) and _math.isfinite(v):
        return repr(v)
    if kind == "str" and isinstance(v, str) and v.isprintable() and "\\" not in v:
        return _json.dumps(v)
    return None


def _field(name: str) -> str:
    return f"col({_json.dumps(name)})" if name.isprintable() and "\\" not in name else ""


class Pushed(NamedTuple):
    """What of an expression goes to the library: the condition text
    (``None``: none) and whether it is the whole expression."""

    text: Optional[str]
    exact: bool


def condition(node: Node, kinds: Dict[str, str]) -> Pushed:
    """The library's condition for ``node``, over fields of the kinds in
    ``kinds`` (name -> ``int``, ``float``, ``str``, or ``other`` for null
    tests only): comparisons of a field with a value, ``is_in``,
    ``is_null``/``is_valid``, ``and``, ``or``, ``invert``. A conjunction
    keeps the parts it can (then it is not exact); a disjunction and a
    negation need all of theirs."""
    if node.kind != "call":
        return Pushed(None, False)
    name = node.name
    if name in ("and", "and_kleene"):
        parts = [condition(a, kinds) for a in node.args]
        texts = [p.text for p in parts if p.text]
        if not texts:
            return Pushed(None, False)
        return Pushed(" and ".join(f"({t})" for t in texts), all(p.exact for p in parts))
    if name in ("or", "or_kleene"):
        parts = [condition(a, kinds) for a in node.args]
        if not parts or any(p.text is None for p in parts):
            return Pushed(None, False)
        return Pushed(" or ".join(f"({p.text})" for p in parts), all(p.exact for p in parts))
    if name == "invert" and len(node.args) == 1:
        inner = condition(node.args[0], kinds)
        return Pushed(f"not ({inner.text})", True) if inner.text and inner.exact else Pushed(None, False)
    return _leaf(node, kinds)


def _leaf(node: Node, kinds: Dict[str, str]) -> Pushed:
    args = node.args
    if node.name in _CMP and len(args) == 2:
        op = _CMP[node.name]
        f, lit = args
        if f.kind == "literal" and lit.kind == "field":
            f, lit, op = lit, f, _FLIP[op]
        if f.kind != "field" or lit.kind != "literal" or kinds.get(f.name) not in ("int", "float", "str"):
            return Pushed(None, False)
        v = _literal(lit.value, kinds[f.name])
        ref = _field(f.name)
        return Pushed(f"{ref} {op} {v}", True) if v is not None and ref else Pushed(None, False)
    if node.name == "is_in" and len(args) == 1 and args[0].kind == "field" and node.options:
        f = args[0]
        kind = kinds.get(f.name)
        values = node.options.get("value_set") or []
        ref = _field(f.name)
        if kind not in ("int", "float", "str") or not ref:
            return Pushed(None, False)
        lits = [_literal(v, kind) for v in values if v is not None]
        if any(v is None for v in lits):
            return Pushed(None, False)
        text = f"{ref} in [{', '.join(lits)}]" if lits else ""  # type: ignore[arg-type]
        if any(v is None for v in values):
            # null_matching_behavior MATCH (0) keeps nulls too.
            null = f"{ref} is None"
            if node.options.get("null_matching_behavior", 0) == 0:
                text = f"({text}) or ({null})" if text else null
        return Pushed(text, True) if text else Pushed(None, False)
    if node.name in ("is_null", "is_valid") and len(args) == 1 and args[0].kind == "field":
        f = args[0]
        ref = _field(f.name)
        if f.name not in kinds or not ref:
            return Pushed(None, False)
        if node.name == "is_null":
            if (node.options or {}).get("nan_is_null") and kinds[f.name] == "float":
                return Pushed(None, False)
            return Pushed(f"{ref} is None", True)
        return Pushed(f"{ref} is not None", True)
    return Pushed(None, False)


def dim_bounds(node: Node, dims: Dict[str, str]) -> Dict[str, List[Any]]:
    """Bounds ``[low, high]`` (``None`` where open) on the dimensions in
    ``dims`` (name -> ``int``, ``float`` or ``str``) that the top-level
    conjunction of ``node`` sets with comparisons to values: ranges every
    kept cell lies in."""
    out: Dict[str, List[Any]] = {}

    def tighten(name: str, lo: Any, hi: Any) -> None:
        b = out.setdefault(name, [None, None])
        if lo is not None and (b[0] is None or lo > b[0]):
            b[0] = lo
        if hi is not None and (b[1] is None or hi < b[1]):
            b[1] = hi

    def walk(n: Node) -> None:
        if n.kind != "call":
            return
        if n.name in ("and", "and_kleene"):
            for a in n.args:
                walk(a)
            return
        if n.name not in _CMP or len(n.args) != 2:
            return
        op = _CMP[n.name]
        f, lit = n.args
        if f.kind == "literal" and lit.kind == "field":
            f, lit, op = lit, f, _FLIP[op]
        if f.kind != "field" or lit.kind != "literal" or f.name not in dims:
            return
        v, kind = lit.value, dims[f.name]
        if isinstance(v, bool) or v is None or (kind == "str") != isinstance(v, str):
            return
        if isinstance(v, float) and not _math.isfinite(v):
            return
        if kind == "int" and isinstance(v, float):
            if v.is_integer():
                v = int(v)
            elif op in ("<", "<="):
                v, op = _math.floor(v), "<="
            elif op in (">", ">="):
                v, op = _math.ceil(v), ">="
            else:
                return
        strict = 1 if kind == "int" else 0
        if op == "==":
            tighten(f.name, v, v)
        elif op in (">", ">="):
            tighten(f.name, v + strict if op == ">" and strict else v, None)
        elif op in ("<", "<="):
            tighten(f.name, None, v - strict if op == "<" and strict else v)

    walk(node)
    return out


def conjuncts(node: Node) -> List[Node]:
    """The parts of a conjunction (``a and b and c``), or the node alone."""
    if node.kind == "call" and node.name in ("and", "and_kleene"):
        return [c for a in node.args for c in conjuncts(a)]
    return [node]


def fields(node: Node) -> Iterator[str]:
    """The names of the fields ``node`` refers to."""
    if node.kind == "field":
        yield node.name
    for a in node.args:
        yield from fields(a)


_OPS: Dict[str, Callable[[Any, Any], bool]] = {
    "equal": lambda x, y: x == y, "not_equal": lambda x, y: x != y, "less": lambda x, y: x < y,
    "less_equal": lambda x, y: x <= y, "greater": lambda x, y: x > y, "greater_equal": lambda x, y: x >= y,
}


def evaluate(node: Node, row: Dict[str, Any]) -> Optional[bool]:
    """``node`` on one row of Python values (``None`` is null), in Kleene
    logic as Arrow's filters evaluate it: ``None`` is a null result (a filter
    drops the row). Only the forms :func:`condition` pushes are known; any
    other gives ``True`` (it may keep the row)."""
    if node.kind != "call":
        return True
    args, name = node.args, node.name
    if name in ("and", "and_kleene", "or", "or_kleene"):
        parts = [evaluate(a, row) for a in args]
        decisive = name.startswith("or")
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    if name == "invert" and len(args) == 1:
        inner = evaluate(args[0], row)
        return None if inner is None else not inner
    if name in _OPS and len(args) == 2:
        f, lit = args
        if f.kind == "literal" and lit.kind == "field":
            f, lit = lit, f
            flipped = {"less": "greater", "greater": "less", "less_equal": "greater_equal",
                       "greater_equal": "less_equal"}.get(name, name)
            return evaluate(Node("call", name=flipped, args=(f, lit)), row)
        if f.kind != "field" or lit.kind != "literal" or f.name not in row:
            return True
        v = row[f.name]
        if v is None or lit.value is None:
            return None
        try:
            return bool(_OPS[name](v, lit.value))
        except TypeError:
            return True
    if name in ("is_null", "is_valid", "is_in") and len(args) == 1 and args[0].kind == "field":
        if args[0].name not in row:
            return True
        v = row[args[0].name]
        if name == "is_null":
            nan = (node.options or {}).get("nan_is_null") and isinstance(v, float) and v != v
            return v is None or bool(nan)
        if name == "is_valid":
            return v is not None
        values = (node.options or {}).get("value_set") or []
        if v is None:
            return True if None in values else None
        return v in values
    return True
