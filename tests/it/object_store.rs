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

#[async_trait::async_trait]
impl object_store::ObjectStore for InFlight {
    async fn put_opts(
        &self,
        location: &object_store::path::Path,
        payload: object_store::PutPayload,
        opts: object_store::PutOptions,
    ) -> object_store::Result<object_store::PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &object_store::path::Path,
        opts: object_store::PutMultipartOptions,
    ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &object_store::path::Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.now.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        self.gets.fetch_add(1, SeqCst);
        self.got
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(location.to_string());
        for _ in 0..4 {
            yield_once().await;
        }
        let ranged = options.range.is_some();
        let out = self.inner.get_opts(location, options).await;
        self.now.fetch_sub(1, SeqCst);
        let pad = self.pad.load(SeqCst);
        match out {
            Ok(mut r) if ranged && pad > 0 => {
                use futures::StreamExt;
                use object_store::GetResultPayload::Stream;
                let Stream(body) =
                    std::mem::replace(&mut r.payload, Stream(futures::stream::empty().boxed()))
                else {
                    unreachable!("the memory store answers with a stream")
                };
                let more = futures::stream::once(async move { Ok(vec![0u8; pad].into()) });
                r.payload = Stream(body.chain(more).boxed());
                Ok(r)
            }
            out => out,
        }
    }

    fn delete_stream(
        &self,
        locations: futures::stream::BoxStream<
            'static,
            object_store::Result<object_store::path::Path>,
        >,
    ) -> futures::stream::BoxStream<'static, object_store::Result<object_store::path::Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(
        &self,
        prefix: Option<&object_store::path::Path>,
    ) -> futures::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(
        &self,
        prefix: Option<&object_store::path::Path>,
    ) -> object_store::Result<object_store::ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &object_store::path::Path,
        to: &object_store::path::Path,
        options: object_store::CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

/// The array at `local` uploaded to an [`InFlight`] store, and opened from
/// it with `fetch`.
fn in_flight_array(
    local: &Path,
    fetch: tiledb_codec::raw::storage::object::FetchOptions,
) -> (std::sync::Arc<InFlight>, tiledb_codec::Array) {
    in_flight_array_at(local, "tiles64", fetch)
}

/// [`in_flight_array`] of the array uploaded as `name`.
fn in_flight_array_at(
    local: &Path,
    name: &str,
    fetch: tiledb_codec::raw::storage::object::FetchOptions,
) -> (std::sync::Arc<InFlight>, tiledb_codec::Array) {
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&storage, local, &root.join(name));
    // No tiles kept between reads: these tests count each read's requests.
    let mut fetch = fetch;
    fetch.tile_cache = 0;
    storage.set_fetch_options(fetch);
    let array = tiledb_codec::Array::open_with(
        root.join(name),
        tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
    )
    .unwrap();
    (store, array)
}

/// Pending once (waking itself), then ready: lets other futures run.
async fn yield_once() {
    let mut done = false;
    futures::future::poll_fn(|cx| {
        if done {
            std::task::Poll::Ready(())
        } else {
            done = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await
}

/// `FetchOptions::concurrency` bounds the GETs in flight: a read whose
/// tiles are fetched one request each (merging off) never has more than
/// the bound at once, and reaches it; and a larger bound lets more run.
#[test]
fn the_concurrency_option_bounds_requests_in_flight() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-in-flight");
    let local = multi_tile_array(&tmp.0);
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    for bound in [1usize, 3, 6] {
        let (store, array) = in_flight_array(&local, {
            let mut lit = FetchOptions::default();
            lit.max_request = 0;
            lit.concurrency = bound;
            lit
        });
        store.most.store(0, SeqCst);
        let got = array.reader().read().unwrap();
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want.column::<f64>("v").unwrap()
        );
        let (most, gets) = (store.most.load(SeqCst), store.gets.load(SeqCst));
        assert!(gets > 3 * 64, "{gets} GETs");
        assert_eq!(most, bound, "most GETs in flight with a bound of {bound}");
    }
}

/// A server whose ranged answers carry more bytes than the range they
/// announce: the read is an error naming the object, not a buffer grown
/// with whatever comes.
#[test]
fn an_answer_longer_than_its_range_is_refused() {
    use std::sync::atomic::Ordering::SeqCst;
    let (tmp, streamed) = (
        write_support::TempDir::new("s3-long-answer"),
        write_support::TempDir::new("s3-long-answer-streamed"),
    );
    // Tiles fetched then decoded, and tiles streamed.
    for local in [multi_tile_array(&tmp.0), side_by_side_array(&streamed.0)] {
        let (store, array) = in_flight_array(&local, Default::default());
        store.pad.store(1000, SeqCst);
        let err = array.reader().read().unwrap_err().to_string();
        assert!(err.contains("longer than"), "{err}");
        assert!(err.contains("tiles64"), "{err}");
    }
}

/// A 1-D dense array of 64,000 cells in 64 tiles, ZSTD `v` and unfiltered
/// `u`, written as two fragments side by side (cells 0-31,999 and
/// 32,000-63,999), no fragment over another.
fn side_by_side_array(dir: &Path) -> PathBuf {
    let array = tiles64(dir, "u", false);
    for half in [0i64, 32_000] {
        let v: Vec<f64> = (half..half + 32_000)
            .map(|i| (i as f64 * 0.37).sin())
            .collect();
        let u: Vec<i32> = (half..half + 32_000).map(|i| i as i32 * 3).collect();
        array
            .write()
            .range("d", half..=half + 31_999)
            .column("v", &v)
            .column("u", &u)
            .commit()
            .unwrap();
    }
    dir.join("tiles64")
}

/// The GETs one read of `array` makes, checking its cells against `want`.
fn gets_of_read(
    store: &InFlight,
    array: &tiledb_codec::Array,
    want: &tiledb_codec::Batch,
    what: &str,
) -> usize {
    use std::sync::atomic::Ordering::SeqCst;
    let before = store.gets.load(SeqCst);
    let got = array.reader().read().unwrap();
    assert_eq!(
        got.column::<f64>("v").unwrap(),
        want.column::<f64>("v").unwrap(),
        "{what}"
    );
    assert_eq!(
        got.column::<i32>("u").unwrap(),
        want.column::<i32>("u").unwrap(),
        "{what}"
    );
    store.gets.load(SeqCst) - before
}

/// Dense tiles that land whole in the result, from fragments side by side,
/// are streamed into their places (filtered or not): one request per data file however small
/// the read-ahead (which bounds only what a read holds of fetched tiles,
/// and a streamed tile is never held whole), with the local read's cells;
/// a box that cuts tiles too. A fragment written over others takes the
/// fetch-then-decode path instead, group by group, with the same cells.
#[test]
fn dense_tiles_stream_into_their_places() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-stream");
    let local = side_by_side_array(&tmp.0);
    let fetch = {
        let mut lit = FetchOptions::default();
        lit.read_ahead = 1;
        lit
    };
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    let (store, array) = in_flight_array(&local, fetch);
    // The first read also fetches the fragments' tile lists.
    gets_of_read(&store, &array, &want, "side by side");
    let streamed = gets_of_read(&store, &array, &want, "side by side, again");
    // Two attributes of two fragments, one file each: 4 requests.
    assert_eq!(streamed, 4, "GETs of a streamed read");

    // A box that cuts its first and last tiles: in groups of one tile.
    let boxed = |a: &Array| a.reader().range("d", 12_345..=40_321).read().unwrap();
    let (want_box, got_box) = (boxed(&Array::open(&local).unwrap()), boxed(&array));
    assert_eq!(
        got_box.column::<f64>("v").unwrap(),
        want_box.column::<f64>("v").unwrap()
    );
    assert_eq!(
        got_box.column::<i32>("u").unwrap(),
        want_box.column::<i32>("u").unwrap()
    );
    // With a read-ahead that holds the two cut tiles (of about 12 KB with
    // both attributes): they are fetched apart (4 GETs) while the 27 tiles
    // between them stream (one GET per attribute and fragment: 4); with
    // none, the cut tiles stream too, their cells spread over the result
    // as they come: 4 GETs in all.
    let box_gets = |read_ahead: u64| {
        let (store, array) = in_flight_array(&local, {
            let mut lit = FetchOptions::default();
            lit.read_ahead = read_ahead;
            lit
        });
        boxed(&array);
        let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
        let got = boxed(&array);
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want_box.column::<f64>("v").unwrap()
        );
        assert_eq!(
            got.column::<i32>("u").unwrap(),
            want_box.column::<i32>("u").unwrap()
        );
        store.gets.load(std::sync::atomic::Ordering::SeqCst) - before
    };
    let (some, none) = (box_gets(32 << 10), box_gets(1));
    assert!(some <= 8, "GETs of a box whose inner tiles stream: {some}");
    assert_eq!(none, 4, "GETs of a box streamed whole");

    // A third fragment over tiles 10-20: its cells win, and nothing is
    // streamed (in which order tiles arrive would decide who wins).
    let over: Vec<f64> = vec![-1.0; 11_000];
    let under: Vec<i32> = vec![-7; 11_000];
    Array::open(&local)
        .unwrap()
        .write()
        .range("d", 10_000..=20_999)
        .column("v", &over)
        .column("u", &under)
        .commit()
        .unwrap();
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.column::<i32>("u").unwrap()[15_000], -7);
    let (store, array) = in_flight_array(&local, fetch);
    gets_of_read(&store, &array, &want, "overlapping");
    let grouped = gets_of_read(&store, &array, &want, "overlapping, again");
    assert!(grouped >= 2 * 64, "GETs of an overlapping read: {grouped}");
}

/// A dense 2-D array (200 x 320 cells, tiles of 50 x 40) with a ZSTD
/// float attribute `v` and a nullable int attribute `n` (validity ZSTD
/// too), written by our writer in two fragments side by side: rows 0-99
/// and 100-199.
fn two_d_nullable_array(dir: &Path) -> PathBuf {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let dim = |name: &str, hi: i64, extent: i64| {
        DimensionBuilder::new(name, Datatype::Int64)
            .domain(0..=hi)
            .tile_extent(extent)
    };
    let schema = SchemaBuilder::dense()
        .dimension(dim("r", 199, 50))
        .dimension(dim("c", 319, 40))
        .attribute(
            AttributeBuilder::new("v", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .attribute(AttributeBuilder::new("n", Datatype::Int32).nullable())
        .validity_filters([Filter::Zstd { level: 3 }])
        .build()
        .unwrap();
    let array = Array::create(dir.join("grid"), &schema).unwrap();
    for rows in [0i64..=99, 100..=199] {
        let cells = rows.clone().flat_map(|r| (0..320i64).map(move |c| (r, c)));
        let v: Vec<f64> = cells
            .clone()
            .map(|(r, c)| (r * 320 + c) as f64 * 0.5)
            .collect();
        let n: Vec<Option<i32>> = cells
            .map(|(r, c)| ((r + c) % 5 != 0).then_some((r * 1000 + c) as i32))
            .collect();
        array
            .write()
            .range("r", rows)
            .range("c", 0..=319)
            .column("v", &v)
            .nullable("n", &n)
            .commit()
            .unwrap();
    }
    dir.join("grid")
}

/// Tiles of a 2-D array, which do not land whole in the result, and
/// validity tiles stream too when the fragments do not overlap: a full
/// read and a box that cuts tiles each fetch every file once (one GET per
/// file, six in all) however small the read-ahead, with the local read's
/// cells and validity. A fragment written over the others turns streaming
/// off (in which order tiles arrived would decide who wins): the read then
/// goes group by group, in more requests, with the same cells.
#[test]
fn tiles_of_any_shape_stream_with_their_validity() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, ReaderBuilder};
    let tmp = write_support::TempDir::new("s3-stream-2d");
    let local = two_d_nullable_array(&tmp.0);
    let fetch = {
        let mut lit = FetchOptions::default();
        lit.read_ahead = 1;
        lit
    };
    fn full(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r
    }
    fn boxed(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r.range("r", 30..=170).range("c", 15..=300)
    }
    let gets = |local: &Path, shape: fn(ReaderBuilder<'_>) -> ReaderBuilder<'_>, what: &str| {
        let want = shape(Array::open(local).unwrap().reader()).read().unwrap();
        let (store, array) = in_flight_array_at(local, "grid", fetch);
        // The first read also fetches the fragments' tile lists.
        shape(array.reader()).read().unwrap();
        let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
        let got = shape(array.reader()).read().unwrap();
        assert_eq!(got.len(), want.len(), "{what}");
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want.column::<f64>("v").unwrap(),
            "{what}"
        );
        assert_eq!(
            got.nullable::<i32>("n").unwrap(),
            want.nullable::<i32>("n").unwrap(),
            "{what}"
        );
        store.gets.load(std::sync::atomic::Ordering::SeqCst) - before
    };
    assert_eq!(gets(&local, full, "full read"), 6, "GETs of a full read");
    assert_eq!(gets(&local, boxed, "box"), 6, "GETs of a box");
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.len(), 200 * 320);
    assert!(want.validity("n").unwrap().iter().any(|v| !v));

    // Over rows 40-60 and columns 10-50: grouped, in more requests.
    let cells = 21 * 41;
    Array::open(&local)
        .unwrap()
        .write()
        .range("r", 40..=60)
        .range("c", 10..=50)
        .column("v", &vec![-1.0f64; cells])
        .nullable("n", &vec![None::<i32>; cells])
        .commit()
        .unwrap();
    let over = gets(&local, full, "overlapping");
    assert!(over > 6, "GETs of an overlapping read: {over}");
    let got = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(got.column::<f64>("v").unwrap()[50 * 320 + 20], -1.0);
}

/// Var-sized dense cells from an object store: with a read-ahead of one
/// byte each row of tiles is its own group (its tiles fetched while the
/// row before is set, then let go), in more requests than with the default
/// read-ahead; both give the local read's strings, nulls included, over
/// overlapping fragments, full and boxed.
#[test]
fn var_sized_dense_cells_come_group_by_group() {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, ReaderBuilder, SchemaBuilder};
    let tmp = write_support::TempDir::new("s3-var-dense");
    let dim = |name: &str, hi: i64, extent: i64| {
        DimensionBuilder::new(name, Datatype::Int64)
            .domain(0..=hi)
            .tile_extent(extent)
    };
    let schema = SchemaBuilder::dense()
        .dimension(dim("r", 119, 20))
        .dimension(dim("c", 59, 30))
        .attribute(
            AttributeBuilder::new("s", Datatype::StringUtf8)
                .var()
                .nullable()
                .filters([Filter::Zstd { level: 3 }]),
        )
        .build()
        .unwrap();
    let local = tmp.0.join("strings");
    let array = Array::create(&local, &schema).unwrap();
    let write =
        |rows: std::ops::RangeInclusive<i64>, cols: std::ops::RangeInclusive<i64>, tag: &str| {
            let cells: Vec<Option<String>> = rows
                .clone()
                .flat_map(|r| cols.clone().map(move |c| (r, c)))
                .map(|(r, c)| {
                    ((r * 7 + c) % 9 != 0)
                        .then(|| format!("{tag}{}", "x".repeat(((r + c) % 13) as usize)))
                })
                .collect();
            array
                .write()
                .range("r", rows)
                .range("c", cols)
                .nullable_strings("s", &cells)
                .commit()
                .unwrap();
        };
    write(0..=59, 0..=59, "a");
    write(60..=119, 0..=59, "b");
    // Over both: rows 50..70, columns 10..40.
    write(50..=70, 10..=40, "c");
    fn full(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r
    }
    fn boxed(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r.range("r", 15..=100).range("c", 5..=44)
    }
    let mut requests = Vec::new();
    for ahead in [1, FetchOptions::default().read_ahead] {
        let fetch = {
            let mut lit = FetchOptions::default();
            lit.read_ahead = ahead;
            lit
        };
        let (store, array) = in_flight_array_at(&local, "strings", fetch);
        array.reader().read().unwrap();
        let mut gets = 0;
        type Shape = fn(ReaderBuilder<'_>) -> ReaderBuilder<'_>;
        let shapes: [(Shape, &str); 2] = [(full, "full"), (boxed, "box")];
        for (shape, what) in shapes {
            let want = shape(Array::open(&local).unwrap().reader()).read().unwrap();
            let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
            let got = shape(array.reader()).read().unwrap();
            gets += store.gets.load(std::sync::atomic::Ordering::SeqCst) - before;
            let (g, w) = (
                got.nullable_strings("s").unwrap(),
                want.nullable_strings("s").unwrap(),
            );
            assert_eq!(g, w, "{what}, read-ahead {ahead}");
            assert!(g.contains(&None) && g.iter().any(|s| s.is_some_and(|s| s.starts_with('c'))));
        }
        requests.push(gets);
    }
    assert!(
        requests[0] > requests[1],
        "GETs with a read-ahead of 1 byte and by default: {requests:?}"
    );
}

/// A data tile whose chunk count cannot be, read from an object store:
/// a streamed read is an error naming the data file, the offset, the table
/// and the field, not a panic.
#[test]
fn a_damaged_streamed_tile_is_a_typed_error() {
    let tmp = write_support::TempDir::new("s3-stream-damaged");
    let local = side_by_side_array(&tmp.0);
    // The second tile of the newest fragment's `u` (a1.tdb): 1,000 cells
    // of 4 bytes in one chunk, so 8 + 12 + 4,000 bytes a tile.
    let mut frags: Vec<PathBuf> = std::fs::read_dir(local.join("__fragments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    frags.sort();
    let file = frags[1].join("a1.tdb");
    let mut bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes.len(), 32 * 4020, "{}", file.display());
    bytes[4020..4028].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (_, array) = in_flight_array(&local, Default::default());
    let err = array.reader().read().unwrap_err().to_string();
    for part in ["a1.tdb", "4020", "Tile", "num_chunks", "cannot fit"] {
        assert!(err.contains(part), "{part} in: {err}");
    }
}

/// One `ObjectStorage` kept across opens, as a service keeps its client:
/// each open lists the array afresh, so it sees a fragment committed since
/// through another client, and fetches the metadata only of that fragment
/// (what it fetched before is kept, as the engine's VFS keeps it); an
/// object whose size changed is fetched again, and with nothing kept every
/// open fetches every fragment's metadata.
#[test]
fn a_storage_kept_across_opens_sees_new_fragments_and_keeps_their_metadata() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-reopen");
    let local = side_by_side_array(&tmp.0);
    let fragments = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(local.join("__fragments"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&storage, &local, &root.join("tiles64"));
    let open = || {
        Array::open_with(
            root.join("tiles64"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
    };
    let got = || store.got.lock().unwrap().clone();
    let metadata = |gets: &[String]| -> Vec<String> {
        gets.iter()
            .filter(|g| g.ends_with("__fragment_metadata.tdb") || g.contains("/__schema/"))
            .cloned()
            .collect()
    };
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    gets_of_read(&store, &open().unwrap(), &want, "first open");
    let first = metadata(&got());
    assert!(first.len() >= 3, "two fragments and a schema: {first:?}");
    let fetched_before = got().len();
    assert_eq!(
        gets_of_read(&store, &open().unwrap(), &want, "second open"),
        4,
        "the data files only"
    );
    assert!(metadata(&got()[fetched_before..]).is_empty());

    // A fragment over tiles 10-20, uploaded by another client.
    let old = fragments();
    Array::open(&local)
        .unwrap()
        .write()
        .range("d", 10_000..=20_999)
        .column("v", &vec![-1.0f64; 11_000])
        .column("u", &vec![-7i32; 11_000])
        .commit()
        .unwrap();
    let new: Vec<String> = fragments()
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    assert_eq!(new.len(), 1);
    let (other, other_root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&other, &local, &other_root.join("tiles64"));
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.column::<i32>("u").unwrap()[15_000], -7);
    let fetched_before = got().len();
    gets_of_read(&store, &open().unwrap(), &want, "after a commit elsewhere");
    let since = metadata(&got()[fetched_before..]);
    assert!(!since.is_empty());
    assert!(
        since.iter().all(|g| g.contains(&new[0])),
        "only the new fragment's metadata: {since:?}"
    );

    // An object that changed size is not taken from what was kept.
    let changed = format!("tiles64/__fragments/{}/__fragment_metadata.tdb", old[0]);
    let mut bytes = std::fs::read(
        local
            .join("__fragments")
            .join(&old[0])
            .join("__fragment_metadata.tdb"),
    )
    .unwrap();
    bytes.extend_from_slice(&[0; 16]);
    futures::executor::block_on(object_store::ObjectStoreExt::put(
        &store.inner,
        &object_store::path::Path::from(changed.as_str()),
        bytes.into(),
    ))
    .unwrap();
    let fetched_before = got().len();
    let _ = open().and_then(|a| a.reader().read());
    assert!(
        got()[fetched_before..].iter().any(|g| g == &changed),
        "{changed} fetched again"
    );

    // Nothing kept: every fragment's metadata is fetched again.
    let fresh = write_support::TempDir::new("s3-reopen-fresh");
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    storage.set_fetch_options({
        let mut lit = FetchOptions::default();
        lit.metadata_cache = 0;
        lit
    });
    let local = side_by_side_array(&fresh.0);
    upload(&storage, &local, &root.join("tiles64"));
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    let array = || {
        Array::open_with(
            root.join("tiles64"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
        .unwrap()
    };
    gets_of_read(&store, &array(), &want, "nothing kept");
    let fetched_before = store.got.lock().unwrap().len();
    gets_of_read(&store, &array(), &want, "nothing kept, again");
    let again = metadata(&store.got.lock().unwrap()[fetched_before..]);
    assert!(again.len() >= 3, "{again:?}");
}

/// A box of a sparse array of four fragments, read from an object store:
/// the tiles the box picks of every fragment (each field's) are fetched in
/// one round, more requests in flight at once than one fragment has files,
/// and the cells are the local read's. With a read-ahead too small for
/// them all, fragment by fragment as before, with the same cells.
#[test]
fn a_sparse_box_fetches_the_tiles_of_every_fragment_at_once() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let tmp = write_support::TempDir::new("s3-sparse-box");
    let dim = |n: &str| {
        DimensionBuilder::new(n, Datatype::Int64)
            .domain(0..=999)
            .tile_extent(100)
    };
    let schema = SchemaBuilder::sparse()
        .dimension(dim("x"))
        .dimension(dim("y"))
        .attribute(
            AttributeBuilder::new("a", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .capacity(500)
        .build()
        .unwrap();
    let local = tmp.0.join("sparse");
    let array = Array::create(&local, &schema).unwrap();
    for f in 0..4i64 {
        let cells: Vec<(i64, i64)> = (0..4_000i64)
            // Distinct: i mod 1000 gives x, i / 1000 the band of y.
            .map(|i| {
                let x = (i * 37 + f * 11) % 1000;
                (x, i / 1000 * 250 + (i * 7 + f * 29) % 250)
            })
            .collect();
        let x: Vec<i64> = cells.iter().map(|c| c.0).collect();
        let y: Vec<i64> = cells.iter().map(|c| c.1).collect();
        let a: Vec<f64> = (0..4_000).map(|i| (f * 4_000 + i) as f64).collect();
        array
            .write()
            .column("x", &x)
            .column("y", &y)
            .column("a", &a)
            .commit()
            .unwrap();
    }
    let boxed = |a: &Array| {
        a.reader()
            .range("x", 250..=499)
            .range("y", 300..=649)
            .read()
            .unwrap()
    };
    let want = boxed(&Array::open(&local).unwrap());
    assert!(want.len() > 100, "{} cells", want.len());
    for (ahead, together) in [(FetchOptions::default().read_ahead, true), (1, false)] {
        let store = std::sync::Arc::new(InFlight::new());
        let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
        upload(&storage, &local, &root.join("sparse"));
        storage.set_fetch_options({
            let mut lit = FetchOptions::default();
            lit.read_ahead = ahead;
            lit
        });
        let array = Array::open_with(
            root.join("sparse"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
        .unwrap();
        store.most.store(0, SeqCst);
        let got = boxed(&array);
        for c in ["x", "y"] {
            assert_eq!(
                got.column::<i64>(c).unwrap(),
                want.column::<i64>(c).unwrap()
            );
        }
        assert_eq!(
            got.column::<f64>("a").unwrap(),
            want.column::<f64>("a").unwrap()
        );
        let most = store.most.load(SeqCst);
        // x, y and a: three files a fragment.
        if together {
            assert!(most > 3, "{most} GETs in flight at most");
        } else {
            assert!(most <= 3, "{most} GETs in flight at most, read-ahead 1");
        }
    }
}

/// Small tiles are kept between reads (`FetchOptions::tile_cache`): a
/// sparse array read again through the same storage fetches no tile it
/// fetched before, and returns the same cells; with the cache off, or
/// with tiles longer than `tile_cache_range`, each read fetches its tiles
/// again.
#[test]
fn small_tiles_are_kept_between_reads() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let fixture = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let want = Array::open(&fixture).unwrap().reader().read().unwrap();
    let gets_of_two_reads = |tile_cache: u64, tile_cache_range: u64| {
        let store = std::sync::Arc::new(InFlight::new());
        let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
        upload(&storage, &fixture, &root.join("a"));
        let mut fetch = FetchOptions::default();
        fetch.tile_cache = tile_cache;
        fetch.tile_cache_range = tile_cache_range;
        storage.set_fetch_options(fetch);
        let mut gets = Vec::new();
        for _ in 0..2 {
            let array = Array::open_with(
                root.join("a"),
                tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
            )
            .unwrap();
            let before = store.gets.load(SeqCst);
            let got = array.reader().read().unwrap();
            gets.push(store.gets.load(SeqCst) - before);
            assert_eq!(
                format!("{got:?}"),
                format!("{want:?}"),
                "tile cache {tile_cache}"
            );
            assert_eq!(
                got.column::<i64>("a").unwrap(),
                want.column::<i64>("a").unwrap()
            );
        }
        gets
    };
    let d = FetchOptions::default();
    let kept = gets_of_two_reads(d.tile_cache, d.tile_cache_range);
    let off = gets_of_two_reads(0, d.tile_cache_range);
    // The fixture's tiles are a few bytes each: none is kept at 1 byte.
    let too_long = gets_of_two_reads(d.tile_cache, 1);
    assert_eq!(too_long, off, "no tile is short enough to keep");
    assert!(kept[0] > 0, "the first read fetches its tiles: {kept:?}");
    assert_eq!(kept[1], 0, "the second read fetches nothing: {kept:?}");
    assert!(
        off[1] > 0,
        "with no cache, the second read fetches its tiles: {off:?}"
    );
    assert_eq!(
        off[0], kept[0],
        "the first reads fetch alike: {kept:?} {off:?}"
    );
}
