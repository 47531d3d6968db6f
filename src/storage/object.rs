//! Arrays in object stores (S3, GCS, Azure, HTTP, local `file://`) behind
//! the [`Storage`] seam, with the `object_store` crate and a private tokio
//! runtime: a blocking API outside, async requests inside.
//!
//! Paths are URLs spelled as paths (`s3://bucket/arr/__schema/x`): the
//! reader joins and splits them as it does local paths, and errors name the
//! object by its URL. The first listing or lookup of a folder lists its
//! whole prefix once, recursively; every later listing and lookup below it
//! is answered from that listing (the fewest LIST requests an array's
//! layout allows). [`ObjectStats`] counts requests and bytes.
//!
//! The library never reads the environment: credentials come with the
//! store given to [`ObjectStorage::new`] or the options given to
//! [`ObjectStorage::from_url`].

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures::TryStreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};

use super::{Bytes, Kind, ListEntry, MappedFile, Piece, Storage, StorageRef};
use crate::error::{Error, Result};

impl From<Arc<ObjectStorage>> for StorageRef {
    fn from(s: Arc<ObjectStorage>) -> Self {
        StorageRef(s)
    }
}

/// Requests made and bytes fetched by an [`ObjectStorage`].
#[derive(Debug, Default)]
pub struct ObjectStats {
    gets: AtomicU64,
    lists: AtomicU64,
    puts: AtomicU64,
    bytes: AtomicU64,
    sent: AtomicU64,
}

/// A copy of the counts of [`ObjectStats`].
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatsSnapshot {
    /// GET requests (whole objects and ranges).
    pub gets: u64,
    /// LIST requests: the pages of the listings, counted as S3 pages them
    /// (1,000 keys a page).
    pub lists: u64,
    /// PUT and DELETE requests.
    pub puts: u64,
    /// Bytes fetched by GET requests.
    pub bytes: u64,
    /// Bytes uploaded by PUT requests.
    pub sent: u64,
}

impl StatsSnapshot {
    /// Every request: GETs, LISTs and PUTs.
    pub fn requests(&self) -> u64 {
        self.gets + self.lists + self.puts
    }
}

impl std::fmt::Display for StatsSnapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "requests {} (GET {}, LIST {}, PUT/DELETE {}), bytes fetched {}, bytes sent {}",
            self.requests(),
            self.gets,
            self.lists,
            self.puts,
            self.bytes,
            self.sent
        )
    }
}

impl ObjectStats {
    /// The counts so far.
    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            gets: self.gets.load(Ordering::Relaxed),
            lists: self.lists.load(Ordering::Relaxed),
            puts: self.puts.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            sent: self.sent.load(Ordering::Relaxed),
        }
    }
}

/// The URL schemes [`ObjectStorage::from_url`] takes.
pub const URL_SCHEMES: [&str; 7] = ["s3", "s3a", "gs", "az", "abfs", "http", "https"];

/// Whether `path` is spelled as a URL of an object store (`s3://...`,
/// `file://...`), rather than a local path.
pub fn is_url(path: &str) -> bool {
    path.split_once("://").is_some_and(|(s, _)| {
        let s = s.to_ascii_lowercase();
        s == "file" || s == "azure" || URL_SCHEMES.contains(&s.as_str())
    })
}

/// An object store as a [`Storage`]: objects below `base` (a URL such as
/// `s3://bucket`) read, listed and written through `object_store`.
pub struct ObjectStorage {
    pub(crate) store: Arc<dyn ObjectStore>,
    base: String,
    /// The private runtime (taken only on drop).
    rt: std::mem::ManuallyDrop<tokio::runtime::Runtime>,
    /// Recursive listings by prefix (the key below `base`): key -> size.
    listings: Mutex<BTreeMap<String, Arc<BTreeMap<String, u64>>>>,
    stats: Arc<ObjectStats>,
    fetch: Mutex<FetchOptions>,
    /// Ranges of metadata objects fetched before ([`FetchOptions::metadata_cache`]).
    pub(super) kept: Mutex<Kept>,
    /// Small ranges of fragments' data files fetched before
    /// ([`FetchOptions::tile_cache`]).
    pub(super) kept_tiles: Mutex<Kept>,
    /// Counts the listings dropped ([`Storage::refresh`], writes): a LIST
    /// that began before a drop is not cached after it.
    epoch: AtomicU64,
}

/// Byte ranges of metadata objects fetched before, kept for the next opens
/// of their arrays: by object key and range, each with the object's size
/// when it was fetched; the oldest go first past the budget.
#[derive(Debug, Default)]
pub(super) struct Kept {
    pub(super) ranges: HashMap<(String, u64, u64), (Piece, u64)>,
    pub(super) order: VecDeque<(String, u64, u64)>,
    pub(super) bytes: u64,
}

/// Whether a listing of `prefix` (a key; empty: everything) covers `key`.
fn covers(prefix: &str, key: &str) -> bool {
    prefix.is_empty()
        || key == prefix
        || key
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
}

impl std::fmt::Debug for ObjectStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectStorage")
            .field("base", &self.base)
            .field("store", &self.store.to_string())
            .finish_non_exhaustive()
    }
}

fn store_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, std::io::Error::other(e.to_string()))
}

/// An error of a GET or HEAD of `path`: a missing object as `NotFound`.
fn get_err(path: &Path, e: object_store::Error) -> Error {
    match e {
        object_store::Error::NotFound { .. } => Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such object"),
        ),
        e => store_err(path, e),
    }
}

/// How [`Storage::read_ranges`] fetches byte ranges from an object store:
/// ranges of one object close together are merged into one request, and
/// the requests are issued concurrently, a bounded number at once.
///
/// The defaults (ranges up to 1 MiB apart merged into requests of up to
/// 64 MiB, 8 requests in flight, 128 MiB read ahead) were chosen with
/// `bench/s3.sh` (see the README's "Benchmarks"): fewer, larger requests
/// cost a server less than more, smaller ones (moto reads the whole object
/// for each ranged GET; S3 bills by the request), and with 32 MiB the
/// 4 tiles of 8 MiB of a fragment, with their headers, took two requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FetchOptions {
    /// Ranges of one object whose gap is at most this many bytes are
    /// fetched in one request (the bytes between them are fetched and
    /// dropped).
    pub coalesce_gap: u64,
    /// A request that merges ranges spans at most this many bytes; a
    /// single range longer than this is still fetched whole, in one
    /// request (a read never makes more requests than ranges asked).
    pub max_request: u64,
    /// Requests in flight at once (0 is taken as 1).
    pub concurrency: usize,
    /// Bytes of tiles a read fetches ahead of decoding them, at most
    /// ([`Storage::read_ahead`]): what a read holds of the array's stored
    /// bytes at once besides its result (a part of the read that one row
    /// of tiles spans beyond it is still fetched at once). Dense tiles
    /// decoded as they arrive ([`Storage::read_streamed`]) are fetched all
    /// at once: of them a read holds only the filtered chunks waiting to be
    /// unfiltered, at most this many bytes.
    pub read_ahead: u64,
    /// Bytes of metadata objects (fragment metadata, schemas, consolidated
    /// fragment metadata, array metadata: files TileDB never rewrites) this
    /// storage keeps after fetching them, at most, so that opening an array
    /// again through it fetches only what is new (0: nothing kept). A kept
    /// range is used only while the array's listing, taken afresh at each
    /// open, still shows its object with the size it had.
    pub metadata_cache: u64,
    /// Bytes of fragments' tiles (ranges of their data files, files
    /// TileDB never rewrites either) this storage keeps after fetching
    /// them, at most (the oldest go first; 0: nothing kept): a small read
    /// made again (a box read again, the same tiles of a new box) fetches
    /// only what it has not fetched before. Only tiles of at most
    /// [`FetchOptions::tile_cache_range`] bytes are kept. Checked against
    /// each listing as [`FetchOptions::metadata_cache`] is. The defaults
    /// are the engine's for the cache of small reads its VFS keeps
    /// (`vfs.read_ahead_cache_size`, 10 MiB, of reads under
    /// `vfs.read_ahead_size`, 100 KiB).
    pub tile_cache: u64,
    /// The longest tile [`FetchOptions::tile_cache`] keeps, in bytes.
    pub tile_cache_range: u64,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            coalesce_gap: 1 << 20,
            max_request: 64 << 20,
            concurrency: 8,
            read_ahead: 128 << 20,
            metadata_cache: 16 << 20,
            tile_cache: 10 << 20,
            tile_cache_range: 100 << 10,
        }
    }
}

/// One request of a [`Storage::read_ranges`] call: `range` of the object
/// of request `path`, covering the asked ranges `parts` (their indices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Coalesced {
    pub path: usize,
    pub range: std::ops::Range<u64>,
    pub parts: Vec<usize>,
}

/// The requests that fetch `requests` under `o`: the non-empty ranges of
/// each object sorted by start, neighbours at most `o.coalesce_gap` apart
/// merged while the merged request spans at most `o.max_request` bytes.
/// Never more requests than non-empty ranges asked.
pub(crate) fn coalesce(
    requests: &[(PathBuf, std::ops::Range<u64>)],
    o: &FetchOptions,
) -> Vec<Coalesced> {
    let mut order: Vec<usize> = (0..requests.len())
        .filter(|i| !requests[*i].1.is_empty())
        .collect();
    order.sort_by(|a, b| {
        let (pa, ra) = &requests[*a];
        let (pb, rb) = &requests[*b];
        pa.cmp(pb)
            .then(ra.start.cmp(&rb.start))
            .then(ra.end.cmp(&rb.end))
    });
    let mut out: Vec<Coalesced> = Vec::new();
    for i in order {
        let (path, r) = &requests[i];
        if let Some(c) = out.last_mut() {
            let end = c.range.end.max(r.end);
            if requests[c.path].0 == *path
                && r.start <= c.range.end.saturating_add(o.coalesce_gap)
                && end - c.range.start <= o.max_request
            {
                c.range.end = end;
                c.parts.push(i);
                continue;
            }
        }
        out.push(Coalesced {
            path: i,
            range: r.clone(),
            parts: vec![i],
        });
    }
    out
}

/// The bytes `range` of the object at `location` (`path` in errors), as
/// `ObjectStore::get_range` fetches them, handed to `piece(the length the
/// answer announced, offset in it, bytes)` as they come. A body longer than
/// the range the answer announced is refused: nothing a server sends makes
/// a caller hold more.
async fn get_pieces(
    store: &dyn ObjectStore,
    path: &Path,
    location: &ObjectPath,
    range: std::ops::Range<u64>,
    mut piece: impl FnMut(usize, usize, &[u8]) -> Result<()> + Send,
) -> Result<()> {
    use futures::StreamExt;
    let options = object_store::GetOptions::new().with_range(Some(range));
    let result = store
        .get_opts(location, options)
        .await
        .map_err(|e| get_err(path, e))?;
    let len = usize::try_from(result.range.end.saturating_sub(result.range.start)).unwrap_or(0);
    let mut at = 0usize;
    let mut stream = result.into_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| get_err(path, e))?;
        if chunk.len() > len - at {
            return Err(get_err(
                path,
                object_store::Error::Generic {
                    store: "object store",
                    source: format!(
                        "{location}: the answer to a ranged GET is longer than the {len} bytes it announced"
                    )
                    .into(),
                },
            ));
        }
        piece(len, at, &chunk)?;
        at += chunk.len();
    }
    Ok(())
}

/// The bytes `range` of the object at `location` ([`get_pieces`]), in one
/// buffer of the answer's length made present at once
/// ([`super::fresh_buffer`]) instead of collected in memory faulted in page
/// by page.
async fn get_into(
    store: &dyn ObjectStore,
    path: &Path,
    location: &ObjectPath,
    range: std::ops::Range<u64>,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut end = 0;
    get_pieces(store, path, location, range, |len, at, bytes| {
        if out.is_empty() {
            out = super::fresh_buffer(len);
        }
        out[at..at + bytes.len()].copy_from_slice(bytes);
        end = at + bytes.len();
        Ok(())
    })
    .await?;
    out.truncate(end);
    Ok(out)
}

impl ObjectStorage {
    /// The objects of `store`, whose root is named `base` (a URL without
    /// a path, such as `s3://bucket`): the paths given to the [`Storage`]
    /// methods are `base` joined with an object's key.
    pub fn new(store: Arc<dyn ObjectStore>, base: &str) -> Result<Self> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("tiledb-codec-object-store")
            .build()
            .map_err(|e| Error::io(Path::new(base), e))?;
        Ok(ObjectStorage {
            store,
            base: base.trim_end_matches('/').to_string(),
            rt: std::mem::ManuallyDrop::new(rt),
            listings: Mutex::new(BTreeMap::new()),
            stats: Arc::default(),
            fetch: Mutex::new(FetchOptions::default()),
            kept: Mutex::default(),
            kept_tiles: Mutex::default(),
            epoch: AtomicU64::new(0),
        })
    }

    /// The store and the path of `url` (`s3://bucket/path/to/array`,
    /// `gs://`, `az://`, `https://`, `file:///abs/path`), configured by
    /// `options` only (keys as `object_store` names them, e.g.
    /// `aws_access_key_id`, `aws_endpoint`, `aws_allow_http`,
    /// `aws_region`) and the timeouts and retries of [`super::limits`]
    /// (`timeout`, `connect_timeout`, `retry_max`, `retry_timeout`...);
    /// nothing is read from the environment. Returns the storage and the
    /// array's path in it:
    ///
    /// ```no_run
    /// use tiledb_codec::raw::storage::object::ObjectStorage;
    /// use tiledb_codec::raw::OpenOptionsExt;
    /// use tiledb_codec::{Array, OpenOptions};
    ///
    /// let options = [("aws_region", "us-east-1")];
    /// let (storage, path) = ObjectStorage::from_url("s3://bucket/array", options)?;
    /// let array = Array::open_with(path, OpenOptions::new().with_storage(storage.into()))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_url<I, K, V>(url: &str, options: I) -> Result<(Arc<ObjectStorage>, PathBuf)>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: Into<String>,
    {
        let bad = |what: String| Error::io(Path::new(url), std::io::Error::other(what));
        let parsed = url::Url::parse(url).map_err(|e| bad(format!("not a URL: {e}")))?;
        Self::with_store(super::limits::store_for_url(&parsed, options)?, url)
    }

    /// The storage of the object store `store` that `url` points into, and
    /// the path of `url` in it: for stores configured by the caller (e.g.
    /// from the environment, with `AmazonS3Builder::from_env()`).
    pub fn with_store(
        store: Arc<dyn ObjectStore>,
        url: &str,
    ) -> Result<(Arc<ObjectStorage>, PathBuf)> {
        let bad = |what: String| Error::io(Path::new(url), std::io::Error::other(what));
        let parsed = url::Url::parse(url).map_err(|e| bad(format!("not a URL: {e}")))?;
        let base = if parsed.scheme() == "file" {
            "file://".to_string()
        } else {
            parsed[..url::Position::BeforePath].to_string()
        };
        let key = parsed.path().trim_matches('/');
        let storage = ObjectStorage::new(store, &base)?;
        let path = storage.path_of(key);
        Ok((Arc::new(storage), path))
    }

    /// How ranged reads are merged and how many requests are in flight
    /// (the defaults until [`ObjectStorage::set_fetch_options`]).
    pub fn fetch_options(&self) -> FetchOptions {
        *self.fetch.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets how ranged reads are merged into requests and how many are in
    /// flight at once, for the reads from now on.
    pub fn set_fetch_options(&self, o: FetchOptions) {
        *self.fetch.lock().unwrap_or_else(|e| e.into_inner()) = o;
        self.trim_kept(&o);
    }

    /// The requests and bytes counted so far.
    pub fn stats(&self) -> Arc<ObjectStats> {
        self.stats.clone()
    }

    /// Runs `f` to completion on the private runtime. From inside another
    /// tokio runtime (where blocking on ours would panic) it is driven
    /// from a thread of its own.
    pub(crate) fn block_on<F: std::future::Future + Send>(&self, f: F) -> F::Output
    where
        F::Output: Send,
    {
        if tokio::runtime::Handle::try_current().is_err() {
            return self.rt.block_on(f);
        }
        std::thread::scope(|s| {
            s.spawn(|| self.rt.block_on(f))
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        })
    }

    /// The path (URL) of the object `key`.
    pub fn path_of(&self, key: &str) -> PathBuf {
        PathBuf::from(format!("{}/{}", self.base, key))
    }

    /// The object key of `path` (a path this storage gave, or `base`
    /// joined with a key).
    pub(crate) fn key(&self, path: &Path) -> Result<String> {
        let s = path.to_string_lossy();
        let rest = s
            .strip_prefix(&self.base)
            .ok_or_else(|| store_err(path, format!("not an object of {}", self.base)))?;
        let rest = rest.trim_matches('/');
        // Path::join may double slashes; keys never have empty parts.
        let mut key = String::with_capacity(rest.len());
        for part in rest.split('/').filter(|p| !p.is_empty() && *p != ".") {
            if part == ".." {
                return Err(store_err(path, "`..` in an object path"));
            }
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(part);
        }
        Ok(key)
    }

    fn object_path(&self, path: &Path) -> Result<ObjectPath> {
        let key = self.key(path)?;
        ObjectPath::parse(&key).map_err(|e| store_err(path, e))
    }

    /// The cached recursive listing that covers `key`, if any.
    pub(super) fn cached(&self, key: &str) -> Option<(String, Arc<BTreeMap<String, u64>>)> {
        let listings = self.listings.lock().unwrap_or_else(|e| e.into_inner());
        listings
            .iter()
            .find(|(p, _)| covers(p, key))
            .map(|(p, l)| (p.clone(), l.clone()))
    }

    /// Lists `key` recursively (one LIST, paged by the store) and caches it.
    fn list_recursive(&self, path: &Path, key: &str) -> Result<Arc<BTreeMap<String, u64>>> {
        if let Some((_, l)) = self.cached(key) {
            return Ok(l);
        }
        let prefix = if key.is_empty() {
            None
        } else {
            Some(ObjectPath::parse(key).map_err(|e| store_err(path, e))?)
        };
        let epoch = self.epoch.load(Ordering::Acquire);
        let metas: Vec<object_store::ObjectMeta> = self
            .block_on(async {
                let stream = self.store.list(prefix.as_ref());
                stream.try_collect().await
            })
            .map_err(|e| store_err(path, e))?;
        // The store pages by 1,000 keys per LIST request.
        let pages = (metas.len() as u64).div_ceil(1000).max(1);
        self.stats.lists.fetch_add(pages, Ordering::Relaxed);
        let map: BTreeMap<String, u64> = metas
            .into_iter()
            .map(|m| (m.location.to_string(), m.size))
            .collect();
        let map = Arc::new(map);
        let mut listings = self.listings.lock().unwrap_or_else(|e| e.into_inner());
        // Dropped meanwhile: this listing may be older than the drop.
        if self.epoch.load(Ordering::Acquire) == epoch {
            listings.insert(key.to_string(), map.clone());
        }
        Ok(map)
    }

    /// Forgets every cached listing (after a write).
    pub fn forget_listings(&self) {
        let mut listings = self.listings.lock().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::AcqRel);
        listings.clear();
    }

    /// Uploads the local files `files` (local path, object path) one batch
    /// after another: the files of a batch concurrently, each batch only
    /// after every object of the batches before it is stored. A single PUT
    /// stores an object whole or not at all, so nothing is renamed.
    pub fn upload(&self, batches: &[Vec<(PathBuf, PathBuf)>]) -> Result<()> {
        for batch in batches {
            let mut jobs = Vec::new();
            for (local, remote) in batch {
                let bytes = std::fs::read(local).map_err(|e| Error::io(local, e))?;
                let location = self.object_path(remote)?;
                jobs.push((remote.clone(), location, bytes));
            }
            let store = &self.store;
            let stats = &self.stats;
            self.block_on(async {
                let puts = jobs
                    .into_iter()
                    .map(|(remote, location, bytes)| async move {
                        let n = bytes.len() as u64;
                        store
                            .put(&location, PutPayload::from(bytes))
                            .await
                            .map_err(|e| store_err(&remote, e))?;
                        stats.puts.fetch_add(1, Ordering::Relaxed);
                        stats.sent.fetch_add(n, Ordering::Relaxed);
                        Ok::<(), Error>(())
                    });
                futures::future::try_join_all(puts).await
            })?;
        }
        self.forget_listings();
        Ok(())
    }

    /// Deletes the objects `paths`, concurrently.
    pub fn delete(&self, paths: &[PathBuf]) -> Result<()> {
        let store = &self.store;
        let stats = &self.stats;
        let jobs = paths
            .iter()
            .map(|p| Ok((p.clone(), self.object_path(p)?)))
            .collect::<Result<Vec<_>>>()?;
        self.block_on(async {
            let dels = jobs.into_iter().map(|(p, location)| async move {
                store
                    .delete(&location)
                    .await
                    .map_err(|e| store_err(&p, e))?;
                stats.puts.fetch_add(1, Ordering::Relaxed);
                Ok::<(), Error>(())
            });
            futures::future::try_join_all(dels).await
        })?;
        self.forget_listings();
        Ok(())
    }

    /// The keys (with sizes) of every object below `path`, listed
    /// recursively (from the cache when a listing covers it).
    pub fn objects_below(&self, path: &Path) -> Result<Vec<(PathBuf, u64)>> {
        let key = self.key(path)?;
        let listing = self.list_recursive(path, &key)?;
        let prefix = if key.is_empty() {
            String::new()
        } else {
            format!("{key}/")
        };
        Ok(listing
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .map(|(k, s)| (self.path_of(k), *s))
            .collect())
    }

    /// The ranges `requests`, merged where close ([`FetchOptions`]) and
    /// fetched concurrently, at most [`FetchOptions::concurrency`] requests
    /// in flight; the ranges of one request share its buffer.
    fn fetch_pieces(&self, requests: &[(PathBuf, std::ops::Range<u64>)]) -> Result<Vec<Piece>> {
        use futures::StreamExt;
        let o = self.fetch_options();
        let mut out = vec![Piece::default(); requests.len()];
        let plan = coalesce(requests, &o);
        let jobs = plan
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let path = &requests[c.path].0;
                Ok((k, path.clone(), self.object_path(path)?, c.range.clone()))
            })
            .collect::<Result<Vec<_>>>()?;
        let store = &self.store;
        let stats = &self.stats;
        let fetched: Vec<(usize, _)> = self.block_on(async {
            futures::stream::iter(jobs)
                .map(|(k, path, location, range)| async move {
                    let bytes = get_into(&**store, &path, &location, range).await?;
                    stats.gets.fetch_add(1, Ordering::Relaxed);
                    stats.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
                    Ok::<_, Error>((k, bytes))
                })
                .buffer_unordered(o.concurrency.max(1))
                .try_collect()
                .await
        })?;
        for (k, bytes) in fetched {
            let c = &plan[k];
            // The request's buffer, shared by its ranges.
            let buf = Arc::new(bytes);
            for &i in &c.parts {
                let r = &requests[i].1;
                let at = |x: u64| (x - c.range.start) as usize;
                out[i] = Piece::part(buf.clone(), at(r.start)..at(r.end));
            }
        }
        Ok(out)
    }

    fn get(&self, path: &Path, range: Option<std::ops::Range<u64>>) -> Result<Vec<u8>> {
        let keep = self.keepable(path, range.as_ref());
        if let Some(piece) = keep.as_ref().and_then(|k| self.kept(k)) {
            return Ok(piece.to_vec());
        }
        let location = self.object_path(path)?;
        let bytes = self.block_on(async {
            match range {
                Some(r) => get_into(self.store.as_ref(), path, &location, r).await,
                None => {
                    let whole = async { self.store.get(&location).await?.bytes().await };
                    Ok(Vec::from(whole.await.map_err(|e| get_err(path, e))?))
                }
            }
        })?;
        self.stats.gets.fetch_add(1, Ordering::Relaxed);
        self.stats
            .bytes
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if let Some(k) = keep {
            self.keep(k, &Piece::from(bytes.clone()));
        }
        Ok(bytes)
    }
}

impl Drop for ObjectStorage {
    fn drop(&mut self) {
        // SAFETY: not used again; the field is dropped only here.
        let rt = unsafe { std::mem::ManuallyDrop::take(&mut self.rt) };
        // Dropping a runtime blocks, which panics inside another runtime:
        // shut it down without waiting.
        rt.shutdown_background();
    }
}

impl Storage for ObjectStorage {
    fn open(&self, path: &Path) -> Result<MappedFile> {
        let bytes = self.get(path, None)?;
        Ok(MappedFile {
            path: path.to_path_buf(),
            bytes: if bytes.is_empty() {
                Bytes::Empty
            } else {
                Bytes::Owned(bytes)
            },
        })
    }

    fn ranged(&self) -> bool {
        true
    }

    fn read_ahead(&self) -> u64 {
        self.fetch_options().read_ahead.max(1)
    }

    fn read_range(&self, path: &Path, range: std::ops::Range<u64>) -> Result<Vec<u8>> {
        if range.is_empty() {
            return Ok(Vec::new());
        }
        self.get(path, Some(range))
    }

    /// The ranges asked, merged where close ([`FetchOptions`]) and fetched
    /// concurrently, at most [`FetchOptions::concurrency`] requests in
    /// flight; each range comes back as asked (shorter only where the
    /// object ends before it).
    fn read_ranges(&self, requests: &[(PathBuf, std::ops::Range<u64>)]) -> Result<Vec<Vec<u8>>> {
        Ok(self
            .read_pieces(requests)?
            .into_iter()
            .map(Piece::into_vec)
            .collect())
    }

    /// [`Storage::read_ranges`], the ranges of one request sharing its
    /// buffer; ranges of metadata objects kept from before are not fetched.
    fn read_pieces(&self, requests: &[(PathBuf, std::ops::Range<u64>)]) -> Result<Vec<Piece>> {
        let mut out = vec![Piece::default(); requests.len()];
        // The ranges not kept: their index, and what keeps them once fetched.
        let mut missing = Vec::new();
        for (i, (path, range)) in requests.iter().enumerate() {
            let k = self.keepable(path, Some(range));
            match k.as_ref().and_then(|k| self.kept(k)) {
                Some(piece) => out[i] = piece,
                None => missing.push((i, k)),
            }
        }
        let asked: std::borrow::Cow<[_]> = if missing.is_empty() {
            return Ok(out);
        } else if missing.len() == requests.len() {
            requests.into()
        } else {
            missing.iter().map(|(i, _)| requests[*i].clone()).collect()
        };
        for ((i, k), piece) in missing.into_iter().zip(self.fetch_pieces(&asked)?) {
            if let Some(k) = k {
                self.keep(k, &piece);
            }
            out[i] = piece;
        }
        Ok(out)
    }

    /// The ranges asked, merged where close ([`FetchOptions`]) and fetched
    /// concurrently, at most [`FetchOptions::concurrency`] requests in
    /// flight, each answer handed on piece by piece as it comes.
    fn read_streamed(
        &self,
        requests: &[(PathBuf, std::ops::Range<u64>)],
        sink: &mut (dyn FnMut(usize, &[u8]) -> Result<()> + Send),
    ) -> Result<()> {
        use futures::StreamExt;
        let o = self.fetch_options();
        let plan = coalesce(requests, &o);
        let jobs = plan
            .iter()
            .enumerate()
            .map(|(k, c)| Ok((k, self.object_path(&requests[c.path].0)?)))
            .collect::<Result<Vec<_>>>()?;
        let (store, stats, plan) = (&self.store, &self.stats, &plan);
        // The requests' futures are all polled by the one that drives
        // them: the lock is never waited for.
        let sink = Mutex::new(sink);
        let sink = &sink;
        self.block_on(async move {
            futures::stream::iter(jobs)
                .map(|(k, location)| async move {
                    let c = &plan[k];
                    let path = &requests[c.path].0;
                    let (mut got, mut first) = (0u64, 0usize);
                    get_pieces(
                        &**store,
                        path,
                        &location,
                        c.range.clone(),
                        |_, at, bytes| {
                            let start = c.range.start + at as u64;
                            let end = start + bytes.len() as u64;
                            let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
                            // The parts are sorted by start: skip those done,
                            // stop at the first that starts after the piece.
                            while c
                                .parts
                                .get(first)
                                .is_some_and(|i| requests[*i].1.end <= start)
                            {
                                first += 1;
                            }
                            for &i in &c.parts[first..] {
                                let r = &requests[i].1;
                                if r.start >= end {
                                    break;
                                }
                                let (s, e) = (r.start.max(start), r.end.min(end));
                                if s < e {
                                    sink(i, &bytes[(s - start) as usize..(e - start) as usize])?;
                                }
                            }
                            got += bytes.len() as u64;
                            Ok(())
                        },
                    )
                    .await?;
                    stats.gets.fetch_add(1, Ordering::Relaxed);
                    stats.bytes.fetch_add(got, Ordering::Relaxed);
                    Ok::<_, Error>(())
                })
                .buffer_unordered(o.concurrency.max(1))
                .try_for_each(|()| async { Ok(()) })
                .await
        })
    }

    fn size(&self, path: &Path) -> Result<u64> {
        let key = self.key(path)?;
        if let Some((_, l)) = self.cached(&key) {
            return l.get(&key).copied().ok_or_else(|| {
                Error::io(
                    path,
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such object"),
                )
            });
        }
        let location = self.object_path(path)?;
        let head = self.block_on(self.store.head(&location));
        self.stats.gets.fetch_add(1, Ordering::Relaxed);
        Ok(head.map_err(|e| get_err(path, e))?.size)
    }

    /// Drops the listings of `dir`, of the folders in it and of those
    /// that hold it. Kept metadata ranges stay: each is checked against
    /// the next listing when used.
    fn refresh(&self, dir: &Path) {
        let Ok(key) = self.key(dir) else {
            return;
        };
        let mut listings = self.listings.lock().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::AcqRel);
        listings.retain(|p, _| !covers(p, &key) && !covers(&key, p));
    }

    fn list(&self, dir: &Path) -> Result<Vec<ListEntry>> {
        let key = self.key(dir)?;
        let listing = self.list_recursive(dir, &key)?;
        let prefix = if key.is_empty() {
            String::new()
        } else {
            format!("{key}/")
        };
        let mut out: Vec<ListEntry> = Vec::new();
        for k in listing.keys().skip_while(|k| !k.starts_with(&prefix)) {
            let Some(rest) = k.strip_prefix(&prefix) else {
                break;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((n, _)) => (n, Kind::Folder),
                None => (rest, Kind::File),
            };
            let path = self.path_of(&format!("{prefix}{name}"));
            if out.last().is_none_or(|l| l.path != path) {
                out.push(ListEntry { path, kind });
            }
        }
        Ok(out)
    }

    fn kind(&self, path: &Path) -> Option<Kind> {
        let key = self.key(path).ok()?;
        if let Some((_, l)) = self.cached(&key) {
            if l.contains_key(&key) {
                return Some(Kind::File);
            }
            let prefix = format!("{key}/");
            return l
                .range(prefix.clone()..)
                .next()
                .filter(|(k, _)| k.starts_with(&prefix))
                .map(|_| Kind::Folder);
        }
        // Nothing listed yet: list this prefix whole (an array's root: the
        // one LIST its reading needs).
        let l = self.list_recursive(path, &key).ok()?;
        if l.is_empty() {
            // Maybe a single object.
            let location = ObjectPath::parse(&key).ok()?;
            let head = self.block_on(self.store.head(&location));
            self.stats.gets.fetch_add(1, Ordering::Relaxed);
            return head.ok().map(|_| Kind::File);
        }
        Some(Kind::Folder)
    }
}

#[cfg(test)]
mod tests;
