//! What an array folder holds and what of it is committed
//! (format_spec/array_file_hierarchy.md), decided as the engine decides it
//! (tiledb/sm/array/array_directory.cc): commit markers (`.ok`, `.wrt`),
//! consolidated commits (`.con`) less ignored ones (`.ign`), less what
//! vacuum files (`.vac`) list.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::name::{self, TimestampedName};
use crate::error::{Error, Result};
use crate::format::hierarchy;
use crate::format::version::has_commit_markers;
use crate::format::{decode_all, ConsolidatedCommits, IgnoreFile, VacuumFile};
use crate::storage::{FolderStamp, Kind, Storage, StorageRef};

/// A file or folder of the array with a timestamped name.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry {
    /// The file or folder.
    pub path: PathBuf,
    /// Its name, parsed.
    pub name: TimestampedName,
}

impl Entry {
    /// The entry of the file or folder at `path`, whose name parses as
    /// `name` ([`name::parse`]).
    pub fn new(path: PathBuf, name: TimestampedName) -> Self {
        Entry { path, name }
    }
}

/// The listing of an array folder, classified.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ArrayDirectory {
    /// The array's folder.
    pub root: PathBuf,
    /// Where the array's objects are read from.
    pub storage: StorageRef,
    /// `__array_schema.tdb`, when present (versions before 10).
    pub legacy_schema: Option<PathBuf>,
    /// `__schema/<timestamped_name>`, oldest first.
    pub schemas: Vec<Entry>,
    /// Committed, not vacuumed fragments, oldest first.
    pub fragments: Vec<Entry>,
    /// Fragment folders without a commit (ignored when reading).
    pub uncommitted: Vec<PathBuf>,
    /// `__meta/<timestamped_name>` array metadata files, oldest first, less vacuumed ones.
    pub metadata: Vec<Entry>,
    /// Consolidated fragment metadata files (`.meta`), oldest first.
    pub fragment_meta: Vec<Entry>,
    /// Delete (`.del`) commits, oldest first: the files, and the ones held
    /// only in consolidated commits files (after a commits vacuum removed
    /// their files; their bytes are in [`ArrayDirectory::delete_tiles`]).
    pub deletes: Vec<Entry>,
    /// The bytes (a generic tile) of each delete commit held in a
    /// consolidated commits file and not on disk, by file name.
    pub delete_tiles: std::collections::HashMap<String, Vec<u8>>,
    /// Update (`.upd`) commit files, oldest first. The engine's readers
    /// apply them as deletes (their values are never read): see
    /// [`ArrayDirectory::condition_commits`].
    pub updates: Vec<Entry>,
    /// Consolidated commits (`.con`).
    pub consolidated_commits: Vec<Entry>,
    /// Ignore (`.ign`) files.
    pub ignore_files: Vec<Entry>,
    /// Vacuum (`.vac`) files.
    pub vacuum_files: Vec<Entry>,
    /// Schemas read so far, by path: every fragment names one, and most
    /// name the same.
    schema_cache: std::sync::Mutex<SchemaCache>,
    /// The consolidated fragment metadata (`.meta` files), read once when
    /// the first fragment is opened.
    consolidated: std::sync::Mutex<Option<Arc<ConsolidatedFooters>>>,
    /// What the folders listed when the array was opened
    /// ([`ArrayDirectory::unchanged`]).
    listed: Listing,
    /// The folders' stamps taken just before they were listed, and the
    /// time then (nanoseconds since the epoch), where the storage has
    /// stamps.
    stamped: Option<([FolderStamp; 6], i128)>,
}

/// The listings an open classifies: `__schema`, the array's folder,
/// `__commits`, `__fragment_meta`, `__fragments` and `__meta`, in that
/// order. Folders that do not exist list as empty. The commits are listed
/// before the fragment folders on purpose (see [`check_folders_listed`]):
/// a listing that a consolidation and vacuum cut in two is then seen.
#[derive(Debug, Default, PartialEq, Eq)]
struct Listing([Vec<crate::storage::ListEntry>; 6]);

impl Listing {
    const SCHEMA: usize = 0;
    const ROOT: usize = 1;
    const COMMITS: usize = 2;
    const FRAGMENT_META: usize = 3;
    const FRAGMENTS: usize = 4;
    const META: usize = 5;

    fn dirs(root: &Path) -> [PathBuf; 6] {
        [
            root.join(hierarchy::SCHEMA),
            root.to_path_buf(),
            root.join(hierarchy::COMMITS),
            root.join(hierarchy::FRAGMENT_META),
            root.join(hierarchy::FRAGMENTS),
            root.join(hierarchy::META),
        ]
    }

    fn of(storage: &dyn Storage, dirs: &[PathBuf; 6]) -> Result<Listing> {
        let mut out = Listing::default();
        for (slot, dir) in out.0.iter_mut().zip(dirs) {
            *slot = storage.list(dir)?;
        }
        Ok(out)
    }

    /// The stamps of the listed folders, where the storage has them all.
    fn stamps(storage: &dyn Storage, dirs: &[PathBuf; 6]) -> Option<[FolderStamp; 6]> {
        let mut out = [FolderStamp::NONE; 6];
        for (slot, dir) in out.iter_mut().zip(dirs) {
            *slot = storage.stamp(dir)?;
        }
        Some(out)
    }

    /// The listing of `dirs`, with their stamps taken before it and the
    /// time then. Where the storage has stamps, a listing during which a
    /// folder changed is taken again (at most [`LISTING_TRIES`] times in
    /// all): the folders are listed one after the other, and a
    /// consolidation and vacuum between two of them (a new fragment
    /// committed in `__commits` after it was listed, the fragments it
    /// replaced removed from `__fragments` before it was) would leave a
    /// listing in which neither is committed. Without stamps (an object
    /// store), or after the last try, such a listing is caught by
    /// [`check_folders_listed`] instead.
    fn settled(storage: &dyn Storage, dirs: &[PathBuf; 6]) -> Result<(Listing, Stamped)> {
        let mut tries = 1;
        loop {
            let time = now_ns();
            let before = Listing::stamps(storage, dirs);
            let listed = Listing::of(storage, dirs)?;
            let settled = before.is_none()
                || tries >= LISTING_TRIES
                || Listing::stamps(storage, dirs) == before;
            if settled {
                return Ok((listed, before.map(|s| (s, time))));
            }
            tries += 1;
        }
    }

    fn paths(&self, which: usize) -> impl Iterator<Item = PathBuf> + '_ {
        self.0[which].iter().map(|e| e.path.clone())
    }
}

/// The folders' stamps and the time they were taken (nanoseconds since the
/// epoch), where the storage has stamps.
type Stamped = Option<([FolderStamp; 6], i128)>;

/// How many times, at most, an open lists an array's folders while one of
/// them changes during the listing ([`Listing::settled`]).
const LISTING_TRIES: u32 = 4;

/// How long before its listing a folder's last change must lie for its
/// stamp to stand for the listing: more than any file system's clock
/// granularity (FAT's 2 s), so that a later change cannot give the folder
/// the stamp it had.
const SETTLED_NS: i128 = 3_000_000_000;

fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// The footers that consolidated fragment metadata files (`.meta`) hold:
/// the engine reads a fragment's footer from there when a `.meta` file
/// lists the fragment (the first file in listing order that does), and
/// from the fragment's own `__fragment_metadata.tdb` otherwise
/// (`FragmentInfo::load_array_schemas_and_fragment_metadata`).
#[derive(Debug, Default)]
pub struct ConsolidatedFooters {
    /// Each `.meta` file: its path and its unfiltered tile data.
    files: Vec<(PathBuf, Vec<u8>)>,
    /// Fragment name -> (file index, offset of its footer in the data).
    index: std::collections::HashMap<String, (usize, u64)>,
}

impl ConsolidatedFooters {
    /// The footer bytes of fragment `name` (from its offset to the end of
    /// the tile data: the footer is decoded from their start), the `.meta`
    /// file's path and the offset, if a `.meta` file lists the fragment.
    pub fn footer(&self, name: &str) -> Option<(&[u8], &Path, u64)> {
        let &(file, offset) = self.index.get(name)?;
        let (path, data) = &self.files[file];
        let bytes = data.get(usize::try_from(offset).ok()?..)?;
        Some((bytes, path.as_path(), offset))
    }

    fn load(dir: &ArrayDirectory, opts: &crate::ReadOptions) -> Result<Self> {
        let mut out = ConsolidatedFooters::default();
        let mut metas: Vec<&Entry> = dir.fragment_meta.iter().collect();
        // The engine's order: the listing's (by name).
        metas.sort_by(|a, b| a.path.cmp(&b.path));
        for e in metas {
            let f = dir.storage.open(&e.path)?;
            let tile = crate::tile::read_generic_tile(&f, 0, opts)?;
            let (table, _) = crate::format::decode::<crate::format::ConsolidatedFragmentMetadata>(
                &tile.data,
                &e.path,
                0,
                (),
            )?;
            let i = out.files.len();
            for entry in table.fragments {
                out.index
                    .entry(uri_name(&entry.name))
                    .or_insert((i, entry.offset));
            }
            out.files.push((e.path.clone(), tile.data.into_owned()));
        }
        Ok(out)
    }
}

/// How many times an open of an array lists it, at most, when files it
/// listed are gone by the time it reads them ([`vanished`]).
pub const RELIST_ATTEMPTS: u32 = 10;

/// Whether `e` says that a file or folder below `root` (not `root` itself)
/// is not there: listed, then removed before it was read, as a vacuum or
/// consolidation running beside a read removes what it superseded.
pub fn vanished(e: &Error, root: &Path) -> bool {
    match e {
        Error::Io { path, source } => {
            source.kind() == std::io::ErrorKind::NotFound && path != root && path.starts_with(root)
        }
        _ => false,
    }
}

/// Runs `attempt` until it does not fail with a [`vanished`] file below
/// `root`, at most [`RELIST_ATTEMPTS`] times, waiting a little longer
/// before each new try (1, 2, 4... ms, at most 64): each try lists the
/// array afresh, after the maintenance step that removed the file.
pub fn relisting<T>(root: &Path, mut attempt: impl FnMut() -> Result<T>) -> Result<T> {
    let mut tries = 1;
    loop {
        match attempt() {
            Err(e) if tries < RELIST_ATTEMPTS && vanished(&e, root) => {
                let ms = 1u64 << (tries - 1).min(6);
                std::thread::sleep(std::time::Duration::from_millis(ms));
                tries += 1;
            }
            r => return r,
        }
    }
}

/// Schemas by path, shared by the fragments that name them.
type SchemaCache = std::collections::HashMap<std::ffi::OsString, Arc<crate::format::ArraySchema>>;

fn list(storage: &dyn Storage, dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(storage.list(dir)?.into_iter().map(|e| e.path).collect())
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn entry(p: PathBuf) -> Option<Entry> {
    let name = name::parse(&file_name(&p))?;
    Some(Entry { path: p, name })
}

fn sort(v: &mut [Entry]) {
    // The engine orders by the first timestamp only; the name breaks ties so
    // that the order is the same on every listing.
    v.sort_by(|a, b| (a.name.t1, &a.name.name).cmp(&(b.name.t1, &b.name.name)));
}

/// The last path component of a URI as written in a commit, ignore or
/// vacuum file (absolute before version 19, relative after).
fn uri_name(uri: &[u8]) -> String {
    let s = String::from_utf8_lossy(uri);
    s.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_string()
}

impl ArrayDirectory {
    /// The files of `__schema/__enumerations` (listed when asked: opening
    /// an array does not need them, each schema names its enumerations'
    /// files).
    pub fn enumeration_files(&self) -> Result<Vec<PathBuf>> {
        // No such folder lists as empty.
        let dir = self
            .root
            .join(hierarchy::SCHEMA)
            .join(hierarchy::ENUMERATIONS);
        list(&*self.storage, &dir)
    }

    /// Lists and classifies the array at `root`.
    pub fn open(root: impl AsRef<Path>) -> Result<Self> {
        Self::open_in(StorageRef::default(), root)
    }

    /// Lists and classifies the array at `root` of `storage`.
    ///
    /// A file listed and gone before it is read (a `.vac`, `.con` or
    /// `.ign` file that a vacuum or consolidation beside this open
    /// removed) makes the open list the array again, up to
    /// [`RELIST_ATTEMPTS`] times: the listing after a maintenance step is
    /// as complete as the one before it.
    pub fn open_in(storage: StorageRef, root: impl AsRef<Path>) -> Result<Self> {
        let root = root.as_ref();
        relisting(root, || Self::open_once(storage.clone(), root))
    }

    fn open_once(storage: StorageRef, root: &Path) -> Result<Self> {
        let root = root.to_path_buf();
        // Listed afresh: the fragments committed until now.
        storage.refresh(&root);
        if storage.ranged() {
            // An object store's listing first (the one LIST an open
            // needs, kept for what follows), so that a store that fails or
            // times out says so, rather than the array be "not a folder".
            storage.list(&root)?;
        }
        if storage.kind(&root) != Some(Kind::Folder) {
            return Err(Error::NotTileDb {
                path: root,
                what: "not a folder".into(),
            });
        }
        let mut d = ArrayDirectory {
            root: root.clone(),
            storage,
            ..Default::default()
        };
        let st = d.storage.clone();
        let st: &dyn Storage = &*st;
        let dirs = Listing::dirs(&root);
        let (listed, stamped) = Listing::settled(st, &dirs)?;
        d.stamped = stamped;
        // The enumerations' folder is listed only when asked
        // (`enumeration_files`): a schema names its enumerations' files.
        for p in listed.paths(Listing::SCHEMA) {
            if file_name(&p) != hierarchy::ENUMERATIONS {
                d.schemas.extend(entry(p));
            }
        }
        sort(&mut d.schemas);

        // The fragment names that `.wrt` markers commit.
        let mut committed: HashSet<String> = HashSet::new();
        let mut root_ok = BTreeSet::new();
        let mut root_dirs = Vec::new();
        for le in &listed.0[Listing::ROOT] {
            let p = le.path.clone();
            let n = file_name(&p);
            if le.kind == Kind::Folder {
                if let Some(e) = entry(p) {
                    root_dirs.push(e);
                }
            } else if n == hierarchy::LEGACY_SCHEMA {
                // Asked of the file itself, as a link may dangle.
                if st.kind(&p) == Some(Kind::File) {
                    d.legacy_schema = Some(p);
                }
            } else if n.ends_with(hierarchy::OK) {
                root_ok.insert(n.trim_end_matches(hierarchy::OK).to_string());
            } else if n.ends_with(hierarchy::META_FILE) {
                d.fragment_meta.extend(entry(p));
            } else if n.ends_with(hierarchy::VAC) {
                d.vacuum_files.extend(entry(p));
            }
        }
        for p in listed.paths(Listing::COMMITS) {
            let n = file_name(&p);
            if let Some(stem) = n.strip_suffix(hierarchy::WRT) {
                if name::parse(stem).is_some() {
                    committed.insert(stem.to_string());
                }
                continue;
            }
            let Some(e) = entry(p) else { continue };
            let ext = n.rfind('.').map_or("", |i| &n[i..]);
            let kind = [
                (hierarchy::DEL, &mut d.deletes),
                (hierarchy::UPD, &mut d.updates),
                (hierarchy::CON, &mut d.consolidated_commits),
                (hierarchy::IGN, &mut d.ignore_files),
                (hierarchy::VAC, &mut d.vacuum_files),
            ]
            .into_iter()
            .find(|(suffix, _)| *suffix == ext);
            if let Some((_, files)) = kind {
                files.push(e);
            }
        }
        for p in listed.paths(Listing::FRAGMENT_META) {
            if file_name(&p).ends_with(hierarchy::META_FILE) {
                d.fragment_meta.extend(entry(p));
            }
        }

        let consolidated = consolidated_names(&mut d, st, &root)?;

        let frag_dir = root.join(hierarchy::FRAGMENTS);
        let mut candidates: Vec<Entry> =
            listed.paths(Listing::FRAGMENTS).filter_map(entry).collect();
        candidates.extend(root_dirs);
        let mut vacuumed = BTreeSet::new();
        for vac in &d.vacuum_files {
            let f = st.open(&vac.path)?;
            let v: VacuumFile = decode_all(f.bytes(), &vac.path, 0, ())?;
            for l in v.entries {
                vacuumed.insert(uri_name(&l.uri));
            }
        }
        check_folders_listed(
            &root,
            &listed,
            &committed,
            &root_ok,
            &consolidated,
            &vacuumed,
        )?;
        for c in candidates {
            let n = &c.name.name;
            let in_new = c.path.parent() == Some(frag_dir.as_path());
            let is_committed = if in_new {
                committed.contains(n.as_str())
                    || (!consolidated.is_empty()
                        && consolidated.contains(&format!("{n}{}", hierarchy::WRT)))
            } else if !has_commit_markers(c.name.version) {
                c.path.join(hierarchy::FRAGMENT_METADATA).is_file()
            } else {
                root_ok.contains(n) || consolidated.contains(&format!("{n}{}", hierarchy::OK))
            };
            if !is_committed {
                d.uncommitted.push(c.path);
            } else if !vacuumed.contains(n) {
                d.fragments.push(c);
            }
        }
        sort(&mut d.fragments);

        let mut meta_vacuumed = BTreeSet::new();
        let mut meta = Vec::new();
        for p in listed.paths(Listing::META) {
            let n = file_name(&p);
            if n.ends_with(hierarchy::VAC) {
                let f = st.open(&p)?;
                let v: VacuumFile = decode_all(f.bytes(), &p, 0, ())?;
                for l in v.entries {
                    meta_vacuumed.insert(uri_name(&l.uri));
                }
            } else if !n.contains('.') {
                meta.extend(entry(p));
            }
        }
        d.metadata = meta
            .into_iter()
            .filter(|e| !meta_vacuumed.contains(&file_name(&e.path)))
            .collect();
        sort(&mut d.metadata);
        sort(&mut d.fragment_meta);
        sort(&mut d.deletes);
        sort(&mut d.updates);
        d.listed = listed;
        Ok(d)
    }

    /// Whether listing the array again now gives what it listed when it
    /// was opened, so that opening it again would give the same array:
    /// every name in its folders is the same (fragments, commits, their
    /// consolidation and vacuum files, schemas, metadata files; TileDB
    /// never changes such a file once it has its name). False when a
    /// fragment folder of a version without commit files was found
    /// uncommitted: it becomes committed by a file inside it, which no
    /// listing here shows.
    pub fn unchanged(&self) -> Result<bool> {
        if self
            .uncommitted
            .iter()
            .filter_map(|p| entry(p.clone()))
            .any(|e| !has_commit_markers(e.name.version))
        {
            return Ok(false);
        }
        let dirs = Listing::dirs(&self.root);
        // Folders unchanged since long before they were listed, with the
        // same stamps now: the same names, without listing them.
        if let Some((stamps, time)) = &self.stamped {
            let settled = stamps.iter().all(|s| s.changed_before(time - SETTLED_NS));
            if settled && Listing::stamps(&*self.storage, &dirs).as_ref() == Some(stamps) {
                return Ok(true);
            }
        }
        self.storage.refresh(&self.root);
        Ok(Listing::of(&*self.storage, &dirs)? == self.listed)
    }

    /// The delete and update commits, oldest first: the conditions a
    /// sparse read applies, in the order the engine lists them
    /// (`ArrayDirectory::delete_and_update_tiles_location`), which is the
    /// order of the condition indexes in delete metadata (`dci.tdb`). The
    /// engine's readers apply an update commit's condition as a delete's
    /// and never its values (`load_delete_and_update_conditions` in
    /// tiledb/sm/array/array_operations.cc keeps only the conditions).
    pub fn condition_commits(&self) -> Vec<&Entry> {
        let mut all: Vec<&Entry> = self.deletes.iter().chain(&self.updates).collect();
        all.sort_by(|a, b| (a.name.t1, &a.name.name).cmp(&(b.name.t1, &b.name.name)));
        all
    }

    /// The footers of the consolidated fragment metadata files (read once).
    pub fn consolidated_footers(
        &self,
        opts: &crate::ReadOptions,
    ) -> Result<Arc<ConsolidatedFooters>> {
        let mut slot = self
            .consolidated
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(c) = slot.as_ref() {
            return Ok(c.clone());
        }
        let c = Arc::new(if self.fragment_meta.is_empty() {
            ConsolidatedFooters::default()
        } else {
            ConsolidatedFooters::load(self, opts)?
        });
        *slot = Some(c.clone());
        Ok(c)
    }

    /// The schema stored at `path` (read once, then from the cache).
    pub fn schema(
        &self,
        path: &Path,
        opts: &crate::ReadOptions,
    ) -> Result<Arc<crate::format::ArraySchema>> {
        if let Some(s) = self
            .schema_cache
            .lock()
            .ok()
            .and_then(|c| c.get(path.as_os_str()).cloned())
        {
            return Ok(s);
        }
        let s = Arc::new(super::schema::read_schema_file(
            &self.storage.open(path)?,
            opts,
        )?);
        if let Ok(mut c) = self.schema_cache.lock() {
            c.insert(path.as_os_str().to_owned(), s.clone());
        }
        Ok(s)
    }

    /// The schema file with this name (`__array_schema.tdb` for fragments
    /// before version 10).
    pub fn schema_path(&self, name: &str) -> Option<PathBuf> {
        if name == hierarchy::LEGACY_SCHEMA {
            return self.legacy_schema.clone();
        }
        self.schemas
            .iter()
            .find(|e| file_name(&e.path) == name)
            .map(|e| e.path.clone())
    }

    /// The newest schema: the last in `__schema`, else `__array_schema.tdb`.
    pub fn latest_schema(&self) -> Option<PathBuf> {
        self.schemas
            .last()
            .map(|e| e.path.clone())
            .or_else(|| self.legacy_schema.clone())
    }
}

/// Checks that every fragment the listing commits, and no vacuum file
/// hides, has its folder listed; else the error [`relisting`] takes for a
/// file gone since it was listed (at most [`RELIST_ATTEMPTS`] listings, and
/// then the error names the folder).
///
/// Why that is enough: every writer creates a fragment's folder before its
/// commit, and every vacuum (of fragments, or `delete_fragments`) removes
/// the commit before the folder (an ignore file stands for a commit that a
/// consolidated commits file holds). `__commits` (and the array's folder,
/// which holds the commits before version 12) is listed before
/// `__fragments` ([`Listing`]; an object store's one LIST pages through
/// the keys in that order too). So a commit listed at the first listing
/// had its folder then, and its folder missing from the later listing means
/// that it was removed in between: by a vacuum, whose consolidation
/// committed after `__commits` was listed (its new fragment reads as an
/// uncommitted folder here). Taken as it is, such a listing would hold
/// neither the new fragment nor the ones it replaced. Listing `__fragments`
/// first would not help: a consolidation that writes its fragment after
/// that listing and commits it before `__commits` is listed makes its
/// vacuum file hide the old fragments while the new one has no folder
/// listed. A folder listed without a commit is harmless either way (a write
/// or consolidation not committed when `__commits` was listed).
fn check_folders_listed(
    root: &Path,
    listed: &Listing,
    committed: &HashSet<String>,
    root_ok: &BTreeSet<String>,
    consolidated: &BTreeSet<String>,
    vacuumed: &BTreeSet<String>,
) -> Result<()> {
    let folders = |which: usize| -> HashSet<String> {
        listed.0[which]
            .iter()
            .filter(|e| e.kind == Kind::Folder)
            .map(|e| file_name(&e.path))
            .collect()
    };
    let with_suffix = |suffix: &'static str| {
        consolidated
            .iter()
            .filter_map(move |c| c.strip_suffix(suffix))
    };
    let in_fragments = committed
        .iter()
        .map(String::as_str)
        .chain(with_suffix(hierarchy::WRT));
    let in_root = root_ok
        .iter()
        .map(String::as_str)
        .chain(with_suffix(hierarchy::OK));
    let places = [
        (root.join(hierarchy::FRAGMENTS), folders(Listing::FRAGMENTS)),
        (root.to_path_buf(), folders(Listing::ROOT)),
    ];
    let names: [Box<dyn Iterator<Item = &str>>; 2] = [Box::new(in_fragments), Box::new(in_root)];
    for ((dir, listed), names) in places.iter().zip(names) {
        for n in names {
            if !listed.contains(n) && !vacuumed.contains(n) {
                return Err(Error::io(
                    &dir.join(n),
                    std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        "a fragment committed when the array was listed, its folder not listed \
                         after (removed by a vacuum beside the open, or missing)",
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The commits the consolidated commit files of `d` name, less the ignored
/// ones; a delete commit one of them carries (with its bytes) is added to
/// `d`'s deletes.
fn consolidated_names(
    d: &mut ArrayDirectory,
    st: &dyn Storage,
    root: &Path,
) -> Result<BTreeSet<String>> {
    let mut ignored = BTreeSet::new();
    for ign in &d.ignore_files {
        let f = st.open(&ign.path)?;
        let lines: IgnoreFile = decode_all(f.bytes(), &ign.path, 0, ())?;
        for l in lines.entries {
            ignored.insert(uri_name(&l.uri));
        }
    }
    let mut consolidated = BTreeSet::new();
    for con in &d.consolidated_commits {
        let f = st.open(&con.path)?;
        let c: ConsolidatedCommits = decode_all(f.bytes(), &con.path, 0, ())?;
        for e in c.entries {
            let n = uri_name(&e.uri);
            if ignored.contains(&n) {
                continue;
            }
            // A delete commit travels in the file with its bytes; the
            // engine applies it whether or not its own file is left.
            if let Some(tile) = e.delete_tile {
                let on_disk = d.deletes.iter().any(|x| file_name(&x.path) == n);
                if !on_disk && !d.delete_tiles.contains_key(&n) {
                    if let Some(en) = entry(root.join(hierarchy::COMMITS).join(&n)) {
                        d.deletes.push(en);
                        d.delete_tiles.insert(n.clone(), tile);
                    }
                }
            }
            consolidated.insert(n);
        }
    }
    Ok(consolidated)
}
