#!/usr/bin/env python3
"""Fails when src/ compares a format version by hand (README "Spec-driven").

Every version gate of the format is data: a `[[feature]]` of
spec/format_versions.toml (or of another spec/ document) that the generator
(crates/format/codegen) turns into `format::version::has_<feature>(version)`,
and the versions this crate reads and writes are `[[version]]`s there. So
src/ (the generated code in a `generated/` folder excepted) must not hold

* a comparison of something named `...version` (or `...version()`) with a
  number or a constant: `version >= 12`, `frag.version() < 5`,
  `details.version == 1`, `12 <= version`, `x > MAX_FORMAT_VERSION`;
* a range of versions: `(1..=MAX_FORMAT_VERSION).contains(&version)`;
* a version constant: `const DELETES_MIN_VERSION: u32 = 16;`.

Comments and string literals are skipped. Usage:
    python3 .ci/versions.py [--src DIR]
"""

import argparse
import pathlib
import re
import sys

OP = r"(?:<=|>=|==|!=|<(?![<=])|>(?![>=]))"
VERSION = r"(?<![\w.])(?:[A-Za-z_][\w.]*)?version(?:\(\))?"
RULES = [
    (
        "format-version comparison",
        re.compile(rf"{VERSION}\s*{OP}\s*[0-9A-Z]"),
    ),
    (
        "format-version comparison",
        re.compile(rf"(?<![\w.])[0-9A-Z][\w]*\s*{OP}\s*{VERSION}\b"),
    ),
    (
        "range of format versions",
        re.compile(rf"\.\.=?\s*[0-9A-Z]\w*\s*\)\s*\.contains\(\s*&\s*{VERSION}"),
    ),
    (
        "format-version constant",
        re.compile(r"\bconst\s+[A-Z_]*VERSION\w*\s*:\s*u\d+\s*=\s*\d"),
    ),
]


def code_only(text):
    """The text with comments and string/char literals blanked (same lines)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r(#*)"', text[i:]):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = '"' + hashes
            j = text.find(end, i + 2 + len(hashes))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:]):
            m = re.match(r"'(\\.|[^\\'])'", text[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def check(src):
    found = []
    for path in sorted(src.rglob("*.rs")):
        if "generated" in path.relative_to(src).parts:
            continue
        text = path.read_text(encoding="utf-8")
        for no, line in enumerate(code_only(text).splitlines(), 1):
            for what, rule in RULES:
                if rule.search(line):
                    rel = path.relative_to(src.parent)
                    found.append(f"{rel}:{no}: {what}: {text.splitlines()[no - 1].strip()}")
                    break
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = pathlib.Path(__file__).resolve().parent.parent
    ap.add_argument("--src", type=pathlib.Path, default=root / "src")
    args = ap.parse_args()
    found = check(args.src.resolve())
    for f in found:
        print(f, file=sys.stderr)
    if found:
        print(
            f"{len(found)} hand-written format-version gate(s): name the gate as a "
            "[[feature]] of spec/format_versions.toml and call "
            "format::version::has_<feature>(version)",
            file=sys.stderr,
        )
        return 1
    print("versions: no hand-written format-version gate in src/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
