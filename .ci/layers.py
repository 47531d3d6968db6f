#!/usr/bin/env python3
"""Checks the library's layering from its `use` lines.

The layers, top to bottom (README "Layers"; a module may use its own layer and
the ones below it, never one above it):

    api, arrow
    maintain
    read, write
    array
    tile, filters, storage
    model
    format, error, options, progress, limits

(The command line, with what it prints about arrays: inspect, summary, svg,
verify, and SQL are crates of their own above all of them, in crates/, and
`src/lib.rs` only re-exports.) Besides the order, the graph of modules (one node per file, folders
included) must have no cycles: a module that imports a sibling which imports it
back is a circle, whether or not the two are in one layer.

Every `crate::`, `super::` and `self::` path in the code is an edge, and so is a
`use child::...` of a module's own child. A `pub use` in a `mod.rs` re-exports
and is not an edge of its own; a path through such a re-export is taken to the
module that defines the name. `#[cfg(test)]` modules count like the rest.

Known violations are listed, one `FROM -> TO` per line, in
`.ci/layers-allowed.txt`: the check fails on any violation not listed there and
on a listed one that is gone (so the list only shrinks).

Usage: layers.py [--src DIR] [--allowed FILE]   (exit 1 on a violation)
"""

import argparse
import os
import re
import sys

LAYERS = [
    ["api", "arrow"],
    ["maintain"],
    ["read", "write"],
    ["array"],
    ["tile", "filters", "storage"],
    ["model"],
    ["format", "error", "options", "progress", "limits"],
]
RANK = {m: len(LAYERS) - i for i, layer in enumerate(LAYERS) for m in layer}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def modules(src):
    """Module path (tuple) -> file, for every file of the library."""
    out = {}
    for root, _dirs, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)
            parts = rel[:-3].split(os.sep)
            if parts[0] == "bin" or parts == ["lib"] or parts == ["main"]:
                continue
            if parts[-1] == "mod":
                parts = parts[:-1]
            out[tuple(parts)] = path
    return out


def expand(tree):
    """`a::{b, c::{d, e}}` -> ["a::b", "a::c::d", "a::c::e"]."""
    tree = tree.strip()
    i = tree.find("{")
    if i < 0:
        return [tree]
    head, body = tree[:i], tree[i + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    return [head + p for part in parts if part.strip() for p in expand(part.strip())]


def reexports(mods):
    """Module -> {name: child module it is re-exported from} (a mod.rs's `pub use child::Name`)."""
    out = {}
    for mod, path in mods.items():
        if not path.endswith("mod.rs"):
            continue
        text = strip_comments(open(path, encoding="utf-8").read())
        names = {}
        for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
            for p in expand(m.group(1)):
                segs = [s.strip() for s in p.split("::")]
                if segs[0] == "self":
                    segs = segs[1:]
                if len(segs) >= 2 and mod + (segs[0],) in mods:
                    last = segs[-1].split(" as ")[-1].strip()
                    names[last] = mod + (segs[0],)
        out[mod] = names
    return out


def resolve(segs, mods, reexp):
    """The module a path (absolute segments) lands in, or None outside the crate."""
    cur = ()
    for s in segs:
        if cur + (s,) in mods:
            cur = cur + (s,)
            continue
        child = reexp.get(cur, {}).get(s)
        if child is not None:
            return resolve(list(child) + [], mods, reexp) if child != cur else cur
        break
    return cur if cur else None


def inline_modules(text):
    """Splits a file's text into its own and its inline modules' (`mod name { ... }`,
    test modules most often): [(name or None, text)]."""
    out, own, pos = [], [], 0
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
        if m.start() < pos:
            continue
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += text[i] == "{"
            depth -= text[i] == "}"
            if depth == 0:
                break
            i += 1
        own.append(text[pos : m.start()])
        out.append((m.group(1), text[m.end() : i]))
        pos = i + 1
    own.append(text[pos:])
    return [(None, "".join(own))] + out


def edges(mods):
    reexp = reexports(mods)
    out = {}
    units = []
    for mod, path in mods.items():
        text = strip_comments(open(path, encoding="utf-8").read())
        for inner, part in inline_modules(text):
            if inner is None:
                units.append((mod, path, part, mod[:-1]))
            else:
                # An inline module is a child of the file's module.
                units.append((mod + (inner,), path, part, mod))
    for mod, path, text, parent in units:
        is_dir = path.endswith("mod.rs") and parent == mod[:-1]
        targets = set()
        pub_use_spans = [
            m.span()
            for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;", text)
        ]
        for m in re.finditer(r"\buse\s+([^;]+);", text):
            in_pub = any(a <= m.start() < b for a, b in pub_use_spans)
            for p in expand(m.group(1)):
                segs = [s.strip() for s in p.split("::") if s.strip()]
                if not segs:
                    continue
                if segs[0] == "crate":
                    absolute = segs[1:]
                elif segs[0] == "super":
                    base, rest = list(parent), segs[1:]
                    while rest and rest[0] == "super":
                        base, rest = base[:-1], rest[1:]
                    absolute = base + rest
                elif segs[0] == "self":
                    absolute = list(mod) + segs[1:]
                elif mod + (segs[0],) in mods:
                    if in_pub and is_dir:
                        continue  # a re-export of a child
                    absolute = list(mod) + segs
                else:
                    continue  # another crate
                t = resolve(absolute, mods, reexp)
                if t is not None:
                    targets.add(t)
        for m in re.finditer(r"(?<![\w:])(crate|super)((?:::\w+)+)", text):
            segs = [s for s in m.group(2).split("::") if s]
            if m.group(1) == "crate":
                absolute = segs
            else:
                base = list(parent)
                while segs and segs[0] == "super":
                    base, segs = base[:-1], segs[1:]
                absolute = base + segs
            t = resolve(absolute, mods, reexp)
            if t is not None:
                targets.add(t)
        targets.discard(mod)
        out.setdefault(mod, set()).update(targets)
    return out


def name(mod):
    return "::".join(mod) if mod else "crate"


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def violations(src):
    mods = modules(src)
    graph = edges(mods)
    found = set()
    for mod, targets in graph.items():
        for t in targets:
            a, b = RANK.get(mod[0]), RANK.get(t[0])
            if a is None:
                found.add(f"{name(mod)} -> {name(t)}  (module not in any layer)")
            elif b is not None and b > a:
                found.add(f"{name(mod)} -> {name(t)}")
    for comp in cycles(graph):
        members = set(comp)
        for v in comp:
            for w in sorted(graph[v]):
                if w in members:
                    found.add(f"{name(v)} -> {name(w)}  (circle)")
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.join(here, "..", "src"))
    ap.add_argument("--allowed", default=os.path.join(here, "layers-allowed.txt"))
    ap.add_argument("--print", action="store_true", help="print every violation and exit 0")
    args = ap.parse_args()
    found = violations(args.src)
    if args.print:
        for v in sorted(found):
            print(v)
        return 0
    allowed = set()
    if os.path.exists(args.allowed):
        for line in open(args.allowed, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                allowed.add(line)
    new = sorted(found - allowed)
    gone = sorted(allowed - found)
    for v in new:
        print(f"layers: {v}: an import against the layer order or in a circle", file=sys.stderr)
    for v in gone:
        print(f"layers: {v}: fixed; remove it from {os.path.basename(args.allowed)}", file=sys.stderr)
    if new or gone:
        return 1
    print(f"layers: ok ({len(allowed)} known violations left)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(141)
