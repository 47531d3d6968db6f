//! `meta` and `group` against the engine: metadata we put and delete (on
//! arrays and groups, ours and the engine's) is what the engine reads; the
//! members of groups we create and change (relative and absolute, named and
//! unnamed, removed) are what the engine lists, also on a group the engine
//! made, and the engine's own changes after ours read back; refusals write
//! nothing. The engine runs twice: once to make arrays and groups, once to
//! read everything (and change a group after us).

use crate::write_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use tiledb_codec::maintain::{self, GroupMember, MetadataOptions, NewMember};
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::ReadOptions;
use write_support::{common, TempDir};

const SETUP: &str = r#"
import sys, os, numpy as np, tiledb
root = sys.argv[1]
def arr(p):
    dom = tiledb.Domain(tiledb.Dim('d', domain=(0, 9), tile=10, dtype=np.int32))
    tiledb.Array.create(os.path.join(root, p),
        tiledb.ArraySchema(domain=dom, attrs=[tiledb.Attr('a', dtype=np.int32)]))
for p in ['plain', 'emeta', 'a1', 'a2']:
    arr(p)
with tiledb.open(os.path.join(root, 'emeta'), 'w') as A:
    A.meta['ek_int'] = 7
    A.meta['ek_str'] = 'engine'
    A.meta['ek_list'] = (1.5, 2.5)
eg = os.path.join(root, 'eg')
tiledb.group_create(eg)
arr('eg/x')
tiledb.group_create(os.path.join(root, 'esub'))
with tiledb.Group(eg, 'w') as g:
    g.add('x', name='ex', relative=True)
    g.add(os.path.join(root, 'a2'))
    g.meta['gk'] = 3
    g.meta['gs'] = 'grp'
"#;

const DUMP: &str = r#"
import sys, os, json, numpy as np, tiledb
root = sys.argv[1]
def norm(v):
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, str): return v
    if isinstance(v, (tuple, list, np.ndarray)): return [norm(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)]
    if isinstance(v, np.generic): v = v.item()
    if isinstance(v, bool): return int(v)
    return v
def meta(m):
    out = {}
    for k in m.keys():
        try:
            v, t = m.__getitem__(k, include_type=True)
            v = norm(v)
            out[k] = {'type': t.name, 'value': v if isinstance(v, (str, list)) else [v]}
        except Exception as e:
            out[k] = {'error': str(e)}
    return out
def members(g):
    return sorted([[m.name, m.uri, 'group' if m.type is tiledb.Group else 'array'] for m in g],
                  key=lambda x: (x[0] or '', x[1]))
out = {'arrays': {}, 'groups': {}}
for p in sys.argv[2].split(','):
    with tiledb.open(os.path.join(root, p)) as A:
        out['arrays'][p] = meta(A.meta)
for p in sys.argv[3].split(','):
    with tiledb.Group(os.path.join(root, p)) as g:
        out['groups'][p] = {'members': members(g), 'meta': meta(g.meta)}
# The engine changes our group after us, then reads it again.
g = os.path.join(root, 'g')
with tiledb.Group(g, 'w') as G:
    G.add(os.path.join(root, 'a2'), name='late')
    G.remove('sub')
    G.meta['engine_after'] = 1
with tiledb.Group(g) as G:
    out['after'] = {'members': members(G), 'meta': meta(G.meta)}
# What the engine refuses, on a group of its own.
s = os.path.join(root, 'scratch')
tiledb.group_create(s)
def attempt(f):
    G = tiledb.Group(s, 'w')
    try:
        f(G)
        G.close()
        return 'accepted'
    except Exception as e:
        try: G.close()
        except Exception: pass
        return 'refused: ' + str(e)
out['engine_refusals'] = {
    'remove_non_member': attempt(lambda G: G.remove('nope')),
    'add_missing': attempt(lambda G: G.add('missing', relative=True)),
    'add_name': attempt(lambda G: G.add(os.path.join(root, 'a1'), name='d')),
    'add_name_again': attempt(lambda G: G.add(os.path.join(root, 'a2'), name='d')),
}
print(json.dumps(out))
"#;

fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new(common::engine_python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "engine script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn cli(args: &[&str]) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(args)
        .output()
        .expect("the binary runs");
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Our metadata, as DUMP shows the engine's: type name and the values (a
/// string for text, hex for blobs, a list of numbers otherwise).
fn our_meta(path: &Path) -> Value {
    let md = maintain::read_metadata(path, &ReadOptions::default()).unwrap();
    let mut out = serde_json::Map::new();
    for (k, v) in md {
        let name = v.datatype.name();
        // TileDB-Py reads the key but will not convert these types.
        if v.datatype == Datatype::Bool || name.starts_with("DATETIME") || name.starts_with("TIME")
        {
            out.insert(k, json!({"error": "TileDB datatype not supported"}));
            continue;
        }
        let value = match v.datatype {
            Datatype::StringUtf8 => json!(String::from_utf8(v.bytes.clone()).unwrap()),
            // TileDB-Py gives STRING_ASCII and CHAR as bytes: hex, as blobs.
            Datatype::StringAscii | Datatype::Char | Datatype::Blob => json!(v
                .bytes
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()),
            dt => Value::Array(
                tiledb_codec::raw::model::value::values(dt, &v.bytes)
                    .into_iter()
                    .map(|x| match x {
                        Value::Bool(b) => json!(u8::from(b)),
                        x => x,
                    })
                    .collect(),
            ),
        };
        out.insert(k, json!({"type": v.datatype.name(), "value": value}));
    }
    Value::Object(out)
}

/// Our members of a group as DUMP shows the engine's: name, resolved URI,
/// type.
fn our_members(g: &Path) -> Value {
    let mut v: Vec<Value> = maintain::group_members(g, &ReadOptions::default())
        .unwrap()
        .into_iter()
        .map(|m: GroupMember| {
            let uri = if m.relative {
                format!("file://{}/{}", s(g), m.uri)
            } else {
                m.uri.clone()
            };
            let ty = if m.object_type == tiledb_codec::maintain::ObjectKind::Group {
                "group"
            } else {
                "array"
            };
            json!([m.name, uri, ty])
        })
        .collect();
    v.sort_by_key(|x| {
        (
            x[0].as_str().unwrap_or("").to_string(),
            x[1].as_str().unwrap().to_string(),
        )
    });
    Value::Array(v)
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

fn file_uri(p: &Path) -> String {
    format!("file://{}", s(p))
}

/// Metadata of every datatype family put on `plain` through the command
/// line, one key overridden and one deleted; bad input refused.
fn put_through_the_command_line(plain: &Path) {
    // Metadata of every datatype family, through the command line.
    let puts: &[(&str, &str, &str)] = &[
        ("i8", "INT8", "-5"),
        ("u16", "UINT16", "1,2,65535"),
        ("i32", "INT32", "-2147483648"),
        ("i64", "INT64", "-9007199254740993"),
        ("u64", "UINT64", "18446744073709551615"),
        ("f32", "FLOAT32", "1.5, -0.25"),
        ("f64", "FLOAT64", "3.25"),
        ("utf8", "STRING_UTF8", "héllo, world"),
        ("ascii", "STRING_ASCII", "abc"),
        ("char", "CHAR", "xyz"),
        ("blob", "BLOB", "00ff10"),
        ("bool", "BOOL", "true,false"),
        ("ms", "DATETIME_MS", "1700000000000"),
        ("day", "DATETIME_DAY", "-3,4"),
        ("gone", "INT32", "1"),
    ];
    for (k, t, v) in puts {
        let out = cli(&["meta", s(plain), "put", k, v, "--type", t]).unwrap();
        assert!(out.contains(&format!("put {k} ({t})")), "{out}");
    }
    // Override and delete.
    cli(&["meta", s(plain), "put", "i8", "-6", "--type", "INT8"]).unwrap();
    cli(&["meta", s(plain), "delete", "gone"]).unwrap();
    let listed = cli(&["meta", s(plain), "list"]).unwrap();
    assert!(listed.contains("i8 (INT8) = -6"), "{listed}");
    assert!(listed.contains("u16 (UINT16) = "), "{listed}");
    assert!(!listed.contains("gone"), "{listed}");
    let json_list: Value =
        serde_json::from_str(&cli(&["meta", s(plain), "list", "--json"]).unwrap()).unwrap();
    assert_eq!(json_list["i8"], json!({"datatype": "INT8", "value": -6}));
    // Bad input is refused, with nothing written.
    let before = count(&plain.join("__meta"));
    assert!(cli(&["meta", s(plain), "put", "x", "300", "--type", "UINT8"]).is_err());
    assert!(cli(&["meta", s(plain), "put", "x", "1", "--type", "NOPE"]).is_err());
    assert!(cli(&["meta", s(plain), "put", "x", "abc", "--type", "BLOB"]).is_err());
    let err = cli(&["meta", s(plain), "delete", "never"]).unwrap_err();
    assert!(err.contains("no metadata key"), "{err}");
    assert_eq!(count(&plain.join("__meta")), before);
}

/// Our changes to what the engine made: an array's metadata and a
/// group's metadata and members.
fn change_the_engines(root: &Path) {
    let r = |p: &str| root.join(p);
    let opts = MetadataOptions::default();
    let gopts = MetadataOptions::default();
    // The engine's own keys: overridden (with another type) and deleted.
    let emeta = r("emeta");
    maintain::put_metadata(
        &emeta,
        "ek_int",
        Datatype::Int32,
        &42i32.to_le_bytes(),
        &opts,
    )
    .unwrap();
    maintain::delete_metadata(&emeta, "ek_str", &opts).unwrap();
    maintain::put_metadata(&emeta, "ours", Datatype::StringUtf8, b"x", &opts).unwrap();

    // An engine group: its metadata and members changed by us.
    let eg = r("eg");
    maintain::put_metadata(&eg, "gk", Datatype::Float64, &0.5f64.to_le_bytes(), &opts).unwrap();
    maintain::delete_metadata(&eg, "gs", &opts).unwrap();
    let v = maintain::parse_metadata_value(Datatype::Int16, "1,2").unwrap();
    maintain::put_metadata(&eg, "ours", Datatype::Int16, &v, &opts).unwrap();
    maintain::add_member(
        &eg,
        &NewMember::new(s(&r("a1")), Some("first".into()), false),
        &gopts,
    )
    .unwrap();
    maintain::remove_member(&eg, "ex", &gopts).unwrap();
}

/// Our group at `g`: created, with members added and removed and metadata
/// put.
fn make_our_group(root: &Path, g: &Path) {
    let r = |p: &str| root.join(p);
    let eg = r("eg");
    let gopts = MetadataOptions::default();
    // Our group: create, add (relative and absolute, named and unnamed,
    // arrays and groups), remove by name and by path.
    let out = cli(&["group", "create", s(g)]).unwrap();
    assert!(out.contains("created group"), "{out}");
    assert!(cli(&["group", "create", s(g)]).is_err());
    maintain::create_group(&g.join("sub")).unwrap();
    common::copy_dir(&r("a1"), &g.join("inner"));
    cli(&["group", "add", s(g), "sub", "--relative"]).unwrap();
    cli(&["group", "add", s(g), "inner", "--relative", "--name", "in"]).unwrap();
    cli(&["group", "add", s(g), s(&r("a1")), "--name", "one"]).unwrap();
    cli(&["group", "add", s(g), s(&r("a2"))]).unwrap();
    maintain::add_members(
        g,
        &[
            NewMember::new(file_uri(&r("esub")), Some("es".into()), false),
            NewMember::new(s(&eg), None, false),
        ],
        &gopts,
    )
    .unwrap();
    let out = cli(&["group", "remove", s(g), "one"]).unwrap();
    assert!(out.contains("removed one array"), "{out}");
    cli(&["group", "remove", s(g), s(&r("a2"))]).unwrap();
    cli(&[
        "group",
        "meta",
        s(g),
        "put",
        "gm",
        "group meta",
        "--type",
        "STRING_ASCII",
    ])
    .unwrap();
    let listed: Value =
        serde_json::from_str(&cli(&["group", "list", s(g), "--json"]).unwrap()).unwrap();
    assert!(listed
        .as_array()
        .unwrap()
        .contains(&json!({"name": "in", "uri": "inner", "type": "array", "relative": true})));
}

/// Changes to our group `g` that are refused write nothing.
fn refusals_write_nothing(root: &Path, g: &Path) {
    let r = |p: &str| root.join(p);
    let opts = MetadataOptions::default();
    let gopts = MetadataOptions::default();
    // Refusals: nothing written.
    let (details, metas) = (count(&g.join("__group")), count(&g.join("__meta")));
    let add = |uri: &str, name: Option<&str>, relative: bool| {
        maintain::add_member(
            g,
            &NewMember::new(uri, name.map(Into::into), relative),
            &gopts,
        )
    };
    for e in [
        add(s(&r("a1")), Some("es"), false).unwrap_err(),
        add("sub", None, true).unwrap_err(),
        add("missing", None, true).unwrap_err(),
        add(s(&r("nothing")), Some("n"), false).unwrap_err(),
        maintain::remove_member(g, "nope", &gopts).unwrap_err(),
        maintain::remove_member(g, "one", &gopts).unwrap_err(),
    ] {
        assert!(matches!(e, tiledb_codec::Error::Array { .. }), "{e}");
    }
    let err = cli(&["group", "add", s(g), "missing", "--relative"]).unwrap_err();
    assert!(err.contains("neither an array nor a group"), "{err}");
    let err = cli(&["group", "remove", s(g), "nope"]).unwrap_err();
    assert!(err.contains("no member has this name or URI"), "{err}");
    assert!(maintain::delete_metadata(g, "nokey", &opts).is_err());
    assert_eq!(count(&g.join("__group")), details);
    assert_eq!(count(&g.join("__meta")), metas);
}

/// What we expect the engine to read (from our own reader, and spelled
/// out): the arrays' metadata and the groups.
fn expected(root: &Path) -> (Value, Value) {
    let r = |p: &str| root.join(p);
    let (plain, emeta, eg, g) = (r("plain"), r("emeta"), r("eg"), r("g"));
    // What we expect the engine to read, from our own reader.
    let expect_arrays = json!({"plain": our_meta(&plain), "emeta": our_meta(&emeta)});
    let expect_groups = json!({
        "eg": {"members": our_members(&eg), "meta": our_meta(&eg)},
        "g": {"members": our_members(&g), "meta": our_meta(&g)},
    });
    // And what that is, spelled out.
    assert_eq!(
        expect_groups["g"]["members"],
        json!([
            [null, file_uri(&eg), "group"],
            [null, format!("{}/sub", file_uri(&g)), "group"],
            ["es", file_uri(&r("esub")), "group"],
            ["in", format!("{}/inner", file_uri(&g)), "array"],
        ])
    );
    assert_eq!(
        expect_groups["eg"]["members"],
        json!([
            [null, file_uri(&r("a2")), "array"],
            ["first", file_uri(&r("a1")), "array"],
        ])
    );
    assert_eq!(expect_arrays["plain"]["u16"]["value"], json!([1, 2, 65535]));
    assert_eq!(expect_arrays["plain"]["blob"]["value"], json!("00ff10"));
    assert_eq!(
        expect_arrays["plain"]["i64"]["value"],
        json!([-9007199254740993i64])
    );
    let ours = maintain::read_metadata(&plain, &ReadOptions::default()).unwrap();
    assert_eq!(ours["day"].datatype, Datatype::DatetimeDay);
    assert_eq!(
        ours["day"].bytes,
        [(-3i64).to_le_bytes(), 4i64.to_le_bytes()].concat()
    );
    assert_eq!(ours["bool"].bytes, [1, 0]);
    assert_eq!(
        expect_arrays["emeta"]["ek_int"],
        json!({"type": "INT32", "value": [42]})
    );
    assert!(expect_arrays["emeta"].get("ek_str").is_none());
    assert_eq!(
        expect_arrays["emeta"]["ek_list"]["value"],
        json!([1.5, 2.5])
    );

    (expect_arrays, expect_groups)
}

#[test]
fn metadata_and_groups_as_the_engine_reads_them() {
    let tmp = TempDir::new("group-meta");
    let root: PathBuf = std::path::absolute(&tmp.0).unwrap();
    let r = |p: &str| root.join(p);
    python(SETUP, &[s(&root)]);
    put_through_the_command_line(&r("plain"));
    change_the_engines(&root);
    let g = r("g");
    make_our_group(&root, &g);
    refusals_write_nothing(&root, &g);
    let (expect_arrays, expect_groups) = expected(&root);

    let engine: Value =
        serde_json::from_str(&python(DUMP, &[s(&root), "plain,emeta", "eg,g"])).unwrap();
    for (k, want) in expect_arrays.as_object().unwrap() {
        assert_eq!(&engine["arrays"][k], want, "metadata of array {k}");
    }
    for (k, want) in expect_groups.as_object().unwrap() {
        assert_eq!(&engine["groups"][k], want, "group {k}");
    }

    // The engine's changes after ours read back.
    assert_eq!(engine["after"]["members"], our_members(&g));
    assert_eq!(engine["after"]["meta"], our_meta(&g));
    assert!(engine["after"]["members"]
        .as_array()
        .unwrap()
        .contains(&json!(["late", file_uri(&r("a2")), "array"])));

    // What TileDB 2.30 itself refuses: removing a non-member (as we do);
    // a member that does not exist it accepts, recording the type INVALID
    // (which its own Python listing then fails on; we refuse it).
    let refusals = &engine["engine_refusals"];
    assert!(
        refusals["remove_non_member"]
            .as_str()
            .unwrap()
            .contains("member does not exist"),
        "{refusals}"
    );
    assert_eq!(refusals["add_missing"], json!("accepted"), "{refusals}");
    // A name already in the group it accepts in a later change (the member
    // is replaced); we refuse it.
    assert_eq!(refusals["add_name"], json!("accepted"), "{refusals}");
    assert_eq!(refusals["add_name_again"], json!("accepted"), "{refusals}");
}
