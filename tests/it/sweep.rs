//! Damage sweep: every file of the fixture arrays truncated, bit-flipped,
//! zeroed in part and deleted, one damage at a time; after each, `inspect`,
//! a full read and `verify` must return (an answer or an error) without
//! panicking and within a time bound. The file is restored after each
//! damage.
//!
//! Sampled to stay fast in debug builds: the fixtures of formats 16 and 22
//! (every kind of file the others have: schemas, fragment metadata, data
//! files, commit markers, delete commits, consolidated commits, vacuum and
//! consolidated fragment metadata files, array metadata, enumerations,
//! dimension labels); groups and encrypted arrays are skipped. Data files
//! (`a*.tdb`, `d*.tdb`, `t.tdb`), the bulk of the files and the simplest to
//! decode, get every third damage; the large fixtures a sample (see
//! `SAMPLE_ABOVE`). `SWEEP_TIMES=1` prints the time of every case.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tiledb_codec::raw::format::table;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// Formats swept (the fixture folders `tests/fixtures/v<N>`).
const VERSIONS: &[&str] = &["v16", "v22"];

/// How long the three calls may take on one damaged array.
const TIME_BOUND: Duration = Duration::from_secs(10);

/// Fixtures larger than this get a sample of their damages (reading them
/// takes long: tens of thousands of cells): one in `bytes / 6 KiB`.
const SAMPLE_ABOVE: u64 = 24 << 10;

/// The limit on what a filter may restore from one chunk in the
/// `filter_pipeline` fuzz target (fuzz/fuzz_targets/filter_pipeline.rs).
const FUZZ_CHUNK_LIMIT: u64 = 16 << 20;

fn opts() -> ReadOptions {
    ReadOptions::default().with_max_tile_bytes(64 << 20)
}

/// One damage done to a file.
#[derive(Debug, Clone)]
enum Damage {
    Truncate(usize),
    FlipBit { at: usize, bit: u8 },
    Zero { from: usize, len: usize },
    Delete,
}

impl Damage {
    /// The file's bytes after the damage (`None`: the file is deleted).
    fn apply(&self, original: &[u8]) -> Option<Vec<u8>> {
        let mut b = original.to_vec();
        match *self {
            Damage::Truncate(n) => b.truncate(n),
            Damage::FlipBit { at, bit } => b[at] ^= 1 << bit,
            Damage::Zero { from, len } => b[from..from + len].fill(0),
            Damage::Delete => return None,
        }
        Some(b)
    }
}

/// A small deterministic hash, to spread bit flips over a file.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn damages(rel: &Path, len: usize) -> Vec<Damage> {
    let mut out = Vec::new();
    let mut cuts = vec![0, 8, len / 2, len.saturating_sub(1)];
    cuts.sort_unstable();
    cuts.dedup();
    out.extend(cuts.into_iter().filter(|c| *c < len).map(Damage::Truncate));
    if len > 0 {
        // Header fields a generic tile starts with (persisted size, its
        // high byte, tile size), a footer's last bytes (its length), and
        // two positions spread by the name.
        let seed = rel
            .to_string_lossy()
            .bytes()
            .fold(0u64, |h, b| mix(h ^ u64::from(b)));
        let mut at: Vec<(usize, u8)> = vec![
            (5, 4),
            (11, 7),
            (19, 6),
            (len - 1, 1),
            (len.saturating_sub(8), 3),
        ];
        for k in 0..2 {
            let h = mix(seed.wrapping_add(k));
            at.push(((h % len as u64) as usize, (h >> 32) as u8 % 8));
        }
        at.retain(|(a, _)| *a < len);
        at.sort_unstable();
        at.dedup();
        out.extend(at.into_iter().map(|(at, bit)| Damage::FlipBit { at, bit }));
        let from = len / 4;
        out.push(Damage::Zero {
            from,
            len: (len / 4).clamp(1, 64).min(len - from),
        });
    }
    out.push(Damage::Delete);
    let name = rel.file_name().unwrap_or_default().to_string_lossy();
    let data_file = name.ends_with(".tdb")
        && !name.starts_with("__")
        && (name.starts_with('a') || name.starts_with('d') || name.starts_with('t'));
    if data_file {
        out = out.into_iter().step_by(3).collect();
    }
    out
}

/// The array fixtures of the swept formats, as (id, path).
fn fixtures() -> Vec<(String, PathBuf)> {
    let root = crate::common::root().join("tests/fixtures");
    let mut out = Vec::new();
    for v in VERSIONS {
        let text = std::fs::read_to_string(root.join(v).join("MANIFEST.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        for e in manifest.as_array().expect("a manifest is a list") {
            let name = e["name"].as_str().unwrap();
            let path = root.join(v).join(name);
            // A fixture the manifest lists may not be generated yet.
            if e["kind"] == "group" || !e["encrypted_key"].is_null() || !path.is_dir() {
                continue;
            }
            out.push((format!("{v}/{name}"), path));
        }
    }
    out
}

fn files_below(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

fn copy_array(from: &Path, to: &Path) {
    for rel in files_below(from) {
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&rel), dest).unwrap();
    }
}

/// Where and why the last panic of this thread happened.
#[derive(Debug, Clone)]
struct PanicInfo {
    file: String,
    line: u32,
    message: String,
}

thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<PanicInfo>> = const { std::cell::RefCell::new(None) };
    /// Whether this thread runs damaged arrays (its panics are recorded).
    static SWEEPING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Records the panics of sweeping threads instead of printing them (the
/// sweep reports them); other threads' panics print as usual.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !SWEEPING.with(|s| s.get()) {
                return previous(info);
            }
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let (file, line) = info
                .location()
                .map_or((String::new(), 0), |l| (l.file().to_string(), l.line()));
            LAST_PANIC.with(|p| {
                *p.borrow_mut() = Some(PanicInfo {
                    file,
                    line,
                    message,
                })
            });
        }));
    });
}

/// The outcome of one damaged array.
enum Outcome {
    Returned,
    Panicked(&'static str, PanicInfo),
}

/// Runs inspect, read and verify on `root`, each under `catch_unwind`;
/// the first panic is the outcome.
fn exercise(root: &Path) -> Outcome {
    let o = opts();
    let calls: [(&'static str, &dyn Fn()); 3] = [
        ("inspect", &|| {
            let _ = tiledb_codec_cli::inspect::inspect_json(root, &o);
        }),
        ("read", &|| {
            let _ = ArrayReader::open(root, &o).and_then(|r| r.read(&Query::default()));
        }),
        ("verify", &|| {
            let _ = tiledb_codec_cli::verify::verify(root, &o);
        }),
    ];
    for (name, call) in calls {
        if catch_unwind(AssertUnwindSafe(call)).is_err() {
            let info = LAST_PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or(PanicInfo {
                    file: String::new(),
                    line: 0,
                    message: "(no panic information)".into(),
                });
            return Outcome::Panicked(name, info);
        }
    }
    Outcome::Returned
}

#[derive(Default)]
struct Tally {
    cases: usize,
    /// Panic location -> (count, first case).
    panics: BTreeMap<String, (usize, String)>,
    hangs: Vec<String>,
}

#[test]
fn damaged_files_never_panic_or_hang() {
    install_panic_hook();
    let started = Instant::now();
    let tmp = crate::common::temp_root().join(format!("tiledb-codec-sweep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let fixtures = fixtures();
    assert!(!fixtures.is_empty());
    'fixtures: for (id, src) in &fixtures {
        let root = tmp.join(id);
        copy_array(src, &root);
        let files = files_below(&root);
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(root.join(f)).unwrap().len())
            .sum();
        let stride = if bytes > SAMPLE_ABOVE {
            bytes.div_ceil(6 << 10)
        } else {
            1
        };
        let mut k = 0u64;
        for rel in files {
            let path = root.join(&rel);
            let original = std::fs::read(&path).unwrap();
            for damage in damages(&rel, original.len()) {
                k += 1;
                if !(k - 1).is_multiple_of(stride) {
                    continue;
                }
                match damage.apply(&original) {
                    Some(bytes) => std::fs::write(&path, bytes).unwrap(),
                    None => std::fs::remove_file(&path).unwrap(),
                }
                let case = format!("{id}: {} {damage:?}", rel.display());
                let (tx, rx) = mpsc::channel();
                let r = root.clone();
                std::thread::spawn(move || {
                    SWEEPING.with(|s| s.set(true));
                    let _ = tx.send(exercise(&r));
                });
                let t0 = Instant::now();
                let got = rx.recv_timeout(TIME_BOUND);
                if std::env::var_os("SWEEP_TIMES").is_some() {
                    eprintln!("TIME {:.4} {case}", t0.elapsed().as_secs_f64());
                }
                let mut t = tally.lock().unwrap();
                t.cases += 1;
                match got {
                    Ok(Outcome::Returned) => {}
                    Ok(Outcome::Panicked(call, p)) => {
                        let e = t
                            .panics
                            .entry(format!("{}:{}", p.file, p.line))
                            .or_insert((0, format!("{case} ({call}): {}", p.message)));
                        e.0 += 1;
                    }
                    Err(_) => {
                        // The calls still run on the damaged file: stop here.
                        t.hangs.push(case);
                        break 'fixtures;
                    }
                }
                drop(t);
                std::fs::write(&path, &original).unwrap();
            }
        }
        let _ = std::fs::remove_dir_all(&root);
    }
    let t = tally.lock().unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "sweep: {} damaged arrays of {} fixtures in {:.1} s",
        t.cases,
        fixtures.len(),
        started.elapsed().as_secs_f64()
    );
    let mut report = String::new();
    for (at, (n, first)) in &t.panics {
        report.push_str(&format!("\n  panic at {at}\n    {n} cases, first: {first}"));
    }
    for case in &t.hangs {
        report.push_str(&format!("\n  no answer within {TIME_BOUND:?}: {case}"));
    }
    assert!(
        report.is_empty(),
        "damaged files made the crate panic or hang:{report}"
    );
}

// ---- Regression tests: damage the sweep or the fuzzers found ----------

/// A scratch copy of a fixture array, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(fixture: &str, tag: &str) -> Scratch {
        let src = crate::common::root().join("tests/fixtures").join(fixture);
        let dest = crate::common::temp_root().join(format!(
            "tiledb-codec-regression-{}-{tag}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dest);
        copy_array(&src, &dest);
        Scratch(dest)
    }

    /// Applies `damage` to the file `rel` of the array.
    fn damage(&self, rel: &str, damage: Damage) -> &Self {
        let path = self.0.join(rel);
        let original = std::fs::read(&path).unwrap();
        match damage.apply(&original) {
            Some(b) => std::fs::write(&path, b).unwrap(),
            None => std::fs::remove_file(&path).unwrap(),
        }
        self
    }

    /// Overwrites bytes of the footer of the oldest fragment (in
    /// `__fragments`), at `at` bytes from the footer's start.
    fn patch_footer(&self, at: usize, bytes: &[u8]) -> &Self {
        let mut frags: Vec<PathBuf> = std::fs::read_dir(self.0.join("__fragments"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        frags.sort();
        let path = frags[0].join("__fragment_metadata.tdb");
        let mut b = std::fs::read(&path).unwrap();
        let n = b.len();
        let footer_len = u64::from_le_bytes(b[n - 8..].try_into().unwrap()) as usize;
        let start = n - 8 - footer_len + at;
        b[start..start + bytes.len()].copy_from_slice(bytes);
        std::fs::write(&path, b).unwrap();
        self
    }

    /// Inspect, read and verify: each must return, the read with an error.
    fn read_fails(&self) -> tiledb_codec::raw::error::Error {
        let o = opts();
        let _ = tiledb_codec_cli::inspect::inspect_json(&self.0, &o);
        let _ = tiledb_codec_cli::verify::verify(&self.0, &o);
        match ArrayReader::open(&self.0, &o).and_then(|r| r.read(&Query::default())) {
            Ok(cells) => panic!("the damaged array read as {} cells", cells.len),
            Err(e) => e,
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Var-sized offsets out of order (a flipped bit in an offsets tile) made
/// `FieldData::cell` slice backwards (src/read/field.rs:125) from the dense
/// reader. Fixed in src/read/cells.rs (`read_checked`).
#[test]
fn regression_var_offsets_out_of_order() {
    let e = Scratch::new("v16/dense_var_nullable", "offsets")
        .damage(
            "__fragments/__1_1_5bd1e29ce4ce4f3ca5cef634b5173cc8_16/a0.tdb",
            Damage::FlipBit { at: 48, bit: 3 },
        )
        .read_fails();
    assert!(e.to_string().contains("Tile.s: cell"), "{e}");
}

/// Var-sized offsets past the var data (its tile zeroed in part), from the
/// sparse reader. Fixed in src/read/cells.rs (`read_checked`).
#[test]
fn regression_var_offsets_past_the_data() {
    let e = Scratch::new("v16/nullable_var_sparse", "var-data")
        .damage(
            "__fragments/__1_1_365ddee1ed7d4ca1add5afb4f9ff9335_16/a4_var.tdb",
            Damage::Zero { from: 7, len: 7 },
        )
        .read_fails();
    assert!(e.to_string().contains("Tile"), "{e}");
}

/// An attribute with fewer cells than the first dimension (its tile zeroed
/// in part) made the sparse reader slice past it (src/read/field.rs:127).
/// Fixed in src/read/cells.rs (`read_checked`).
#[test]
fn regression_attribute_with_fewer_cells() {
    let e = Scratch::new("v16/sparse_int_2d", "fewer-cells")
        .damage(
            "__fragments/__1_1_4ba1d0303f0b4be5b40457bfc50abd71_16/a0.tdb",
            Damage::Zero { from: 35, len: 35 },
        )
        .read_fails();
    assert!(e.to_string().contains("Tile"), "{e}");
}

/// Footer offsets of the non-empty domain of a v22 fragment of the fixture
/// arrays: version (4), schema name size (8), name (62), dense, null flag.
const NED_AT: usize = 4 + 8 + 62 + 2;

/// A dense non-empty domain whose cell count overflows i128 (two int64
/// dimensions over their whole range) panicked counting the region's cells
/// (src/read/cells.rs `read_dense`). Fixed: checked, and refused.
#[test]
fn regression_dense_region_overflow() {
    let mut ned = Vec::new();
    for _ in 0..2 {
        ned.extend_from_slice(&i64::MIN.to_le_bytes());
        ned.extend_from_slice(&i64::MAX.to_le_bytes());
    }
    let e = Scratch::new("v22/dense_int_2d", "dense-overflow")
        .patch_footer(NED_AT, &ned)
        .read_fails();
    assert!(e.to_string().contains("exceeds the limit"), "{e}");
}

/// A dense non-empty domain of 16 Mi cells (one flipped bit) made the reader
/// allocate a result column of an `Option<Vec<u8>>` per cell and field, a
/// gigabyte, before finding the fragment holds 20 cells: the limit counted
/// cells, not bytes. Fixed in src/read/cells.rs (`read_dense`).
#[test]
fn regression_dense_region_allocation() {
    let e = Scratch::new("v22/dense_int_1d", "dense-alloc")
        .patch_footer(NED_AT + 4, &(1i32 << 24).to_le_bytes())
        .read_fails();
    assert!(e.to_string().contains("exceeds the limit"), "{e}");
}

/// A sparse fragment's tile count near u64::MAX (in its footer) overflowed
/// counting its cells for `inspect` (src/array/fragment.rs `cell_num`).
/// Fixed: checked; the count shows as null.
#[test]
fn regression_sparse_cell_count_overflow() {
    let s = Scratch::new("v22/sparse_int_2d", "cell-num");
    // Two int32 dimensions: the non-empty domain takes 16 bytes.
    s.patch_footer(NED_AT + 16, &u64::MAX.to_le_bytes());
    let v = tiledb_codec_cli::inspect::inspect_json(&s.0, &opts()).unwrap();
    assert_eq!(v["fragments"][0]["cell_num"], serde_json::Value::Null);
    assert!(matches!(exercise(&s.0), Outcome::Returned));
}

/// Live and peak heap bytes of this thread, for the allocation bounds of the
/// regression tests (allocations freed on another thread are not seen).
mod tracking {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    pub struct Tracking;

    thread_local! {
        static LIVE: Cell<isize> = const { Cell::new(0) };
        static PEAK: Cell<isize> = const { Cell::new(0) };
    }

    fn track(delta: isize) {
        let _ = LIVE.try_with(|live| {
            let v = live.get() + delta;
            live.set(v);
            let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
        });
    }

    // SAFETY: forwards to the system allocator; only counts.
    unsafe impl GlobalAlloc for Tracking {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, passed on.
            let p = unsafe { System.alloc(l) };
            if !p.is_null() {
                track(l.size() as isize);
            }
            p
        }
        unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
            // SAFETY: the caller's contract, passed on.
            let p = unsafe { System.alloc_zeroed(l) };
            if !p.is_null() {
                track(l.size() as isize);
            }
            p
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            // SAFETY: the caller's contract, passed on.
            unsafe { System.dealloc(p, l) };
            track(-(l.size() as isize));
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            // SAFETY: the caller's contract, passed on.
            let q = unsafe { System.realloc(p, l, new) };
            if !q.is_null() {
                track(new as isize - l.size() as isize);
            }
            q
        }
    }

    /// The most bytes `f` had allocated at once on this thread.
    pub fn peak_of(f: impl FnOnce()) -> usize {
        let start = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(start));
        f();
        (PEAK.with(Cell::get) - start).max(0) as usize
    }
}

#[global_allocator]
static ALLOCATOR: tracking::Tracking = tracking::Tracking;

/// A delete condition of 63 nested expression nodes, each declaring as many
/// children as there are bytes left, made every level reserve room for that
/// many nodes before reading one (src/format/rt.rs `list`): about 63 x 64 Ki
/// x the size of a node, half a gigabyte, from 64 KiB. Fixed: lists reserve
/// at most 64 KiB up front and grow as their elements decode.
#[test]
fn regression_nested_list_preallocation() {
    let mut b = Vec::new();
    for _ in 0..63 {
        b.push(0); // expression node
        b.push(0); // AND
        b.extend_from_slice(&60_000u64.to_le_bytes());
    }
    b.resize(64 << 10, 0);
    let peak = tracking::peak_of(|| {
        let r = tiledb_codec::raw::format::decode::<tiledb_codec::raw::format::ConditionNode>(
            &b,
            Path::new("bomb.del"),
            0,
            (0,),
        );
        assert!(r.is_err());
    });
    assert!(peak < 16 << 20, "decoding 64 KiB took {peak} bytes at once");
}

/// A version 4 schema (attributes have no fill value before version 6)
/// whose attribute cells take 1 GiB (cell_val_num 2^27 of int64) made the
/// dense reader allocate a zeroed fill value of that size before anything
/// else (src/read/cells.rs `read_dense`); 2^32 - 2 values would abort the
/// process. Fixed: cells larger than the tile limit are refused.
#[test]
fn regression_fill_value_of_huge_cells() {
    use tiledb_codec::raw::format::{
        encode, ArraySchema, Attribute, Datatype, Dimension, Domain, FilterPipeline,
    };
    let none = || {
        table!(FilterPipeline {
            max_chunk_size: 65536,
            num_filters: 0,
            filters: Vec::new(),
        })
    };
    let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let schema = table!(ArraySchema {
        array_version: 4,
        allows_dups: None,
        array_type: tiledb_codec::raw::format::ArrayType::Dense,
        tile_order: tiledb_codec::raw::format::Layout::RowMajor,
        cell_order: tiledb_codec::raw::format::Layout::RowMajor,
        capacity: 10000,
        coords_filters: none(),
        offsets_filters: none(),
        validity_filters: None,
        domain: table!(Domain {
            domain_datatype: Some(Datatype::Int32),
            num_dimensions: 1,
            dimensions: vec![table!(Dimension {
                name_length: 1,
                name: b"d".to_vec(),
                datatype: None,
                cell_val_num: None,
                filters: None,
                domain_size: None,
                domain: ints(&[1, 20]),
                null_tile_extent: 0,
                tile_extent: ints(&[5]),
            })],
        }),
        num_attributes: 1,
        attributes: vec![table!(Attribute {
            name_length: 1,
            name: b"a".to_vec(),
            datatype: Datatype::Int64,
            cell_val_num: 1 << 27,
            filters: none(),
            fill_value_size: None,
            fill_value: None,
            nullable: None,
            fill_value_validity: None,
            order: None,
            enumeration_name_length: None,
            enumeration_name: None,
        })],
        num_labels: None,
        labels: None,
        num_enumerations: None,
        enumerations: None,
        current_domain: None,
    });
    let root = crate::common::temp_root().join(format!(
        "tiledb-codec-regression-{}-huge-cells",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("__schema")).unwrap();
    std::fs::write(
        root.join("__schema/__1_1_0123456789abcdef0123456789abcdef"),
        tiledb_codec::raw::tile::write_generic_tile(&encode(&schema).unwrap(), 4),
    )
    .unwrap();
    let mut result = None;
    let peak = tracking::peak_of(|| {
        result = Some(ArrayReader::open(&root, &opts()).and_then(|r| r.read(&Query::default())));
    });
    let _ = std::fs::remove_dir_all(&root);
    let e = result.unwrap().expect_err("the read fails");
    assert!(e.to_string().contains("over the limit"), "{e}");
    assert!(peak < 16 << 20, "the read took {peak} bytes at once");
}

/// A schema whose attribute has a 4 MiB fill value made a dense read of 20
/// cells clone it into every cell, 80 MiB past the 64 MiB limit: the limit
/// counted cells, not their fill values (src/read/cells.rs `read_dense`).
/// Fixed: a cell counts as its fill value's bytes when they are more.
#[test]
fn regression_dense_fill_value_per_cell() {
    use tiledb_codec::raw::format::{decode_all, encode, ArraySchema};
    let s = Scratch::new("v22/dense_int_1d", "fill");
    let schema_file = files_below(&s.0.join("__schema"))[0].clone();
    let path = s.0.join("__schema").join(schema_file);
    let file = tiledb_codec::raw::storage::MappedFile::open(&path).unwrap();
    let tile = tiledb_codec::raw::tile::read_generic_tile(&file, 0, &opts()).unwrap();
    let mut schema: ArraySchema = decode_all(&tile.data, &path, 0, ()).unwrap();
    drop(tile);
    drop(file);
    schema.attributes[0].fill_value_size = Some(4 << 20);
    schema.attributes[0].fill_value = Some(vec![7; 4 << 20]);
    std::fs::write(
        &path,
        tiledb_codec::raw::tile::write_generic_tile(&encode(&schema).unwrap(), 22),
    )
    .unwrap();
    let mut result = None;
    let peak = tracking::peak_of(|| {
        result = Some(ArrayReader::open(&s.0, &opts()).and_then(|r| r.read(&Query::default())));
    });
    let e = result.unwrap().expect_err("the read fails");
    assert!(e.to_string().contains("exceeds the limit"), "{e}");
    assert!(peak < 32 << 20, "the read took {peak} bytes at once");
}

/// A newer schema adding an attribute with an 8 MiB fill value made a
/// sparse read clone it into each of the 12 cells of the fragments written
/// before it, 96 MiB past the 64 MiB limit (src/read/cells.rs
/// `read_sparse`). Fixed: the fill values of a column count against the
/// limit. (On the way: the sparse reader looked up a fragment's dimensions
/// in the newest schema, so with an added attribute it read the wrong
/// files; it now uses the schema the fragment names.)
#[test]
fn regression_sparse_fill_value_per_cell() {
    use tiledb_codec::raw::format::{decode_all, encode, ArraySchema};
    let s = Scratch::new("v22/sparse_int_2d", "sparse-fill");
    let schema_file = files_below(&s.0.join("__schema"))[0].clone();
    let path = s.0.join("__schema").join(schema_file);
    let file = tiledb_codec::raw::storage::MappedFile::open(&path).unwrap();
    let tile = tiledb_codec::raw::tile::read_generic_tile(&file, 0, &opts()).unwrap();
    let mut schema: ArraySchema = decode_all(&tile.data, &path, 0, ()).unwrap();
    drop(tile);
    drop(file);
    let mut z = schema.attributes[0].clone();
    z.name = b"z".to_vec();
    z.name_length = 1;
    z.fill_value_size = Some(8 << 20);
    z.fill_value = Some(vec![7; 8 << 20]);
    schema.attributes.push(z);
    schema.num_attributes += 1;
    std::fs::write(
        s.0.join("__schema/__9999999999999_9999999999999_0123456789abcdef0123456789abcdef"),
        tiledb_codec::raw::tile::write_generic_tile(&encode(&schema).unwrap(), 22),
    )
    .unwrap();
    let mut result = None;
    let peak = tracking::peak_of(|| {
        result = Some(ArrayReader::open(&s.0, &opts()).and_then(|r| r.read(&Query::default())));
    });
    let e = result.unwrap().expect_err("the read fails");
    assert!(e.to_string().contains("exceed the limit"), "{e}");
    assert!(peak < 48 << 20, "the read took {peak} bytes at once");
}

/// A newer schema adding an attribute named like a dimension ("c") made
/// the sparse reader take the attribute (int64) for the dimension (int32)
/// and slice coordinates 8 bytes at a time past their data
/// (src/read/field.rs:127 from src/read/cells.rs). Fixed: a dimension must
/// be found as a dimension.
#[test]
fn regression_attribute_named_like_a_dimension() {
    use tiledb_codec::raw::format::{decode_all, encode, ArraySchema};
    let s = Scratch::new("v22/sparse_int_2d", "dup-name");
    let schema_file = files_below(&s.0.join("__schema"))[0].clone();
    let path = s.0.join("__schema").join(schema_file);
    let file = tiledb_codec::raw::storage::MappedFile::open(&path).unwrap();
    let tile = tiledb_codec::raw::tile::read_generic_tile(&file, 0, &opts()).unwrap();
    let mut schema: ArraySchema = decode_all(&tile.data, &path, 0, ()).unwrap();
    drop(tile);
    drop(file);
    assert_eq!(schema.domain.dimensions[1].name, b"c");
    let mut c = schema.attributes[0].clone();
    c.name = b"c".to_vec();
    c.name_length = 1;
    schema.attributes.push(c);
    schema.num_attributes += 1;
    std::fs::write(
        s.0.join("__schema/__9999999999999_9999999999999_0123456789abcdef0123456789abcdef"),
        tiledb_codec::raw::tile::write_generic_tile(&encode(&schema).unwrap(), 22),
    )
    .unwrap();
    let e = s.read_fails();
    assert!(e.to_string().contains("an attribute's name"), "{e}");
}

// ---- Fuzzer findings and unbounded allocations, fixed ----------------

/// src/tile.rs `read_generic_tile`: `used - u64::from(header.
/// filter_pipeline_size)` overflowed (a panic in debug builds) when the
/// header declared a filter pipeline longer than the bytes the header took.
/// The 42 bytes: a generic tile header of version 22 whose filter pipeline
/// size is u32::MAX, then an empty pipeline. Fixed in src/tile.rs
/// (`checked_sub`); the fuzzer's input is
/// `tests/regressions/generic_tile-pipeline_size_underflow.bin`.
#[test]
fn regression_generic_tile_pipeline_size_underflow() {
    let mut b = Vec::new();
    b.extend_from_slice(&22u32.to_le_bytes()); // version
    b.extend_from_slice(&0u64.to_le_bytes()); // persisted size
    b.extend_from_slice(&0u64.to_le_bytes()); // tile size
    b.push(4); // datatype CHAR
    b.extend_from_slice(&1u64.to_le_bytes()); // cell size
    b.push(0); // no encryption
    b.extend_from_slice(&u32::MAX.to_le_bytes()); // filter pipeline size
    b.extend_from_slice(&65536u32.to_le_bytes()); // max chunk size
    b.extend_from_slice(&0u32.to_le_bytes()); // no filters
    let file = tiledb_codec::raw::storage::MappedFile::from_vec("known.tdb", b);
    assert!(tiledb_codec::raw::tile::read_generic_tile(&file, 0, &opts()).is_err());
}

/// src/filters/compress.rs `decompress`: `out.resize(start + original, 0)`
/// took a compressed part's original length from the chunk metadata
/// unchecked: one flipped bit (the high byte of the first part's length of
/// a ZSTD tile) made each read allocate and zero 2 GiB. Fixed: filters get
/// the tile limit in `FilterContext::max_output` and the parts' declared
/// lengths are checked against it before anything is allocated.
#[test]
fn regression_compressed_part_length_bounded() {
    let t = Instant::now();
    Scratch::new("v22/nullable_var_sparse", "zstd-part")
        .damage(
            "__fragments/__1_1_15eb3162ce968969353715845b76c168_22/a3.tdb",
            Damage::FlipBit { at: 31, bit: 7 },
        )
        .read_fails();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

use crate::fuzz_lib;

/// Inputs the fuzzers saved, in the target's input layout (see
/// `fuzz/fuzz_targets/<target>.rs`), named `<target>-<what>.bin`: each
/// must decode to an error without panicking or allocating more than
/// 64 MiB at once.
fn run_fuzzer_inputs(dir: &Path) {
    let fixtures = crate::common::root().join("tests/fixtures");
    for name in files_below(dir) {
        if name.components().count() > 1 {
            continue;
        }
        let bytes = std::fs::read(dir.join(&name)).unwrap();
        let name = name.to_string_lossy().into_owned();
        // The fixture copies an `array_open_export` input damages, made
        // before the measure.
        let arrays = name.starts_with("array_open_export-").then(|| {
            fuzz_lib::copy_open_fixtures(&fixtures, &crate::common::scratch("open-export"))
        });
        let peak = tracking::peak_of(|| {
            if let Some(arrays) = &arrays {
                fuzz_lib::open_export(arrays, &bytes);
            } else if name.starts_with("generic_tile-") {
                let file = tiledb_codec::raw::storage::MappedFile::from_vec(&name, bytes.clone());
                let _ = tiledb_codec::raw::tile::read_generic_tile(&file, 0, &opts());
            } else if name.starts_with("filter_pipeline-") {
                filter_pipeline_input(&bytes);
            } else {
                panic!("{name}: no runner for this target");
            }
        });
        assert!(peak < 64 << 20, "{name}: {peak} bytes at once");
    }
}

/// `tests/regressions/*.bin`: inputs of crashes that are fixed, among them
/// - `array_open_export-dimension_cell_val_num.bin`: `v16/dense_var_nullable`
///   with its schema replaced by one whose dimension holds 16,129 values
///   per cell (it was accepted; the export then sliced past the
///   coordinates it had built for one value per cell);
/// - `filter_pipeline-compress-part_original_length.bin`: a ZSTD part
///   declaring ~4 GiB (src/filters/compress.rs reserved it at once);
/// - `filter_pipeline-bit_width_reduction-input_length.bin`: chunk metadata
///   declaring an input length of 4 GiB - 1 (src/filters/bit_width_reduction.rs
///   reserved it at once).
#[test]
fn regression_fuzzer_inputs() {
    run_fuzzer_inputs(&crate::common::root().join("tests/regressions"));
}

/// Runs an input of the `filter_pipeline` fuzz target (same layout).
fn filter_pipeline_input(b: &[u8]) {
    use tiledb_codec::raw::format::{decode, Datatype, FilterPipeline};
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let version = u32::from(b[0]);
    let datatype = Datatype::ALL[usize::from(b[1]) % Datatype::ALL.len()];
    let (cell, flags) = (u64::from(u16_at(2)), b[4]);
    let rest = &b[9..];
    let (pipeline, rest) = rest.split_at(usize::from(u16_at(5)).min(rest.len()));
    let (metadata, data) = rest.split_at(usize::from(u16_at(7)).min(rest.len()));
    let Ok((p, _)) = decode::<FilterPipeline>(pipeline, Path::new("p"), 0, (version,)) else {
        return;
    };
    let Ok(mut p) = tiledb_codec::raw::filters::Pipeline::new(&p.filters, datatype, cell, version)
    else {
        return;
    };
    let key = *b"0123456789abcdeF0123456789abcdeF";
    if flags & 4 != 0 {
        match p.with_encryption(key) {
            Ok(e) => p = e,
            Err(_) => return,
        }
    } else if flags & 1 != 0 {
        p = p.with_key(Some(key));
    }
    let offsets = std::cell::RefCell::new(Vec::new());
    let _ = p.reverse_chunk_within(
        metadata,
        data,
        (flags & 2 != 0).then_some(&offsets),
        FUZZ_CHUNK_LIMIT,
    );
}
