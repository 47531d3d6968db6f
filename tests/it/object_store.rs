//! Arrays in an S3-compatible server (moto's server mode, started here on
//! 127.0.0.1 and stopped after, also on a panic): every fixture uploaded
//! reads back with the engine's cells, arrays imported into the server by
//! the command line are read by the engine with the same cells, and the
//! requests for opening an array and reading one tile are counted.

use crate::write_support;

use write_support::common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{same, sorted};
use serde_json::Value;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::storage::object::ObjectStorage;
use tiledb_codec::raw::storage::StorageRef;
use tiledb_codec::raw::OpenOptionsExt;
use tiledb_codec::ReadOptions;

/// A moto server on a free port of 127.0.0.1, killed on drop.
pub(crate) struct Moto {
    child: Child,
    port: u16,
}

impl Moto {
    pub(crate) fn start() -> Moto {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(common::engine_python())
            .args(["-m", "moto.server", "-H", "127.0.0.1", "-p"])
            .arg(port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto's server starts (moto[server] in the engine venv)");
        let moto = Moto { child, port };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "moto's server did not answer on port {port}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        moto
    }

    fn endpoint(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Makes a bucket (one unsigned PUT, which moto takes).
    pub(crate) fn bucket(&self, name: &str) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "PUT /{name} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.port
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "create bucket: {reply}");
    }

    /// The storage of `s3://bucket/key` in this server, and the path.
    pub(crate) fn open(&self, url: &str) -> (std::sync::Arc<ObjectStorage>, PathBuf) {
        ObjectStorage::from_url(url, self.options()).unwrap()
    }

    fn options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("aws_endpoint", format!("http://{}", self.endpoint())),
            ("aws_allow_http", "true".into()),
            ("aws_access_key_id", "test".into()),
            ("aws_secret_access_key", "test".into()),
            ("aws_region", "us-east-1".into()),
        ]
    }

    /// The environment the command line reads for this server.
    pub(crate) fn env(&self, cmd: &mut Command) {
        cmd.env("AWS_ENDPOINT_URL", format!("http://{}", self.endpoint()))
            .env("AWS_ALLOW_HTTP", "true")
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_REGION", "us-east-1");
    }

    /// The engine's cells of each array (`s3://` URI, key), read from this
    /// server in one Python process.
    pub(crate) fn engine_cells(
        &self,
        arrays: &[(String, Option<String>)],
    ) -> Vec<Result<Vec<Value>, String>> {
        self.engine(arrays, &[])
            .into_iter()
            .map(|e| match e.get("cells") {
                Some(c) => Ok(c.as_array().cloned().unwrap()),
                None => Err(e["error"].to_string()),
            })
            .collect()
    }

    /// engine_s3_cells.py's entries for `arrays`.
    fn engine(&self, arrays: &[(String, Option<String>)], args: &[&str]) -> Vec<Value> {
        let mut child = Command::new(common::engine_python())
            .arg(common::root().join("tests/engine/engine_s3_cells.py"))
            .arg(self.endpoint())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = serde_json::to_vec(arrays).unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "engine_s3_cells.py: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v.len(), arrays.len());
        v
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every file below `dir` with its path relative to `dir`.
fn files(dir: &Path, rel: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let r = rel.join(e.file_name());
        if e.path().is_dir() {
            files(&e.path(), &r, out);
        } else {
            out.push((e.path(), r));
        }
    }
}

/// Uploads the local folder `from` to `to` (a path of `storage`'s store).
pub(crate) fn upload(storage: &ObjectStorage, from: &Path, to: &Path) {
    let mut all = Vec::new();
    files(from, Path::new(""), &mut all);
    let batch: Vec<(PathBuf, PathBuf)> = all
        .into_iter()
        .map(|(local, rel)| (local, to.join(rel)))
        .collect();
    storage.upload(&[batch]).unwrap();
}

fn our_cells(storage: &StorageRef, path: &Path, key: Option<&str>) -> Result<Vec<Value>, String> {
    let mut opts = ReadOptions::default();
    if let Some(k) = key {
        opts = opts.with_key(k.as_bytes().try_into().unwrap());
    }
    let r = ArrayReader::open_in(storage.clone(), path, None, &opts).map_err(|e| e.to_string())?;
    let cells = r.read(&Query::default()).map_err(|e| e.to_string())?;
    Ok((0..cells.len).map(|i| cells.row(i)).collect())
}

fn compare(id: &str, ours: Vec<Value>, engine: Vec<Value>, failures: &mut Vec<String>) {
    let (a, b) = (sorted(ours), sorted(engine));
    if a.len() != b.len() {
        failures.push(format!(
            "{id}: {} cells, the engine read {}",
            a.len(),
            b.len()
        ));
    } else if let Some((x, y)) = a.iter().zip(&b).find(|(x, y)| !same(x, y)) {
        failures.push(format!("{id}: ours {x} engine {y}"));
    }
}

#[test]
fn every_fixture_from_s3_reads_the_engine_cells() {
    let moto = Moto::start();
    moto.bucket("fixtures");
    let (storage, root) = moto.open("s3://fixtures");
    let arrays: Vec<_> = common::fixtures()
        .into_iter()
        .filter(|f| f.kind == "array")
        .collect();
    for f in &arrays {
        upload(&storage, &f.path, &root.join(&f.id));
    }
    let uris: Vec<(String, Option<String>)> = arrays
        .iter()
        .map(|f| (format!("s3://fixtures/{}", f.id), f.key.clone()))
        .collect();
    let engine = moto.engine_cells(&uris);
    let sref = StorageRef::from(storage.clone());
    let mut failures = Vec::new();
    for (f, engine) in arrays.iter().zip(engine) {
        let engine = match engine {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: the engine: {e}", f.id));
                continue;
            }
        };
        match our_cells(&sref, &root.join(&f.id), f.key.as_deref()) {
            Ok(ours) => compare(&f.id, ours, engine, &mut failures),
            Err(e) => failures.push(format!("{}: {e}", f.id)),
        }
    }
    assert!(arrays.len() > 20);
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ:\n{}",
        failures.len(),
        arrays.len(),
        failures.join("\n")
    );
}

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `import s3://...` of a fixture's cells (twice: creating the array, then
/// into the existing array) and `meta put s3://...`: the engine reads the
/// arrays from the server with the cells imported; the command line reads
/// them back too, `--stats` counting its requests.
#[test]
fn arrays_imported_into_s3_are_read_by_the_engine() {
    let moto = Moto::start();
    moto.bucket("imports");
    let tmp = write_support::TempDir::new("object-store");
    let names = [
        "dense_int_2d",
        "dense_var_nullable",
        "sparse_int_2d",
        "sparse_strdim",
        "types_multival",
        "nullable_var_sparse",
        "enumerations",
    ];
    let mut expected = Vec::new();
    let mut uris = Vec::new();
    for name in names {
        let local = common::root().join("tests/fixtures/v22").join(name);
        let schema = tmp.0.join(format!("{name}.json"));
        let cells = tmp.0.join(format!("{name}.ndjson"));
        std::fs::write(
            &schema,
            run_ok(cli().arg("inspect").arg(&local).arg("--json")),
        )
        .unwrap();
        std::fs::write(&cells, run_ok(cli().arg("export").arg(&local))).unwrap();
        let url = format!("s3://imports/{name}");
        let mut import = cli();
        import
            .args(["import", &url, "--quiet", "--schema"])
            .arg(&schema)
            .arg("--cells")
            .arg(&cells);
        moto.env(&mut import);
        let said = run_ok(&mut import);
        assert!(said.contains("new array"), "{said}");
        let ours = our_cells(&StorageRef::default(), &local, None).unwrap();
        expected.push((name.to_string(), ours));
        uris.push((url, None));
    }
    // A second fragment into an existing array, and metadata.
    let url = "s3://imports/sparse_int_2d";
    let more = tmp.0.join("more.ndjson");
    std::fs::write(&more, "{\"r\": 99, \"c\": 98, \"a\": 7, \"b\": 0.5}\n").unwrap();
    let mut import = cli();
    import.args(["import", url, "--cells"]).arg(&more);
    moto.env(&mut import);
    assert!(run_ok(&mut import).contains("existing array"));
    let mut put = cli();
    put.args(["meta", url, "put", "k", "5", "--type", "INT32"]);
    moto.env(&mut put);
    run_ok(&mut put);
    let mut list = cli();
    list.args(["meta", url, "list", "--json", "--stats"]);
    moto.env(&mut list);
    let out = list.output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"k\""));
    let stats = String::from_utf8_lossy(&out.stderr);
    assert!(
        stats.contains("stats: s3://imports/sparse_int_2d: requests"),
        "{stats}"
    );

    // The engine reads every imported array from the server.
    let engine = moto.engine_cells(&uris);
    let mut failures = Vec::new();
    for ((name, ours), engine) in expected.iter().zip(engine) {
        match engine {
            Ok(mut e) => {
                if name == "sparse_int_2d" {
                    // The second import's cell.
                    let extra = e.iter().position(|c| c["r"] == 99 && c["c"] == 98);
                    match extra {
                        Some(i) => {
                            e.remove(i);
                        }
                        None => failures.push(format!("{name}: no cell (99, 98)")),
                    }
                }
                compare(name, ours.clone(), e, &mut failures)
            }
            Err(e) => failures.push(format!("{name}: the engine: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Group commands say they do not take URLs yet.
    let mut group = cli();
    group.args(["group", "list", "s3://imports/no_group"]);
    moto.env(&mut group);
    let out = group.output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not support object-store URLs"));
}

/// The objects below `url`, relative to it.
pub(crate) fn objects(moto: &Moto, url: &str) -> Vec<String> {
    let (storage, root) = moto.open(url);
    storage.forget_listings();
    let mut out: Vec<String> = storage
        .objects_below(&root)
        .unwrap()
        .into_iter()
        .map(|(p, _)| p.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    out.sort();
    out
}

/// The files below `dir`, relative to it.
fn local_files(dir: &Path) -> Vec<String> {
    let mut all = Vec::new();
    files(dir, Path::new(""), &mut all);
    let mut out: Vec<String> = all
        .into_iter()
        .map(|(_, r)| r.display().to_string())
        .collect();
    out.sort();
    out
}

/// How many objects each top-level part of an array holds
/// (`__fragments/<name>` counted as one fragment, named files as
/// themselves): names hold timestamps and uuids, counts do not.
fn shape(names: &[String]) -> Vec<(String, usize)> {
    let mut m = std::collections::BTreeMap::new();
    for n in names {
        let mut parts = n.split('/');
        let top = parts.next().unwrap_or_default().to_string();
        let key = if top == "__fragments" {
            format!(
                "__fragments/{}",
                if parts.next().is_some() { "*" } else { "" }
            )
        } else if top.starts_with("__") {
            let ext = n
                .rsplit('.')
                .next()
                .filter(|e| !e.contains('/'))
                .unwrap_or("");
            format!("{top}/*.{ext}")
        } else {
            top
        };
        *m.entry(key).or_insert(0usize) += 1;
    }
    m.into_iter().collect()
}

/// Maintenance of arrays in the store: `delete --where`, `evolve`,
/// `consolidate` and `vacuum` on `s3://` URLs do what they do to a local
/// copy: the engine reads from the server the cells our reader reads from
/// the local copy, and the store holds objects of the same kinds and
/// numbers as the copy holds files (vacuum removed the same ones).
#[test]
fn maintenance_commands_on_arrays_in_s3() {
    let moto = Moto::start();
    moto.bucket("maintained");
    let tmp = write_support::TempDir::new("object-store-maintained");
    let mut failures = Vec::new();
    let mut uris = Vec::new();
    let mut expected = Vec::new();
    for (name, condition) in [
        ("sparse_int_2d", Some("r < 10")),
        ("dense_int_2d", None),
        ("sparse_strdim", Some("s < 'c'")),
    ] {
        let fixture = common::root().join("tests/fixtures/v22").join(name);
        let local = tmp.0.join(name);
        common::copy_dir(&fixture, &local);
        let url = format!("s3://maintained/{name}");
        let (storage, root) = moto.open(&url);
        upload(&storage, &fixture, &root);
        let local_arg = local.display().to_string();
        let mut steps: Vec<Vec<&str>> = Vec::new();
        if let Some(c) = condition {
            steps.push(vec!["delete", "ARRAY", "--where", c]);
        }
        steps.push(vec![
            "evolve",
            "ARRAY",
            "--add-attribute",
            r#"{"name": "zz_added", "datatype": "INT32", "fill_value": 5}"#,
        ]);
        steps.push(vec!["consolidate", "ARRAY"]);
        steps.push(vec!["vacuum", "ARRAY"]);
        for step in steps {
            for (target, remote) in [(local_arg.as_str(), false), (url.as_str(), true)] {
                let args: Vec<&str> = step
                    .iter()
                    .map(|a| if *a == "ARRAY" { target } else { a })
                    .collect();
                let mut cmd = cli();
                cmd.args(&args).arg("--quiet");
                if remote {
                    moto.env(&mut cmd);
                }
                let out = cmd.output().unwrap();
                if !out.status.success() {
                    failures.push(format!(
                        "{name}: {args:?}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
        let (stored, copied) = (objects(&moto, &url), local_files(&local));
        assert!(
            stored
                .iter()
                .filter(|o| o.starts_with("__fragments/"))
                .count()
                >= 1,
            "{name}: no fragment in the store: {stored:?}"
        );
        let copied: Vec<String> = copied
            .into_iter()
            .filter(|f| !f.rsplit('/').next().unwrap_or("").starts_with('.'))
            .collect();
        if shape(&stored) != shape(&copied) {
            failures.push(format!(
                "{name}: the store holds {:?}, the local copy {:?}",
                shape(&stored),
                shape(&copied)
            ));
        }
        if stored.iter().any(|o| o.ends_with(".vac")) {
            failures.push(format!(
                "{name}: a .vac list is left in the store: {stored:?}"
            ));
        }
        expected.push((
            name,
            our_cells(&StorageRef::default(), &local, None).unwrap(),
        ));
        uris.push((url, None));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for ((name, ours), engine) in expected.into_iter().zip(moto.engine_cells(&uris)) {
        match engine {
            Ok(e) => {
                assert!(
                    e.iter().all(|c| c["zz_added"] == 5),
                    "{name}: the added attribute's fill value"
                );
                compare(name, ours, e, &mut failures)
            }
            Err(e) => failures.push(format!("{name}: the engine: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Opening an array and reading one tile (the first cell of a 2-D dense
/// array, both attributes): our requests and bytes, and the engine's
/// (TileDB's VFS counters), printed for the README's comparison. We make
/// one LIST (the whole array, recursively); fragment metadata files of at
/// most 64 KiB (these) are fetched whole, one GET each, with their footers
/// (a larger file: the tail first, then only the generic tiles the read
/// needs), so all the bytes fetched are the metadata files', the schema's
/// and the tiles' the read needs: fewer than the array's objects hold.
#[test]
fn requests_to_open_an_array_and_read_one_tile() {
    let moto = Moto::start();
    moto.bucket("counts");
    let local = common::root().join("tests/fixtures/v22/dense_int_2d");
    {
        let (storage, root) = moto.open("s3://counts");
        upload(&storage, &local, &root.join("dense_int_2d"));
    }
    let (storage, path) = moto.open("s3://counts/dense_int_2d");
    let array = tiledb_codec::Array::open_with(
        &path,
        tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
    )
    .unwrap();
    let batch = array
        .reader()
        .range("rows", 1..=1)
        .range("cols", 1..=1)
        .read()
        .unwrap();
    assert_eq!(batch.len(), 1);
    let ours = storage.stats().snapshot();
    let mut objects = Vec::new();
    files(&local, Path::new(""), &mut objects);
    assert_eq!(ours.lists, 1, "one LIST for the whole array: {ours}");
    assert_eq!(ours.puts, 0);
    assert!(
        ours.gets < objects.len() as u64,
        "{ours}: {} objects",
        objects.len()
    );

    let metadata_bytes: u64 = objects
        .iter()
        .filter(|(_, rel)| rel.ends_with("__fragment_metadata.tdb"))
        .map(|(local, _)| std::fs::metadata(local).unwrap().len())
        .sum();
    let all_bytes: u64 = objects
        .iter()
        .map(|(local, _)| std::fs::metadata(local).unwrap().len())
        .sum();
    assert!(
        ours.bytes >= metadata_bytes && ours.bytes < all_bytes,
        "{ours}: the fragment metadata files hold {metadata_bytes} bytes, every object {all_bytes}"
    );

    let engine = moto.engine(
        &[("s3://counts/dense_int_2d".into(), None)],
        &["--one-cell"],
    );
    let stats = &engine[0]["stats"];
    let cell = &engine[0]["cells"][0];
    let a = batch.column::<i32>("a").unwrap()[0];
    assert_eq!(cell["a"][0].as_i64(), Some(a as i64), "{cell}");
    eprintln!(
        "open + one tile of v22/dense_int_2d ({} objects, fragment metadata {metadata_bytes} bytes): ours {ours}; the engine: {} reads, {} bytes read, {} size look-ups (its LISTs are not counted)",
        objects.len(),
        stats["read_ops_num"],
        stats["read_byte_num"],
        stats["file_size_num"]
    );
    let engine_reads = stats["read_ops_num"].as_u64().unwrap();
    assert!(ours.gets <= engine_reads, "{ours}, engine {stats}");
}

/// `sql` over arrays named by `s3://` URLs (a join of two, a filtered
/// aggregate) prints what the same query over the local fixtures prints,
/// and `--stats` counts the requests it made.
#[cfg(feature = "datafusion")]
#[test]
fn sql_over_s3_urls_equals_sql_over_local_paths() {
    let moto = Moto::start();
    moto.bucket("sql");
    let (storage, root) = moto.open("s3://sql");
    let fixtures = common::root().join("tests/fixtures/v22");
    for name in ["sparse_delete", "dense_var_nullable", "sparse_chunked"] {
        upload(&storage, &fixtures.join(name), &root.join(name));
    }
    let queries = [
        r#"SELECT s.d, s.a, n.n FROM "{A}/sparse_delete" s JOIN "{A}/dense_var_nullable" n
           ON s.d = n.d ORDER BY s.d"#,
        r#"SELECT count(*) AS n, sum(v) AS s FROM "{A}/sparse_chunked" WHERE r < 400 AND s > 'm'"#,
    ];
    for q in queries {
        let local = q.replace("{A}", &fixtures.display().to_string());
        let remote = q.replace("{A}", "s3://sql");
        let want = run_ok(cli().args(["sql", "--format", "csv", &local]));
        let mut cmd = cli();
        cmd.args(["sql", "--stats", "--format", "csv", &remote]);
        moto.env(&mut cmd);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{remote}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want, "{remote}");
        assert!(want.lines().count() > 1, "{local} returned no rows: {want}");
        let stats = String::from_utf8_lossy(&out.stderr);
        assert!(stats.contains("requests"), "--stats printed: {stats}");
    }
}

/// The array `tiles64` under `dir`: dense 1-D, 64 tiles of 1,000 cells, a
/// ZSTD float attribute `v` and the int attribute `second` (`nullable`).
fn tiles64(dir: &Path, second: &str, nullable: bool) -> tiledb_codec::Array {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let int = AttributeBuilder::new(second, Datatype::Int32);
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0..=63_999)
                .tile_extent(1000),
        )
        .attribute(
            AttributeBuilder::new("v", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .attribute(if nullable { int.nullable() } else { int })
        .build()
        .unwrap();
    Array::create(dir.join("tiles64"), &schema).unwrap()
}

/// A dense 1-D array of 64 tiles (1,000 cells each) with a ZSTD float
/// attribute and a nullable int attribute, written by our writer.
fn multi_tile_array(dir: &Path) -> PathBuf {
    let array = tiles64(dir, "n", true);
    let v: Vec<f64> = (0..64_000).map(|i| (i as f64 * 0.37).sin()).collect();
    let n: Vec<Option<i32>> = (0..64_000).map(|i| (i % 7 != 0).then_some(i)).collect();
    array
        .write()
        .column("v", &v)
        .nullable("n", &n)
        .commit()
        .unwrap();
    dir.join("tiles64")
}

/// A read of a multi-tile array from moto returns the local read's cells,
/// in fewer GET requests than tiles: neighbouring tiles are fetched in one
/// request (what the same read makes with merging turned off, one GET a
/// tile, is the comparison). A box read too.
#[test]
fn a_multi_tile_read_from_s3_merges_tile_requests() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-tiles");
    let local = multi_tile_array(&tmp.0);
    let moto = Moto::start();
    moto.bucket("tiles");
    {
        let (storage, root) = moto.open("s3://tiles");
        upload(&storage, &local, &root.join("tiles64"));
    }
    let want = Array::open(&local).unwrap();
    let full = want.reader().read().unwrap();
    let boxed = want.reader().range("d", 12_345..=40_321).read().unwrap();
    assert_eq!(full.len(), 64_000);
    let read = |fetch: FetchOptions| {
        let (storage, path) = moto.open("s3://tiles/tiles64");
        storage.set_fetch_options(fetch);
        let array = Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
        .unwrap();
        let before = storage.stats().snapshot().gets;
        let got = array.reader().read().unwrap();
        let gets = storage.stats().snapshot().gets - before;
        let b = array.reader().range("d", 12_345..=40_321).read().unwrap();
        for (name, ours, local) in [("full", &got, &full), ("box", &b, &boxed)] {
            assert_eq!(ours.len(), local.len(), "{name}");
            assert_eq!(
                ours.column::<f64>("v").unwrap(),
                local.column::<f64>("v").unwrap(),
                "{name}"
            );
            assert_eq!(
                ours.nullable::<i32>("n").unwrap(),
                local.nullable::<i32>("n").unwrap(),
                "{name}"
            );
        }
        gets
    };
    let merged = read(FetchOptions::default());
    let per_tile = read({
        let mut lit = FetchOptions::default();
        lit.max_request = 0;
        lit
    });
    // 64 tiles of `v`, of `n` and of its validity: one GET each unmerged.
    assert!(per_tile >= 3 * 64, "unmerged: {per_tile} GETs");
    assert!(
        merged < 64,
        "merged: {merged} GETs for 64 tiles of each of 3 files (unmerged: {per_tile})"
    );
    eprintln!("a full read of 64 x 3 tiles: {merged} GETs merged, {per_tile} unmerged");
}

/// An `ObjectStore` around `InMemory` that counts the GETs in flight and
/// keeps the most seen at once; each GET yields to the runtime a few times
/// first, so that those allowed to run at once do.
#[derive(Debug)]
struct InFlight {
    inner: object_store::memory::InMemory,
    now: std::sync::atomic::AtomicUsize,
    most: std::sync::atomic::AtomicUsize,
    gets: std::sync::atomic::AtomicUsize,
    /// Bytes added to the body of every ranged answer, past the range it
    /// announces (a server that sends more than it says).
    pad: std::sync::atomic::AtomicUsize,
    /// The object of every GET, in order.
    got: std::sync::Mutex<Vec<String>>,
}

impl InFlight {
    fn new() -> Self {
        InFlight {
            inner: object_store::memory::InMemory::new(),
            now: Default::default(),
            most: Default::default(),
            gets: Default::default(),
            pad: Default::default(),
            got: Default::default(),
        }
    }
}

impl std::fmt::Display for InFlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InFlight({})", self.inner)
    }
}

mod more;
#[allow(unused_imports)]
use more::*;
