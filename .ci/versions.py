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
* a version constant: `const DELETES_MIN_VERSION: u32 = 16;`;
* a comparison of a version with a variable, as closures and helpers do:
  `let at = |v: u32| version >= v;`, `if version < since`;
* a comparison through an alias: `let v = self.version; ... if v >= 12`
  (any comparison of the alias with something that is not a version);
* a helper called with a version and a number: `at_least(version, 12)`;
* `matches!(version, 1..=4)`;
* a method comparing a version with a number: `version.min(9)`,
  `version.cmp(&12)`, `(12..).contains(&version)`, `u64::from(version) > 5`;
* a short name a version goes by (`v`, `ver`, `fv`, `vn`) compared with a
  number from 2 to 39: `Kind::Array(v) if v >= 19`.

What it cannot see (a version passed through a name of another kind, a
comparison split over lines) is for review; the rules name the forms
found so far.

Comments and string literals are skipped. Usage:
    python3 .ci/versions.py [--src DIR] [--self-test]
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
    (
        "format-version comparison with a variable",
        re.compile(rf"{VERSION}\s*{OP}\s*(?![\w.:]*version)[a-z_][\w.]*(?:\(\))?(?!\s*[(<:])"),
    ),
    (
        "format-version comparison with a variable",
        re.compile(rf"(?<![\w.])(?![\w.:]*version)[a-z_][\w.]*(?:\(\))?\s*{OP}\s*{VERSION}\b(?!\()"),
    ),
    (
        "helper called with a format version and a number",
        re.compile(rf"\b\w+\(\s*&?{VERSION}\s*,\s*\d+\s*\)|\b\w+\(\s*\d+\s*,\s*&?{VERSION}\s*\)"),
    ),
    (
        "range of format versions",
        re.compile(rf"matches!\(\s*{VERSION}\s*,\s*\d"),
    ),
    (
        "format-version comparison through a method",
        re.compile(rf"{VERSION}\s*\.\s*(?:min|max|clamp|cmp|partial_cmp)\(\s*&?\s*\d"),
    ),
    (
        "range of format versions",
        re.compile(rf"\(\s*\d+\s*\.\.=?\s*\d*\s*\)\s*\.contains\(\s*&?\s*{VERSION}"),
    ),
    (
        "format-version comparison",
        re.compile(
            rf"(?:u\d+::from\(\s*{VERSION}\s*\)|\(\s*{VERSION}\s+as\s+u\d+\s*\))\s*{OP}\s*\d"
        ),
    ),
    (
        # `Kind::Array(v) if v >= 19`: the short names a version goes by
        # in patterns and closures, against a number a version could be.
        "format-version comparison of a short name",
        re.compile(rf"(?<![\w.])(?:v|ver|fv|vn)\s*{OP}\s*(?:[2-9]|[1-3][0-9])\b"),
    ),
]

# `let v = frag.version();`: an alias of a version, whose comparisons are
# version comparisons.
ALIAS = re.compile(
    rf"\blet\s+(?:mut\s+)?([a-z_]\w*)\s*(?::\s*u\d+\s*)?=\s*(?:\*|&)?{VERSION}\s*;"
)


def alias_rules(code):
    """Rules for the comparisons of the file's aliases of a version."""
    rules = []
    for name in sorted(set(ALIAS.findall(code))):
        if "version" in name:
            continue
        n = re.escape(name)
        rules.append(
            (
                f"format-version comparison through the alias `{name}`",
                re.compile(
                    rf"(?<![\w.]){n}\s*{OP}\s*(?![\w.:]*version)[\w.]|"
                    rf"(?<![\w.])(?![\w.:]*version)[\w.]+\s*{OP}\s*{n}\b"
                ),
            )
        )
    return rules


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


def check_text(text):
    """(line number, what) of every hand-written gate in one file's text."""
    code = code_only(text)
    rules = RULES + alias_rules(code)
    found = []
    for no, line in enumerate(code.splitlines(), 1):
        for what, rule in rules:
            if rule.search(line):
                found.append((no, what))
                break
    return found


def check(src):
    found = []
    for path in sorted(src.rglob("*.rs")):
        if "generated" in path.relative_to(src).parts:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for no, what in check_text(text):
            rel = path.relative_to(src.parent)
            found.append(f"{rel}:{no}: {what}: {lines[no - 1].strip()}")
    return found


# What the lint must catch, and what it must leave alone.
CAUGHT = [
    "if version >= 12 {",
    "let ok = frag.version() < 5;",
    "let at = |v: u32| version >= v;",
    "if version < since && r != Datatype::Any {",
    "let v = self.version;\nif v >= 12 {",
    "let v = frag.version();\nlet old = 5 > v;",
    "if at_least(version, 12) {",
    "if matches!(version, 1..=4) {",
    "const DELETES_MIN_VERSION: u32 = 16;",
    "(1..=MAX_FORMAT_VERSION).contains(&version)",
    "Kind::Array(v) if v >= 19 => relative(),",
    "let v = computed(version.min(9));",
    "if (12..).contains(&version) {",
    "if u64::from(version) >= 12 {",
    "if (version as u64) > 5 {",
    "match version.cmp(&12) {",
]
PASSED = [
    "if has_deletes(version) {",
    "let v = self.version;\nlet x = f(v);",
    "if frag.version() == other.version() {",
    "let p = Pipeline::new(&filters, dt, 8, version)?;",
    "// if version >= 12",
    'let s = "version >= 12";',
    "fn to_table(&self, version: u32) -> Result<Table, Error> {",
    "if v > 0 && v != 1 {",
    "if n < max_per_version(target) {",
]


def self_test():
    bad = [c for c in CAUGHT if not check_text(c)]
    bad += [p for p in PASSED if check_text(p)]
    for b in bad:
        print(f"versions.py self-test: wrong on {b!r}", file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = pathlib.Path(__file__).resolve().parent.parent
    ap.add_argument("--src", type=pathlib.Path, default=root / "src")
    ap.add_argument("--self-test", action="store_true", help="check the rules on examples")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
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
