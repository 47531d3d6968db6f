//! Object-store URLs on the command line: `s3://`, `gs://`, `az://`,
//! `http(s)://` and `file://` paths, configured from the environment the
//! standard way (`AWS_*`, `GOOGLE_*`, `AZURE_*`; `AWS_ENDPOINT_URL` and
//! `AWS_ALLOW_HTTP` for S3-compatible servers), and `--stats`.
//!
//! Reads go through the library's `ObjectStorage`. Writes (`import`,
//! `meta put|delete`) run the local writer in a staging folder holding the
//! array's small objects (schemas, metadata, commits), then upload the new
//! files: data first, then the schema of a new array, then the commit
//! markers (`__commits/`) last; nothing is renamed in the store.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use object_store::ObjectStore;
use tiledb_codec::raw::format::hierarchy;
use tiledb_codec::raw::read::ArrayReader;
use tiledb_codec::raw::storage::object::{is_url, ObjectStats, ObjectStorage};
use tiledb_codec::raw::storage::StorageRef;
use tiledb_codec::ReadOptions;

/// The stores opened by this run, for `--stats`.
static OPENED: Mutex<Vec<(String, Arc<ObjectStats>)>> = Mutex::new(Vec::new());

/// Whether `path` is an object-store URL.
pub fn url(path: &Path) -> Option<&str> {
    path.to_str().filter(|s| is_url(s))
}

/// The error of a command that does not take URLs yet.
pub fn refuse(command: &str, path: &Path) -> Result<(), String> {
    match url(path) {
        Some(u) => Err(format!(
            "{u}: {command} does not support object-store URLs yet (only local paths)"
        )),
        None => Ok(()),
    }
}

/// The request timeouts and retries of object stores
/// (`tiledb_codec::raw::storage::limits`), from `TILEDB_CODEC_TIMEOUT`,
/// `TILEDB_CODEC_CONNECT_TIMEOUT`, `TILEDB_CODEC_RETRY_MAX`,
/// `TILEDB_CODEC_RETRY_TIMEOUT`, `TILEDB_CODEC_RETRY_BACKOFF_INITIAL` and
/// `TILEDB_CODEC_RETRY_BACKOFF_MAX`, where set.
fn limits_from_env() -> Vec<(String, String)> {
    use tiledb_codec::raw::storage::limits::RETRY_KEYS;
    ["timeout", "connect_timeout"]
        .into_iter()
        .chain(RETRY_KEYS)
        .filter_map(|k| {
            let v = std::env::var(format!("TILEDB_CODEC_{}", k.to_ascii_uppercase())).ok()?;
            Some((k.to_string(), v))
        })
        .collect()
}

/// `$builder` with the timeouts and retries of `$limits`.
macro_rules! limited {
    ($builder:expr, $url:expr, $limits:expr) => {{
        use tiledb_codec::raw::storage::limits::{retry_config, RETRY_KEYS};
        let retry = retry_config($url, &$limits).map_err(|e| e.to_string())?;
        $limits
            .iter()
            .filter(|(k, _)| !RETRY_KEYS.contains(&k.as_str()))
            .fold($builder, |b, (k, v)| match k.parse() {
                Ok(key) => b.with_config(key, v.clone()),
                Err(_) => b,
            })
            .with_retry(retry)
    }};
}

/// The object store of `url`, configured from the environment.
fn store_from_env(url: &str) -> Result<Arc<dyn ObjectStore>, String> {
    use object_store::aws::AmazonS3Builder;
    use object_store::azure::MicrosoftAzureBuilder;
    use object_store::gcp::GoogleCloudStorageBuilder;
    use object_store::http::HttpBuilder;
    let scheme = url.split_once("://").map(|s| s.0).unwrap_or("");
    let err = |e: object_store::Error| format!("{url}: {e}");
    let limits = limits_from_env();
    let store: Arc<dyn ObjectStore> = match scheme.to_ascii_lowercase().as_str() {
        "s3" | "s3a" => Arc::new(
            limited!(AmazonS3Builder::from_env(), url, limits)
                .with_url(url)
                .build()
                .map_err(err)?,
        ),
        "gs" => Arc::new(
            limited!(GoogleCloudStorageBuilder::from_env(), url, limits)
                .with_url(url)
                .build()
                .map_err(err)?,
        ),
        "az" | "azure" | "abfs" => Arc::new(
            limited!(MicrosoftAzureBuilder::from_env(), url, limits)
                .with_url(url)
                .build()
                .map_err(err)?,
        ),
        "http" | "https" => {
            let parsed = url::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
            let base = &parsed[..url::Position::BeforePath];
            Arc::new(
                limited!(HttpBuilder::new(), url, limits)
                    .with_url(base)
                    .build()
                    .map_err(err)?,
            )
        }
        "file" => Arc::new(object_store::local::LocalFileSystem::new()),
        s => return Err(format!("{url}: no object store for the scheme {s:?}")),
    };
    Ok(store)
}

/// Opens the storage of `url` and remembers its counts for `--stats`.
fn open_counted(url: &str) -> Result<(Arc<ObjectStorage>, PathBuf), String> {
    let store = store_from_env(url)?;
    let parsed = url::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
    let base = base_of(&parsed);
    let storage = Arc::new(ObjectStorage::new(store, &base).map_err(|e| e.to_string())?);
    let path = storage.path_of(parsed.path().trim_matches('/'));
    OPENED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((url.to_string(), storage.stats()));
    Ok((storage, path))
}

fn base_of(url: &url::Url) -> String {
    if url.scheme() == "file" {
        "file://".to_string()
    } else {
        url[..url::Position::BeforePath].to_string()
    }
}

/// Opens the array at `path` (a local path or a URL) as of `range`.
pub fn reader(
    path: &Path,
    range: Option<(u64, u64)>,
    opts: &ReadOptions,
) -> Result<ArrayReader, String> {
    match url(path) {
        Some(u) => {
            let (storage, p) = open_counted(u)?;
            ArrayReader::open_in(StorageRef::new(storage), &p, range, opts)
                .map_err(|e| e.to_string())
        }
        None => ArrayReader::open_at(path, range, opts).map_err(|e| e.to_string()),
    }
}

/// Opens the array at `path` (a local path or a URL) with the facade.
#[cfg(feature = "datafusion")]
pub fn array(path: &Path, opts: tiledb_codec::OpenOptions) -> Result<tiledb_codec::Array, String> {
    use tiledb_codec::raw::OpenOptionsExt as _;
    let at = |e: tiledb_codec::Error| format!("{}: {e}", path.display());
    match url(path) {
        Some(u) => {
            let (storage, p) = open_counted(u)?;
            let opts = opts.with_storage(StorageRef::new(storage));
            tiledb_codec::Array::open_with(&p, opts).map_err(at)
        }
        None => tiledb_codec::Array::open_with(path, opts).map_err(at),
    }
}

/// The prefix of every staging folder's name.
const STAGING_PREFIX: &str = "tiledb-codec-staging-";
/// The file in a staging folder its process holds locked while it lives.
const STAGING_LOCK: &str = ".owner.lock";

/// A folder of its own under the system's temporary folder, removed on
/// drop. The process holds a lock on a file in it while it lives; the
/// operating system releases the lock when the process ends, killed or not,
/// so a later command knows the folders left by killed ones and removes
/// them ([`Staging::new`]).
pub struct Staging(pub PathBuf, #[allow(dead_code)] std::fs::File);

impl Staging {
    pub fn new() -> Result<Self, String> {
        let tmp = std::env::temp_dir();
        remove_abandoned_staging(&tmp);
        let name = format!(
            "{STAGING_PREFIX}{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        );
        let dir = tmp.join(name);
        let at = |e: std::io::Error| format!("{}: {e}", dir.display());
        std::fs::create_dir_all(&dir).map_err(at)?;
        let lock = std::fs::File::create(dir.join(STAGING_LOCK)).map_err(at)?;
        lock.try_lock()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Staging(dir, lock))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes the staging folders under `tmp` whose process has ended without
/// removing them (killed): their lock file is no longer held. Folders of
/// live processes, and folders without a lock file yet (one being created)
/// that are less than an hour old, stay. Best effort: what cannot be removed
/// stays for the next command.
fn remove_abandoned_staging(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
        {
            continue;
        }
        let dir = entry.path();
        let abandoned = match std::fs::File::open(dir.join(STAGING_LOCK)) {
            // Locked by a live process: WouldBlock; free: its owner ended.
            Ok(lock) => lock.try_lock().is_ok(),
            Err(_) => entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > std::time::Duration::from_secs(3600)),
        };
        if abandoned {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Every file below `dir`, recursively.
fn local_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    for e in entries {
        let e = e.map_err(|e| format!("{}: {e}", dir.display()))?;
        let p = e.path();
        if p.is_dir() {
            local_files(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// What [`fetch_copy`] fetched: each object's path relative to the array
/// with a digest of its bytes (to see it rewritten).
type Fetched = std::collections::BTreeMap<PathBuf, (usize, u64)>;

/// Lists the array at `root` and copies its objects (with `whole` all of
/// them, else all but the fragments' data) below `local_root`. An object
/// listed and removed before it was fetched (a vacuum or consolidation
/// beside this command) makes it list and fetch again, up to
/// `RELIST_ATTEMPTS` times.
fn fetch_copy(
    storage: &ObjectStorage,
    root: &Path,
    local_root: &Path,
    whole: bool,
) -> Result<(Vec<(PathBuf, u64)>, Fetched), String> {
    use tiledb_codec::raw::array::directory::{vanished, RELIST_ATTEMPTS};
    let mut tries = 1;
    'listing: loop {
        let objects = storage.objects_below(root).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_dir_all(local_root);
        let mut fetched = Fetched::new();
        for (p, _) in &objects {
            let r = p.strip_prefix(root).unwrap_or(p).to_path_buf();
            let first = first_part(&r);
            let data = first == hierarchy::FRAGMENTS
                || first.starts_with("__1")
                || first == hierarchy::FRAGMENT_META;
            if data && !whole {
                // The fragment's folder, empty: the copy lists as the
                // array does, every commit with its folder (the library
                // takes a commit without its folder for a vacuum beside
                // the listing, and lists again).
                if first != hierarchy::FRAGMENT_META {
                    if let Some(folder) = fragment_folder(&r) {
                        let dir = local_root.join(folder);
                        std::fs::create_dir_all(&dir)
                            .map_err(|e| format!("{}: {e}", dir.display()))?;
                    }
                }
                continue;
            }
            let file = match tiledb_codec::raw::storage::Storage::open(storage, p) {
                Ok(f) => f,
                Err(e) if tries < RELIST_ATTEMPTS && vanished(&e, root) => {
                    tries += 1;
                    storage.forget_listings();
                    continue 'listing;
                }
                Err(e) => return Err(e.to_string()),
            };
            let target = local_root.join(&r);
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&target, file.bytes())
                .map_err(|e| format!("{}: {e}", target.display()))?;
            fetched.insert(r, digest(file.bytes()));
        }
        return Ok((objects, fetched));
    }
}

/// Runs `f` on `path`: directly for a local path; for a URL, on a local
/// staging copy of the array's objects (all of them with `whole`, else all
/// but the fragments' data). With `upload`, it then uploads the files `f`
/// wrote or rewrote, in commit order ([`upload_batch`]: fragments, then
/// schemas, then commits, then `.vac` lists), and deletes the objects of
/// the files it removed ([`removal_batch`]: markers, then consolidated
/// commits and ignore files, then the rest, then `.vac` lists). Nothing is
/// renamed: each PUT stores
/// an object whole. Concurrent writers to one array in a store are not
/// kept apart (there is no lock there).
pub fn staged<T>(
    path: &Path,
    whole: bool,
    upload: bool,
    f: impl FnOnce(&Path) -> Result<T, String>,
) -> Result<T, String> {
    let Some(u) = url(path) else {
        return f(path);
    };
    let (storage, root) = open_counted(u)?;
    let staging = Staging::new()?;
    let local_root = staging.0.join("array");
    let (objects, fetched) = fetch_copy(&storage, &root, &local_root, whole)?;
    let remote_of = |r: &Path| PathBuf::from(format!("{}/{}", root.display(), r.display()));
    if objects.is_empty() {
        // A new array: the writer creates it in the staging folder.
    } else {
        std::fs::create_dir_all(&local_root).map_err(|e| format!("{e}"))?;
    }
    if whole && !objects.is_empty() {
        store_times(&storage, &root, &local_root)?;
    }
    let out = f(&local_root)?;
    if upload {
        let mut files = Vec::new();
        local_files(&local_root, &mut files)?;
        let mut batches: [Vec<(PathBuf, PathBuf)>; 4] = Default::default();
        let mut kept = std::collections::BTreeSet::new();
        for p in files {
            let r = p.strip_prefix(&local_root).unwrap_or(&p).to_path_buf();
            // Hidden files are the commands' own (the consolidation lock,
            // files not yet renamed into place), never the array's.
            let hidden = r
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if hidden {
                continue;
            }
            kept.insert(r.clone());
            if let Some(d) = fetched.get(&r) {
                let now = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                if digest(&now) == *d {
                    continue;
                }
            }
            let remote = remote_of(&r);
            batches[upload_batch(&r)].push((p, remote));
        }
        storage.upload(&batches).map_err(|e| e.to_string())?;
        // What the command removed goes after everything it wrote, in the
        // order the maintenance commands remove files.
        let mut removals: [Vec<PathBuf>; 5] = Default::default();
        for r in fetched.keys().filter(|r| !kept.contains(*r)) {
            removals[removal_batch(r)].push(remote_of(r));
        }
        for batch in removals {
            if !batch.is_empty() {
                storage.delete(&batch).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(out)
}

/// Whether `r` (a path in the array) is a commit of a fragment, delete or
/// update (`.wrt`, `.ok`, `.del`, `.upd`).
fn is_marker(r: &Path) -> bool {
    let n = r.to_string_lossy();
    [
        hierarchy::WRT,
        hierarchy::OK,
        hierarchy::DEL,
        hierarchy::UPD,
    ]
    .iter()
    .any(|s| n.ends_with(s))
}

/// The batch (of four, stored one after another) of a file a command
/// wrote, by its path `r` in the array, in the order the local writers
/// make their files appear: fragments' data (and everything else) first,
/// then schemas, then commits (markers, consolidated commits and ignore
/// files), then the vacuum lists (`.vac`) last. A vacuum list stored
/// before the commit of the fragment that replaces those it lists would
/// hide them from a read while the new fragment is not yet committed: the
/// read would miss all their cells (issue 46; the engine writes it after
/// the commit too).
fn upload_batch(r: &Path) -> usize {
    let first = first_part(r);
    if r.to_string_lossy().ends_with(hierarchy::VAC) {
        3
    } else if first == hierarchy::COMMITS || is_marker(r) {
        2
    } else if first == hierarchy::SCHEMA || first == hierarchy::LEGACY_SCHEMA {
        1
    } else {
        0
    }
}

/// The batch (of five, removed one after another) of a file a command
/// removed, by its path `r` in the array, in the order the local vacuums
/// remove files: the commit markers first (a fragment without one is not
/// read), then consolidated commits files, then ignore files (which stay
/// until the `.con` files they apply to are gone), then the rest
/// (fragment folders, metadata), and the `.vac` lists that named them
/// last.
fn removal_batch(r: &Path) -> usize {
    let n = r.to_string_lossy();
    if n.ends_with(hierarchy::VAC) {
        4
    } else if is_marker(r) {
        0
    } else if n.ends_with(hierarchy::CON) {
        1
    } else if n.ends_with(hierarchy::IGN) {
        2
    } else {
        3
    }
}

/// Gives the staged copy of the array at `root` the times its objects
/// were last modified in the store (a folder: the newest of what it
/// holds), so that `vacuum` tells abandoned work (uncommitted objects that
/// killed commands left) by its age in the store, as it does locally.
fn store_times(storage: &ObjectStorage, root: &Path, local_root: &Path) -> Result<(), String> {
    let times = storage.modified_below(root).map_err(|e| e.to_string())?;
    let mut dirs: std::collections::BTreeMap<PathBuf, std::time::SystemTime> = Default::default();
    for (p, t) in times {
        let local = local_root.join(p.strip_prefix(root).unwrap_or(&p));
        if let Ok(f) = std::fs::File::options().write(true).open(&local) {
            let _ = f.set_modified(t);
        }
        let mut d = local.parent();
        while let Some(dir) = d.filter(|d| d.starts_with(local_root)) {
            let e = dirs.entry(dir.to_path_buf()).or_insert(t);
            *e = (*e).max(t);
            d = dir.parent();
        }
    }
    for (d, t) in dirs {
        if let Ok(f) = std::fs::File::open(&d) {
            let _ = f.set_modified(t);
        }
    }
    Ok(())
}

/// A digest of a file's bytes, to see whether a command rewrote it.
fn digest(bytes: &[u8]) -> (usize, u64) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    (bytes.len(), h.finish())
}

/// The fragment folder that the data object `r` (a path in the array)
/// lies in: `__fragments/<name>`, or `<name>` in the array's folder for
/// fragments before version 12.
fn fragment_folder(r: &Path) -> Option<PathBuf> {
    let mut parts = r.components();
    let first = PathBuf::from(parts.next()?.as_os_str());
    if first.as_os_str() == hierarchy::FRAGMENTS {
        let name = parts.next()?;
        // An object right in `__fragments` is no fragment's.
        parts.next()?;
        Some(first.join(name.as_os_str()))
    } else {
        // An object right in the array's folder is no fragment's.
        parts.next()?;
        Some(first)
    }
}

/// The first component of a path inside the array (`__commits`, ...).
fn first_part(r: &Path) -> String {
    r.components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Prints the requests and bytes of every store this run opened to
/// standard error (`--stats`).
pub fn print_stats() {
    let opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if opened.is_empty() {
        crate::out::warn("stats: local files only, no object-store requests");
    }
    for (url, stats) in opened.iter() {
        crate::out::warn(&format!("stats: {url}: {}", stats.snapshot()));
    }
}

#[cfg(test)]
mod tests {
    use super::{removal_batch, remove_abandoned_staging, upload_batch, STAGING_LOCK};
    use std::path::Path;

    /// A staging folder whose lock nobody holds (its process was killed) is
    /// removed by the next command; one whose lock is held, one being
    /// created (no lock file yet) and other folders stay.
    #[test]
    fn staging_folders_of_ended_processes_are_removed() {
        let root = std::env::temp_dir().join(format!("staging-sweep-test-{}", std::process::id()));
        let tmp = Tmp(root.clone());
        let staging = |name: &str| {
            let dir = root.join(format!("tiledb-codec-staging-{name}"));
            std::fs::create_dir_all(dir.join("array")).unwrap();
            dir
        };
        let ended = staging("1-1");
        std::fs::File::create(ended.join(STAGING_LOCK)).unwrap();
        let live = staging("2-2");
        let held = std::fs::File::create(live.join(STAGING_LOCK)).unwrap();
        held.try_lock().unwrap();
        let new = staging("3-3");
        let other = root.join("someone-else");
        std::fs::create_dir(&other).unwrap();
        remove_abandoned_staging(&tmp.0);
        assert!(!ended.exists());
        assert!(live.join("array").is_dir());
        assert!(new.is_dir());
        assert!(other.is_dir());
        drop(held);
        remove_abandoned_staging(&tmp.0);
        assert!(!live.exists());
    }

    /// A folder removed on drop.
    struct Tmp(std::path::PathBuf);

    impl Drop for Tmp {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A fragment consolidation writes its fragment, its commit and the
    /// vacuum list of the fragments it replaced: the list is stored only
    /// after the commit (else a read between the two sees the old
    /// fragments hidden and the new one uncommitted).
    #[test]
    fn a_vacuum_list_is_stored_after_the_commit_it_belongs_to() {
        let name = "__1_9_0123456789abcdef0123456789abcdef_22";
        let data = format!("__fragments/{name}/a0.tdb");
        let commit = format!("__commits/{name}.wrt");
        let list = format!("__commits/{name}.vac");
        let batch = |p: &str| upload_batch(Path::new(p));
        assert!(batch(&data) < batch("__schema/__1_1_x_22"));
        assert!(batch("__schema/__1_1_x_22") < batch(&commit));
        assert!(batch(&commit) < batch(&list));
        for other in ["__commits/__1_9_x_22.con", "__commits/__1_9_x_22.ign"] {
            assert!(batch(other) < batch(&list), "{other}");
        }
        // Old layouts: the commit marker beside the folder, in the root.
        assert!(batch("__1_2_x_5/a0.tdb") < batch("__1_2_x_5.ok"));
        assert!(batch("__1_2_x_5.ok") < batch("__1_9_y_5.vac"));
        // Array metadata consolidation: the new file before its list.
        assert!(batch("__meta/__1_9_z_22") < batch("__meta/__1_9_z_22.vac"));
    }

    /// Removals in the vacuums' order: markers, consolidated commits,
    /// ignore files, folders, vacuum lists.
    #[test]
    fn the_folder_of_a_data_object_is_its_fragment_s() {
        let f = |p: &str| super::fragment_folder(Path::new(p));
        assert_eq!(
            f("__fragments/__1_2_x_22/a0.tdb"),
            Some("__fragments/__1_2_x_22".into())
        );
        assert_eq!(f("__1_2_x_5/a0.tdb"), Some("__1_2_x_5".into()));
        assert_eq!(f("__fragments/stray"), None);
        assert_eq!(f("__1_2_x_5.ok"), None);
    }

    #[test]
    fn removals_go_in_the_order_of_the_vacuums() {
        let order = [
            "__commits/__1_2_x_22.wrt",
            "__commits/__1_2_x_22.con",
            "__commits/__1_2_x_22.ign",
            "__fragments/__1_2_x_22/a0.tdb",
            "__commits/__1_9_y_22.vac",
        ];
        let batches: Vec<usize> = order.iter().map(|p| removal_batch(Path::new(p))).collect();
        assert!(batches.windows(2).all(|w| w[0] < w[1]), "{batches:?}");
        assert_eq!(removal_batch(Path::new("__1_2_x_5.ok")), batches[0]);
        assert_eq!(
            removal_batch(Path::new("__commits/__1_2_x_22.del")),
            batches[0]
        );
    }
}
