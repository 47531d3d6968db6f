//! Storage: the one seam every read goes through ([`Storage`]: named
//! objects, listed and read), local files mapped ([`LocalStorage`]; with
//! [`writeback`], the only place with `unsafe`) and objects held in memory
//! ([`MemoryStorage`]).
//!
//! Every byte the crate reads from an array comes from a [`MappedFile`]; tiles
//! and tables borrow from it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::error::{Error, Result};

#[cfg(feature = "object-store")]
pub mod limits;
#[cfg(feature = "object-store")]
pub mod object;
#[cfg(feature = "object-store")]
mod object_cache;
#[cfg(feature = "object-store")]
mod object_times;
pub mod writeback;

enum Bytes {
    /// The mapping, and the file for [`MappedFile::copy_out`].
    Map(memmap2::Mmap, std::fs::File),
    /// Bytes shared with a [`MemoryStorage`].
    Shared(std::sync::Arc<[u8]>),
    /// Zero-length files cannot be mapped on every platform.
    Empty,
    /// Bytes held in memory (tests, fuzzing, data that is not a file).
    Owned(Vec<u8>),
}

/// What a path that is neither a file nor a folder is, for messages.
fn special_kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    let _ = t;
    "neither a file nor a folder"
}

/// The error for a path inside an array that is not a regular file or a
/// folder: opening a FIFO waits for a writer forever, and a device or a
/// socket reads without end.
fn not_regular(path: &Path, t: std::fs::FileType) -> Error {
    Error::NotTileDb {
        path: path.to_path_buf(),
        what: format!(
            "not a regular file ({}); an array holds only files and folders",
            special_kind(t)
        ),
    }
}

/// Checks that `path` is a regular file (or a link to one) before it is
/// opened; anything else is an error naming it.
pub fn regular_file(path: &Path) -> Result<std::fs::Metadata> {
    let m = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if m.is_dir() {
        return Err(Error::NotTileDb {
            path: path.to_path_buf(),
            what: "a folder where a file was expected".into(),
        });
    }
    if !m.is_file() {
        return Err(not_regular(path, m.file_type()));
    }
    Ok(m)
}

/// The bytes of the regular file `path` (anything else is an error, see
/// [`regular_file`]).
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    regular_file(path)?;
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// A read-only file mapped into memory.
pub struct MappedFile {
    path: PathBuf,
    bytes: Bytes,
}

impl std::fmt::Debug for MappedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MappedFile")
            .field("path", &self.path)
            .field("len", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

impl MappedFile {
    /// Files up to this size are read into memory instead of mapped.
    pub const READ_BELOW: u64 = 64 * 1024;

    /// Maps `path` read-only; it must be a regular file (a FIFO, device or
    /// socket is an error naming it, not a read that never ends).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        // The size as the check found it (no second `fstat`): a file that
        // grows after it is read up to this size, one that shrinks fails
        // the read; a larger file is mapped whole.
        let len = regular_file(&path)?.len();
        let file = std::fs::File::open(&path).map_err(|e| Error::io(&path, e))?;
        let bytes = if len == 0 {
            Bytes::Empty
        } else if len <= Self::READ_BELOW {
            // Mapping costs more than reading for a few kilobytes (fragment
            // metadata, schemas, commit files): read those.
            // One read of the size just taken (`read_to_end` would ask the
            // size and position again and read once more for the end).
            let mut buf = vec![0; len as usize];
            std::io::Read::read_exact(&mut (&file), &mut buf).map_err(|e| Error::io(&path, e))?;
            Bytes::Owned(buf)
        } else {
            // SAFETY: the map is read-only and private to this process. TileDB
            // never rewrites a committed file in place (every write creates a
            // new file), so the bytes do not change under the map while the
            // array is open; a file truncated by someone else would raise
            // SIGBUS, which is the one hazard of mapping and the reason this
            // is the only module with `unsafe`.
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
            Bytes::Map(map, file)
        };
        Ok(MappedFile { path, bytes })
    }

    /// Bytes in memory presented as the file `path` (which need not exist):
    /// for fuzzing and for data that does not come from a file.
    pub fn from_vec(path: impl AsRef<Path>, bytes: Vec<u8>) -> Self {
        MappedFile {
            path: path.as_ref().to_path_buf(),
            bytes: Bytes::Owned(bytes),
        }
    }

    /// Whether the bytes are a memory map of the file (files above
    /// [`MappedFile::READ_BELOW`] bytes), not a copy read into memory.
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Bytes::Map(..))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// All bytes of the file.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Map(m, _) => m,
            Bytes::Shared(b) => b,
            Bytes::Empty => &[],
            Bytes::Owned(v) => v,
        }
    }

    /// Copies `part`, bytes of this file (a slice of [`MappedFile::bytes`]),
    /// into `out` of the same length by reading the file rather than the
    /// mapping: the kernel copies from its page cache at memory speed, and
    /// no page of the mapping is faulted in. False (and `out` untouched)
    /// where the bytes are not a mapped file's, or the read fails: then the
    /// caller copies from `part`.
    pub fn copy_out(&self, part: &[u8], out: &mut [u8]) -> bool {
        #[cfg(unix)]
        if let Bytes::Map(m, file) = &self.bytes {
            use std::os::unix::fs::FileExt;
            if let Some(at) = offset_in(m, part, out) {
                let mut done = 0;
                while done < out.len() {
                    match file.read_at(&mut out[done..], (at + done) as u64) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => done += k,
                    }
                }
                if done == out.len() {
                    return true;
                }
                // A short read (the file shrank): copy what the map holds.
                out.copy_from_slice(part);
                return true;
            }
        }
        let _ = (part, out);
        false
    }

    /// [`MappedFile::copy_out`] of several parts of this file at once, each
    /// `(part, out)` with `out` as long as `part`, the parts in the file's
    /// order: the parts and the few bytes between them (up to
    /// [`MappedFile::GAP`], read into a scratch buffer and dropped) are read
    /// with one `preadv` per run of at most [`MappedFile::IOVECS`] buffers,
    /// not one `pread` each. False (and nothing written) where the bytes are
    /// not a mapped file's or a part is not the file's; a read that comes
    /// short is made again part by part.
    pub fn copy_out_parts(&self, parts: &mut [(&[u8], &mut [u8])]) -> bool {
        #[cfg(target_os = "linux")]
        if let Bytes::Map(m, file) = &self.bytes {
            let mut at = Vec::with_capacity(parts.len());
            for (part, out) in parts.iter() {
                let Some(a) = offset_in(m, part, out) else {
                    return false;
                };
                at.push(a);
            }
            let mut first = 0;
            while first < parts.len() {
                // A run: each part starts at most GAP bytes after the last ends.
                let mut end = first + 1;
                let mut bufs = 1;
                while end < parts.len() {
                    let prev_end = at[end - 1] + parts[end - 1].0.len();
                    let gap = at[end].wrapping_sub(prev_end);
                    let more = 1 + usize::from(gap > 0);
                    if at[end] < prev_end || gap > Self::GAP || bufs + more > Self::IOVECS {
                        break;
                    }
                    bufs += more;
                    end += 1;
                }
                let run = &mut parts[first..end];
                if !read_run(file, &at[first..end], run) {
                    for (part, out) in run.iter_mut() {
                        self.copy_out(part, out);
                    }
                }
                first = end;
            }
            return true;
        }
        let _ = parts;
        false
    }

    /// The widest gap between two parts that [`MappedFile::copy_out_parts`]
    /// reads through rather than starting another call.
    pub const GAP: usize = 4096;

    /// Buffers (parts and gaps) of one `preadv`, at most (Linux's `IOV_MAX`).
    pub const IOVECS: usize = 1024;

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }
}

/// Where `part` starts in the mapping `m`, when it lies inside it and
/// `out` is as long as it ([`MappedFile::copy_out`]'s condition).
#[cfg(unix)]
fn offset_in(m: &[u8], part: &[u8], out: &[u8]) -> Option<usize> {
    let at = (part.as_ptr() as usize).wrapping_sub(m.as_ptr() as usize);
    (part.len() == out.len() && at <= m.len() && part.len() <= m.len() - at).then_some(at)
}

/// Asks the kernel to fault in every whole page of `buf` for writing in one
/// call (Linux `MADV_POPULATE_WRITE`) rather than one page fault per page
/// as it is first written: for fresh memory (a zeroed allocation the
/// kernel has not handed pages to yet) about to be written whole. Only a
/// hint: the bytes are left as they are, and a failure (a kernel before
/// 5.14) is ignored. Elsewhere it does nothing.
pub fn populate(buf: &mut [u8]) {
    #[cfg(target_os = "linux")]
    {
        static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        // SAFETY: sysconf reads no memory of ours.
        let page = *PAGE.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => 4096,
        });
        let start = buf.as_mut_ptr() as usize;
        let first = start.div_ceil(page) * page;
        let end = (start + buf.len()) / page * page;
        if end > first {
            // SAFETY: the range is whole pages inside `buf`, which is
            // borrowed mutably; MADV_POPULATE_WRITE only makes the pages
            // present and writable, leaving their bytes unchanged (fresh
            // pages read as the zeros they hold already).
            let _ = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    end - first,
                    libc::MADV_POPULATE_WRITE,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

/// A zeroed buffer of `len` bytes about to be written whole: a large one
/// is made present in one call ([`populate`]), so that filling it costs
/// no page fault per page.
#[cfg(feature = "object-store")]
pub(crate) fn fresh_buffer(len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    if len >= 1 << 20 {
        populate(&mut v);
    }
    v
}

/// Reads `parts` (at file offsets `at`, ascending, gaps of at most
/// [`MappedFile::GAP`] between them) with one `preadv`; false when the read
/// fails or comes short (the outs may then hold part of the bytes).
#[cfg(target_os = "linux")]
fn read_run(file: &std::fs::File, at: &[usize], parts: &mut [(&[u8], &mut [u8])]) -> bool {
    use std::os::fd::AsRawFd;
    let mut gap = [0u8; MappedFile::GAP];
    let gap_ptr = gap.as_mut_ptr();
    let mut iov: Vec<libc::iovec> = Vec::with_capacity(parts.len() * 2);
    let mut want = 0usize;
    let mut next = at[0];
    for (a, (_, out)) in at.iter().zip(parts.iter_mut()) {
        let g = a - next;
        if g > 0 {
            iov.push(libc::iovec {
                iov_base: gap_ptr.cast(),
                iov_len: g,
            });
        }
        iov.push(libc::iovec {
            iov_base: out.as_mut_ptr().cast(),
            iov_len: out.len(),
        });
        want += g + out.len();
        next = a + out.len();
    }
    let (Ok(offset), Ok(count)) = (i64::try_from(at[0]), i32::try_from(iov.len())) else {
        return false;
    };
    // SAFETY: every iovec points into a buffer borrowed mutably for this
    // call (an out of `parts`, or `gap`, which several iovecs may share:
    // its bytes are dropped) and is no longer than that buffer; the kernel
    // writes at most `iov_len` bytes into each, and the descriptor is open
    // while `file` is borrowed.
    let got = unsafe { libc::preadv(file.as_raw_fd(), iov.as_ptr(), count, offset) };
    usize::try_from(got).is_ok_and(|g| g == want)
}

/// What a name in a listing is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file (an object, in a bucket).
    File,
    /// A folder (a common prefix, in a bucket).
    Folder,
}

/// One name of a folder's listing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListEntry {
    /// The object's path (the folder's path joined with its name).
    pub path: PathBuf,
    /// File or folder.
    pub kind: Kind,
}

/// Where an array's objects live: the reader lists folders and reads named
/// objects through this trait only, so an object store can stand behind it
/// without the reader changing.
pub trait Storage: Send + Sync + std::fmt::Debug {
    /// The object at `path`, whole (a local file is mapped).
    fn open(&self, path: &Path) -> Result<MappedFile>;

    /// Bytes `range` of the object at `path` (an object store fetches only
    /// those).
    fn read_range(&self, path: &Path, range: std::ops::Range<u64>) -> Result<Vec<u8>> {
        let f = self.open(path)?;
        let b = f.bytes();
        let end = range.end.min(b.len() as u64);
        Ok(b[range.start.min(end) as usize..end as usize].to_vec())
    }

    /// Several byte ranges, each `(object, range)`, in the order asked (an
    /// object store fetches them concurrently; this default reads them one
    /// after another with [`Storage::read_range`]).
    fn read_ranges(&self, requests: &[(PathBuf, std::ops::Range<u64>)]) -> Result<Vec<Vec<u8>>> {
        requests
            .iter()
            .map(|(path, range)| self.read_range(path, range.clone()))
            .collect()
    }

    /// [`Storage::read_ranges`], each range as a [`Piece`]: an object
    /// store that fetched several ranges in one request hands out parts of
    /// its buffer, not copies.
    fn read_pieces(&self, requests: &[(PathBuf, std::ops::Range<u64>)]) -> Result<Vec<Piece>> {
        Ok(self
            .read_ranges(requests)?
            .into_iter()
            .map(Piece::from)
            .collect())
    }

    /// Several byte ranges, each `(object, range)`, handed to `sink(index
    /// of the range, bytes)` in pieces as they arrive: each range's pieces
    /// in order, the ranges' pieces interleaved (an object store fetches
    /// them concurrently, near ranges merged as in
    /// [`Storage::read_ranges`], and hands each piece on as it comes, so
    /// that nothing holds a range whole). A range past the object's end
    /// gets fewer bytes. The first error of `sink` ends the read. This
    /// default reads the ranges one after another with
    /// [`Storage::read_range`], each in one piece.
    fn read_streamed(
        &self,
        requests: &[(PathBuf, std::ops::Range<u64>)],
        sink: &mut (dyn FnMut(usize, &[u8]) -> Result<()> + Send),
    ) -> Result<()> {
        for (i, (path, range)) in requests.iter().enumerate() {
            sink(i, &self.read_range(path, range.clone())?)?;
        }
        Ok(())
    }

    /// The size in bytes of the object at `path` (an object store answers
    /// from its listing when it has one; this default opens the object).
    fn size(&self, path: &Path) -> Result<u64> {
        Ok(self.open(path)?.len())
    }

    /// The names in the folder `dir`, sorted by name; empty when there is
    /// no such folder.
    fn list(&self, dir: &Path) -> Result<Vec<ListEntry>>;

    /// What `path` is, if anything.
    fn kind(&self, path: &Path) -> Option<Kind>;

    /// Whether data files should be read tile by tile, and fragment
    /// metadata footer first then generic tile by generic tile, with
    /// [`Storage::read_range`] (object stores, where a request costs more
    /// than a copy) rather than opened whole (mapped local files).
    fn ranged(&self) -> bool {
        false
    }

    /// For a [`Storage::ranged`] storage: how many bytes of tiles a read
    /// fetches ahead of decoding them, at most (a read fetches the tiles of
    /// a part of its cells together, decodes them, lets them go, and goes
    /// on with the next part). Not used for local files.
    fn read_ahead(&self) -> u64 {
        u64::MAX
    }

    /// Forgets what this storage remembers of the folder `dir` and below
    /// that may have changed since (an object store's listings), so that
    /// what is listed next is listed afresh: every open of an array starts
    /// with it, and sees the fragments committed before it. Nothing for
    /// storages that remember nothing.
    fn refresh(&self, dir: &Path) {
        let _ = dir;
    }

    /// What identifies the folder `dir` and its last change, where the
    /// storage keeps such a thing (a local folder's inode and its
    /// modification and change times, which every name added to it,
    /// removed from it or renamed in it moves on): two equal stamps of a
    /// folder whose times are well in the past say that it lists the same
    /// names. `None` where there is none (objects in memory, object
    /// stores): its listing is compared instead.
    fn stamp(&self, dir: &Path) -> Option<FolderStamp> {
        let _ = dir;
        None
    }
}

/// A folder's identity and the times of its last change
/// ([`Storage::stamp`]); a folder that is not there has a stamp too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FolderStamp {
    /// Device and inode; (0, 0) for no folder.
    id: (u64, u64),
    /// The last change of its entries and of the folder itself
    /// (nanoseconds since the epoch, as the file system keeps them).
    modified: i128,
    changed: i128,
}

impl FolderStamp {
    /// The stamp of a path where no folder is.
    pub const NONE: FolderStamp = FolderStamp {
        id: (0, 0),
        modified: 0,
        changed: 0,
    };

    /// Whether the folder's last change lies before `time` (nanoseconds
    /// since the epoch): no change after `time` can then give it the same
    /// stamp again, whatever the file system's clock granularity.
    pub fn changed_before(&self, time: i128) -> bool {
        self.modified.max(self.changed) < time
    }
}

/// Bytes of a range fetched from a storage: a part of a buffer that other
/// ranges fetched in the same request may share.
#[derive(Debug, Clone, Default)]
pub struct Piece {
    buf: Arc<Vec<u8>>,
    range: std::ops::Range<usize>,
}

impl Piece {
    /// Bytes `range` of `buf` (clamped to its length).
    pub fn part(buf: Arc<Vec<u8>>, range: std::ops::Range<usize>) -> Self {
        let end = range.end.min(buf.len());
        let start = range.start.min(end);
        Piece {
            buf,
            range: start..end,
        }
    }

    /// The bytes, as a vector of their own (no copy when the piece is the
    /// whole buffer and nothing else shares it).
    pub fn into_vec(self) -> Vec<u8> {
        if self.range.start == 0 && self.range.end == self.buf.len() {
            return Arc::try_unwrap(self.buf).unwrap_or_else(|b| b.to_vec());
        }
        self.buf[self.range].to_vec()
    }
}

impl From<Vec<u8>> for Piece {
    fn from(v: Vec<u8>) -> Self {
        let len = v.len();
        Piece {
            buf: Arc::new(v),
            range: 0..len,
        }
    }
}

impl std::ops::Deref for Piece {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }
}

/// Local files, mapped.
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalStorage;

impl Storage for LocalStorage {
    fn open(&self, path: &Path) -> Result<MappedFile> {
        MappedFile::open(path)
    }

    fn size(&self, path: &Path) -> Result<u64> {
        Ok(std::fs::metadata(path)
            .map_err(|e| Error::io(path, e))?
            .len())
    }

    fn list(&self, dir: &Path) -> Result<Vec<ListEntry>> {
        // No folder there (nothing, or a file): nothing listed. Asked of
        // the listing itself rather than by a `stat` before it.
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(_) if !dir.is_dir() => return Ok(Vec::new()),
            Err(e) => return Err(Error::io(dir, e)),
        };
        let mut out = Vec::new();
        for e in entries {
            let e = e.map_err(|e| Error::io(dir, e))?;
            let mut t = e.file_type().map_err(|err| Error::io(&e.path(), err))?;
            if t.is_symlink() {
                // What the link points at (a dangling link lists as a file
                // and fails when opened).
                if let Ok(m) = std::fs::metadata(e.path()) {
                    t = m.file_type();
                }
            }
            if !t.is_dir() && !t.is_file() && !t.is_symlink() {
                return Err(not_regular(&e.path(), t));
            }
            let is_dir = t.is_dir();
            out.push((
                e.file_name(),
                ListEntry {
                    path: e.path(),
                    kind: if is_dir { Kind::Folder } else { Kind::File },
                },
            ));
        }
        // By name (cheaper than comparing whole paths component by component).
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(out.into_iter().map(|(_, e)| e).collect())
    }

    fn kind(&self, path: &Path) -> Option<Kind> {
        let m = std::fs::metadata(path).ok()?;
        Some(if m.is_dir() { Kind::Folder } else { Kind::File })
    }

    #[cfg(unix)]
    fn stamp(&self, dir: &Path) -> Option<FolderStamp> {
        use std::os::unix::fs::MetadataExt;
        match std::fs::metadata(dir) {
            // A file where the folder would be lists as no folder, as
            // `list` takes it.
            Ok(m) if !m.is_dir() => Some(FolderStamp::NONE),
            Ok(m) => {
                let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
                Some(FolderStamp {
                    id: (m.dev(), m.ino()),
                    modified: ns(m.mtime(), m.mtime_nsec()),
                    changed: ns(m.ctime(), m.ctime_nsec()),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(FolderStamp::NONE),
            Err(_) => None,
        }
    }
}

/// Objects held in memory, by path: for tests, fuzzing, and arrays that
/// do not come from files. Folders are the prefixes of the paths.
#[derive(Debug, Default)]
pub struct MemoryStorage {
    objects: RwLock<BTreeMap<PathBuf, Arc<[u8]>>>,
}

impl MemoryStorage {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStorage::default()
    }

    /// Puts `bytes` at `path`.
    pub fn put(&self, path: impl Into<PathBuf>, bytes: Vec<u8>) {
        self.objects
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.into(), bytes.into());
    }

    /// Copies every file below the local folder `from` to `to` in the store.
    pub fn put_folder(&self, from: &Path, to: &Path) -> Result<()> {
        for e in LocalStorage.list(from)? {
            let name = e.path.file_name().unwrap_or_default();
            match e.kind {
                Kind::Folder => self.put_folder(&e.path, &to.join(name))?,
                Kind::File => {
                    let bytes = read_file(&e.path)?;
                    self.put(to.join(name), bytes);
                }
            }
        }
        Ok(())
    }
}

impl Storage for MemoryStorage {
    fn open(&self, path: &Path) -> Result<MappedFile> {
        let objects = self.objects.read().unwrap_or_else(|e| e.into_inner());
        match objects.get(path) {
            Some(b) => Ok(MappedFile {
                path: path.to_path_buf(),
                bytes: Bytes::Shared(b.clone()),
            }),
            None => Err(Error::io(
                path,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such object"),
            )),
        }
    }

    fn list(&self, dir: &Path) -> Result<Vec<ListEntry>> {
        let objects = self.objects.read().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<ListEntry> = Vec::new();
        for p in objects.keys() {
            let Ok(rest) = p.strip_prefix(dir) else {
                continue;
            };
            let mut parts = rest.components();
            let Some(first) = parts.next() else { continue };
            let path = dir.join(first);
            let kind = if parts.next().is_some() {
                Kind::Folder
            } else {
                Kind::File
            };
            if out.last().is_none_or(|l| l.path != path) {
                out.push(ListEntry { path, kind });
            }
        }
        Ok(out)
    }

    fn kind(&self, path: &Path) -> Option<Kind> {
        let objects = self.objects.read().unwrap_or_else(|e| e.into_inner());
        if objects.contains_key(path) {
            return Some(Kind::File);
        }
        objects
            .range(path.to_path_buf()..)
            .next()
            .filter(|(p, _)| p.starts_with(path))
            .map(|_| Kind::Folder)
    }
}

/// The storage an array is read from (local files unless said otherwise).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StorageRef(pub Arc<dyn Storage>);

impl StorageRef {
    /// The storage `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Self {
        StorageRef(storage)
    }
}

impl Default for StorageRef {
    fn default() -> Self {
        StorageRef(Arc::new(LocalStorage))
    }
}

impl std::ops::Deref for StorageRef {
    type Target = dyn Storage;
    fn deref(&self) -> &(dyn Storage + 'static) {
        &*self.0
    }
}

#[cfg(test)]
mod tests {
    use super::MappedFile;

    #[test]
    fn copy_out_reads_the_part_from_the_file() {
        let dir =
            std::env::temp_dir().join(format!("tiledb-codec-copy-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let bytes: Vec<u8> = (0..(MappedFile::READ_BELOW as usize * 3))
            .map(|i| (i * 7) as u8)
            .collect();
        std::fs::write(&path, &bytes).unwrap();
        let f = MappedFile::open(&path).unwrap();
        assert!(f.is_mapped());
        let part = &f.bytes()[1000..150_000];
        let mut out = vec![0u8; part.len()];
        assert!(f.copy_out(part, &mut out));
        assert_eq!(out, &bytes[1000..150_000]);
        // A slice that is not the file's bytes, or a length that differs.
        let other = vec![1u8; 10];
        assert!(!f.copy_out(&other, &mut [0u8; 10]));
        assert!(!f.copy_out(part, &mut [0u8; 10]));
        // Bytes in memory are never read from a file.
        let m = MappedFile::from_vec("x", bytes.clone());
        assert!(!m.copy_out(&m.bytes()[..10], &mut [0u8; 10]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn copy_out_parts_reads_parts_across_gaps() {
        let dir = std::env::temp_dir().join(format!(
            "tiledb-codec-copy-out-parts-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let bytes: Vec<u8> = (0..400_000usize).map(|i| (i * 13 + 5) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let f = MappedFile::open(&path).unwrap();
        let b = f.bytes();
        // Adjacent parts, a 12-byte gap, a gap wider than GAP (a second
        // call) and a last part of one byte.
        let ranges = [
            100..70_000,
            70_000..90_000,
            90_012..200_000,
            200_000 + MappedFile::GAP + 1..300_000,
            399_999..400_000,
        ];
        let mut outs: Vec<Vec<u8>> = ranges.iter().map(|r| vec![0u8; r.len()]).collect();
        let mut parts: Vec<(&[u8], &mut [u8])> = ranges
            .iter()
            .zip(outs.iter_mut())
            .map(|(r, o)| (&b[r.clone()], &mut o[..]))
            .collect();
        assert!(f.copy_out_parts(&mut parts));
        for (r, o) in ranges.iter().zip(&outs) {
            assert_eq!(&o[..], &bytes[r.clone()], "{r:?}");
        }
        // A part that is not the file's, or an out of another length:
        // nothing written.
        let other = [7u8; 10];
        let mut out = [0u8; 10];
        assert!(!f.copy_out_parts(&mut [(&other[..], &mut out[..])]));
        let mut short = [0u8; 5];
        let mut first = [0u8; 10];
        assert!(!f.copy_out_parts(&mut [(&b[..10], &mut first[..]), (&b[10..20], &mut short[..])]));
        assert_eq!(first, [0u8; 10]);
        // Bytes in memory are never read from a file.
        let m = MappedFile::from_vec("x", bytes.clone());
        assert!(!m.copy_out_parts(&mut [(&m.bytes()[..10], &mut out[..])]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn populate_leaves_the_bytes() {
        let mut fresh = vec![0u8; 3 << 20];
        super::populate(&mut fresh[5..]);
        assert!(fresh.iter().all(|b| *b == 0));
        let mut written: Vec<u8> = (0..(1usize << 20)).map(|i| (i * 31) as u8).collect();
        super::populate(&mut written[..]);
        assert!(written
            .iter()
            .enumerate()
            .all(|(i, b)| *b == (i * 31) as u8));
        // Less than a page, and nothing.
        super::populate(&mut written[1..100]);
        super::populate(&mut []);
    }

    #[test]
    #[cfg(feature = "object-store")]
    fn fresh_buffers_are_zeroed_and_as_long_as_asked() {
        for len in [0, 1, 4095, (1 << 20) - 1, 1 << 20, (3 << 20) + 7] {
            let b = super::fresh_buffer(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|x| *x == 0), "{len}");
        }
    }
}
