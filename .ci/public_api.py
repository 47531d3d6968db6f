#!/usr/bin/env python3
"""Lists a crate's public API from its rustdoc JSON, one item a line.

    python3 .ci/public_api.py target/doc/tiledb_codec.json > crates/api/tiledb-codec.txt
    python3 .ci/public_api.py --check LISTING JSON   (exit 1 with a diff when they differ)

    python3 .ci/public_api.py --check-fields JSON    (exit 1 naming each struct
        that has a public field and is not `#[non_exhaustive]`)

The listing is what a user of the crate can name: every public module,
struct (with its public fields and `#[non_exhaustive]`), enum (with its
variants), trait, function and method (with its signature), constant,
static, type alias and macro, reached from the crate root through public
modules and re-exports, and the trait implementations of its types. Items
re-exported from another crate are listed as `pub use` of that crate's path.
`#[doc(hidden)]` items are left out. The JSON comes from rustdoc's
`--output-format json` (`.ci/rustdoc-merged` writes it in CI).
"""

import argparse
import difflib
import json
import sys


def render_args(args):
    if not args:
        return ""
    if "angle_bracketed" in args:
        ab = args["angle_bracketed"]
        parts = []
        for a in ab.get("args", []):
            if "type" in a:
                parts.append(ty(a["type"]))
            elif "lifetime" in a:
                parts.append(a["lifetime"])
            elif "const" in a:
                parts.append(a["const"].get("expr", "_"))
            else:
                parts.append("_")
        for c in ab.get("constraints", []):
            binding = c.get("binding", {})
            if "equality" in binding:
                eq = binding["equality"]
                val = ty(eq["type"]) if "type" in eq else "_"
                parts.append(f"{c['name']} = {val}")
            else:
                parts.append(f"{c['name']}: {bounds(binding.get('constraint', []))}")
        return f"<{', '.join(parts)}>" if parts else ""
    if "parenthesized" in args:
        p = args["parenthesized"]
        out = f"({', '.join(ty(t) for t in p['inputs'])})"
        if p.get("output"):
            out += f" -> {ty(p['output'])}"
        return out
    return ""


def bounds(bs):
    out = []
    for b in bs:
        if "trait_bound" in b:
            tb = b["trait_bound"]
            mod = "?" if tb.get("modifier") == "maybe" else ""
            out.append(mod + path_str(tb["trait"]))
        elif "outlives" in b:
            out.append(b["outlives"])
        else:
            out.append("_")
    return " + ".join(out)


def path_str(p):
    return p["path"] + render_args(p.get("args"))


def ty(t):
    if t is None:
        return "()"
    (kind, v), = t.items()
    if kind == "resolved_path":
        return path_str(v)
    if kind == "primitive":
        return v
    if kind == "generic":
        return v
    if kind == "borrowed_ref":
        lt = f"{v['lifetime']} " if v.get("lifetime") else ""
        mut = "mut " if v["is_mutable"] else ""
        return f"&{lt}{mut}{ty(v['type'])}"
    if kind == "raw_pointer":
        return f"*{'mut' if v['is_mutable'] else 'const'} {ty(v['type'])}"
    if kind == "slice":
        return f"[{ty(v)}]"
    if kind == "array":
        return f"[{ty(v['type'])}; {v['len']}]"
    if kind == "tuple":
        return f"({', '.join(ty(x) for x in v)})"
    if kind == "impl_trait":
        return f"impl {bounds(v)}"
    if kind == "dyn_trait":
        return "dyn " + " + ".join(path_str(pt["trait"]) for pt in v["traits"])
    if kind == "qualified_path":
        trait = path_str(v["trait"]) if v.get("trait") else "_"
        return f"<{ty(v['self_type'])} as {trait}>::{v['name']}"
    if kind == "function_pointer":
        sig = v["sig"]
        return f"fn({', '.join(ty(x[1]) for x in sig['inputs'])}) -> {ty(sig['output'])}"
    if kind == "infer":
        return "_"
    return kind


def generics(g):
    params = []
    for p in g.get("params", []):
        kind = p["kind"]
        if "lifetime" in kind:
            params.append(p["name"])
        elif "type" in kind:
            if kind["type"].get("is_synthetic"):
                continue
            b = bounds(kind["type"].get("bounds", []))
            params.append(p["name"] + (f": {b}" if b else ""))
        elif "const" in kind:
            params.append(f"const {p['name']}: {ty(kind['const']['type'])}")
    return f"<{', '.join(params)}>" if params else ""


def signature(name, f):
    sig = f["sig"]
    head = f.get("header", {})
    quals = "".join(
        q + " " for q, on in (("const", head.get("is_const")), ("async", head.get("is_async")),
                              ("unsafe", head.get("is_unsafe"))) if on)
    inputs = []
    for arg_name, arg_ty in sig["inputs"]:
        if arg_name == "self":
            t = ty(arg_ty)
            inputs.append({"Self": "self", "&Self": "&self", "&mut Self": "&mut self"}.get(t, f"self: {t}"))
        else:
            inputs.append(f"{arg_name}: {ty(arg_ty)}")
    out = f"{quals}fn {name}{generics(f.get('generics', {}))}({', '.join(inputs)})"
    if sig.get("output") is not None:
        out += f" -> {ty(sig['output'])}"
    return out


class Lister:
    def __init__(self, doc):
        self.doc = doc
        self.index = doc["index"]
        self.lines = set()
        self.seen = set()

    def item(self, id_):
        return self.index.get(str(id_))

    def hidden(self, it):
        return any("hidden" in a for a in attrs(it) if "doc" in a)

    def walk(self, id_, path):
        it = self.item(id_)
        if it is None or self.hidden(it):
            return
        key = (str(id_), path)
        if key in self.seen:
            return
        self.seen.add(key)
        (kind, inner), = it["inner"].items()
        getattr(self, "on_" + kind, self.on_other)(it, inner, path, kind)

    def public(self, it):
        return it.get("visibility") == "public"

    def on_module(self, it, inner, path, _kind):
        self.lines.add(f"pub mod {path}")
        for child in inner["items"]:
            c = self.item(child)
            if c is None or not self.public(c):
                continue
            name = c.get("name")
            if "use" in c["inner"]:
                self.on_use(c, c["inner"]["use"], path, "use")
            elif name:
                self.walk(child, f"{path}::{name}")

    def on_use(self, it, inner, parent, _kind):
        target = inner.get("id")
        name = inner["name"]
        if inner.get("is_glob"):
            t = self.item(target) if target is not None else None
            if t is None:
                self.lines.add(f"pub use {parent}::{inner['source']}::*")
                return
            (tk, tinner), = t["inner"].items()
            if tk == "module":
                for child in tinner["items"]:
                    c = self.item(child)
                    if c and self.public(c) and c.get("name") and "use" not in c["inner"]:
                        self.walk(child, f"{parent}::{c['name']}")
                    elif c and self.public(c) and "use" in c["inner"]:
                        self.on_use(c, c["inner"]["use"], parent, "use")
            return
        t = self.item(target) if target is not None else None
        if t is None:
            self.lines.add(f"pub use {parent}::{name} = {inner['source']}")
            return
        self.walk(target, f"{parent}::{name}")

    def impls(self, impl_ids, path):
        for iid in impl_ids:
            im = self.item(iid)
            if im is None:
                continue
            imp = im["inner"]["impl"]
            if imp.get("is_synthetic") or imp.get("blanket_impl") is not None:
                continue
            if imp.get("trait"):
                neg = "!" if imp.get("is_negative") else ""
                self.lines.add(f"impl{generics(imp.get('generics', {}))} {neg}{path_str(imp['trait'])} for {path}")
                continue
            for mid in imp["items"]:
                m = self.item(mid)
                if m is None or not self.public(m) or self.hidden(m):
                    continue
                (mk, minner), = m["inner"].items()
                if mk == "function":
                    self.lines.add(f"pub {signature(path + '::' + m['name'], minner)}")
                elif mk == "assoc_const":
                    self.lines.add(f"pub const {path}::{m['name']}: {ty(minner['type'])}")

    def on_struct(self, it, inner, path, _kind):
        ne = " #[non_exhaustive]" if is_non_exhaustive(it) else ""
        self.lines.add(f"pub struct {path}{generics(inner.get('generics', {}))}{ne}")
        k = inner["kind"]
        fields = []
        if isinstance(k, dict) and "plain" in k:
            fields = k["plain"]["fields"]
        elif isinstance(k, dict) and "tuple" in k:
            fields = [f for f in k["tuple"] if f is not None]
        for fid in fields:
            f = self.item(fid)
            if f and self.public(f) and not self.hidden(f):
                self.lines.add(f"pub {path}::{f['name']}: {ty(f['inner']['struct_field'])}")
        self.impls(inner.get("impls", []), path)

    def on_union(self, it, inner, path, kind):
        self.on_struct(it, {"kind": {"plain": {"fields": inner.get("fields", [])}},
                            "impls": inner.get("impls", []), "generics": inner.get("generics", {})}, path, kind)

    def on_enum(self, it, inner, path, _kind):
        ne = " #[non_exhaustive]" if is_non_exhaustive(it) else ""
        self.lines.add(f"pub enum {path}{generics(inner.get('generics', {}))}{ne}")
        for vid in inner["variants"]:
            v = self.item(vid)
            if v is None or self.hidden(v):
                continue
            vk = v["inner"]["variant"]["kind"]
            shape = ""
            if isinstance(vk, dict) and "tuple" in vk:
                tys = [ty(self.item(f)["inner"]["struct_field"]) if f is not None else "_" for f in vk["tuple"]]
                shape = f"({', '.join(tys)})"
            elif isinstance(vk, dict) and "struct" in vk:
                names = []
                for f in vk["struct"]["fields"]:
                    fi = self.item(f)
                    names.append(f"{fi['name']}: {ty(fi['inner']['struct_field'])}")
                shape = " { " + ", ".join(names) + " }"
            vne = " #[non_exhaustive]" if is_non_exhaustive(v) else ""
            self.lines.add(f"pub {path}::{v['name']}{shape}{vne}")
        self.impls(inner.get("impls", []), path)

    def on_function(self, it, inner, path, _kind):
        self.lines.add(f"pub {signature(path, inner)}")

    def on_trait(self, it, inner, path, _kind):
        self.lines.add(f"pub trait {path}")
        for mid in inner["items"]:
            m = self.item(mid)
            if m is None or self.hidden(m):
                continue
            (mk, minner), = m["inner"].items()
            if mk == "function":
                self.lines.add(f"pub {signature(path + '::' + m['name'], minner)}")
            else:
                self.lines.add(f"pub {mk} {path}::{m['name']}")

    def on_constant(self, it, inner, path, _kind):
        self.lines.add(f"pub const {path}: {ty(inner['type'])}")

    def on_static(self, it, inner, path, _kind):
        self.lines.add(f"pub static {path}: {ty(inner['type'])}")

    def on_type_alias(self, it, inner, path, _kind):
        self.lines.add(f"pub type {path}{generics(inner.get('generics', {}))} = {ty(inner['type'])}")

    def on_macro(self, it, inner, path, _kind):
        self.lines.add(f"pub macro {path.split('::')[0]}::{it['name']}!")

    def on_other(self, it, inner, path, kind):
        self.lines.add(f"pub {kind} {path}")


def attrs(it):
    out = []
    for a in it.get("attrs", []):
        out.append(a if isinstance(a, str) else json.dumps(a))
    return out


def is_non_exhaustive(it):
    return any("non_exhaustive" in a for a in attrs(it))


def listing(json_path):
    doc = json.load(open(json_path))
    root = doc["index"][str(doc["root"])]
    lister = Lister(doc)
    lister.walk(doc["root"], root["name"])
    return sorted(lister.lines)


class FieldLister(Lister):
    """The public structs (by one path each) with a public field and no
    `#[non_exhaustive]`: a user could build them with a struct literal, so
    a field added later would break that user. Such a struct gets private
    fields with `with_*` setters, or `#[non_exhaustive]`."""

    def __init__(self, doc):
        super().__init__(doc)
        self.open_structs = {}

    def on_struct(self, it, inner, path, kind):
        super().on_struct(it, inner, path, kind)
        if is_non_exhaustive(it):
            return
        k = inner["kind"]
        fields = []
        if isinstance(k, dict) and "plain" in k:
            fields = k["plain"]["fields"]
        elif isinstance(k, dict) and "tuple" in k:
            fields = [f for f in k["tuple"] if f is not None]
        public = [self.item(f) for f in fields]
        public = [f["name"] for f in public if f and self.public(f) and not self.hidden(f)]
        if public:
            key = str(it["id"])
            if key not in self.open_structs or path < self.open_structs[key][0]:
                self.open_structs[key] = (path, public)


def open_structs(json_path):
    doc = json.load(open(json_path))
    lister = FieldLister(doc)
    lister.walk(doc["root"], doc["index"][str(doc["root"])]["name"])
    return sorted(lister.open_structs.values())


def plant_struct(json_path, out_path):
    """A copy of the JSON whose root module gains a public struct with a
    public field and no `#[non_exhaustive]` (`PlantedByCi { pub field: u8 }`):
    what the field check must refuse."""
    doc = json.load(open(json_path))
    index = doc["index"]
    root = index[str(doc["root"])]
    field_id = max(int(k) for k in index) + 1
    struct_id = field_id + 1
    common = {"crate_id": 0, "span": None, "visibility": "public", "docs": None,
              "links": {}, "attrs": [], "deprecation": None}
    index[str(field_id)] = dict(common, id=field_id, name="field",
                                inner={"struct_field": {"primitive": "u8"}})
    index[str(struct_id)] = dict(common, id=struct_id, name="PlantedByCi", inner={"struct": {
        "kind": {"plain": {"fields": [field_id], "has_stripped_fields": False}},
        "generics": {"params": [], "where_predicates": []}, "impls": []}})
    root["inner"]["module"]["items"].append(struct_id)
    json.dump(doc, open(out_path, "w"))


def plant(json_path, out_path, remove):
    """A copy of the JSON whose root module gains a public function
    (`planted_by_ci`), or loses its first item that is not a module: what an
    unlisted change to the code looks like to the check."""
    doc = json.load(open(json_path))
    index = doc["index"]
    root = index[str(doc["root"])]
    items = root["inner"]["module"]["items"]
    if remove:
        gone = [i for i in items if "module" not in index[str(i)]["inner"]]
        if not gone:
            sys.exit("the crate root has no item but modules")
        items.remove(gone[0])
    else:
        new_id = max(int(k) for k in index) + 1
        index[str(new_id)] = {
            "id": new_id, "crate_id": 0, "name": "planted_by_ci", "span": None,
            "visibility": "public", "docs": None, "links": {}, "attrs": [],
            "deprecation": None,
            "inner": {"function": {
                "sig": {"inputs": [], "output": None, "is_c_variadic": False},
                "generics": {"params": [], "where_predicates": []},
                "header": {"is_const": False, "is_unsafe": False, "is_async": False, "abi": "Rust"},
                "has_body": True}},
        }
        items.append(new_id)
    json.dump(doc, open(out_path, "w"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", metavar="LISTING")
    ap.add_argument("--plant-function", metavar="OUT_JSON")
    ap.add_argument("--remove-first-item", metavar="OUT_JSON")
    ap.add_argument("--check-fields", action="store_true")
    ap.add_argument("--plant-struct", metavar="OUT_JSON")
    ap.add_argument("json")
    args = ap.parse_args()
    if args.plant_struct:
        plant_struct(args.json, args.plant_struct)
        return 0
    if args.check_fields:
        found = open_structs(args.json)
        for path, fields in found:
            sys.stderr.write(f"{path}: public fields ({', '.join(fields)}) and no #[non_exhaustive]\n")
        if found:
            sys.stderr.write("give such a struct private fields with with_* setters, or #[non_exhaustive]\n")
        return 1 if found else 0
    if args.plant_function or args.remove_first_item:
        plant(args.json, args.plant_function or args.remove_first_item,
              remove=bool(args.remove_first_item))
        return 0
    lines = [line + "\n" for line in listing(args.json)]
    if not args.check:
        sys.stdout.writelines(lines)
        return 0
    with open(args.check) as f:
        committed = f.readlines()
    if committed == lines:
        return 0
    sys.stderr.write(f"the public API differs from {args.check}:\n")
    sys.stderr.writelines(difflib.unified_diff(committed, lines, args.check, "the code"))
    sys.stderr.write(
        f"if the change is meant, update the listing: python3 .ci/public_api.py {args.json} > {args.check}\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
