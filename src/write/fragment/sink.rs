//! The data files of a fragment, appended to on a thread of their own: the
//! writer hands over each filtered tile's bytes and goes on making and
//! filtering the next tiles while the disk takes these.
//!
//! Each file goes through a staging buffer aligned to 4 KiB and, where the
//! file system allows it (Linux, `O_DIRECT`), straight to the disk without
//! passing through the page cache: copying into fresh page-cache pages costs
//! more CPU than the whole rest of an unfiltered write, and the sync before
//! the commit then has nothing left to write. Elsewhere (or when the file
//! system refuses direct I/O) the staged bytes are written through the page
//! cache and their write-back is started as they go. Either way the file
//! holds exactly the bytes appended, and nothing counts until the writer
//! syncs every file and commits.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::filters::pipeline::{pieces_to_vec, TilePiece};
use crate::storage::writeback::start_writeback;
use crate::write::error::{WriteError, WriteResult};

/// A filtered tile's bytes: pieces in order, each bytes of its own or a
/// range of `raw`, the unfiltered tile (chunks an empty pipeline leaves as
/// they are go to the file from there, copied once).
#[derive(Default)]
pub(super) struct TileBytes {
    pub(super) pieces: Vec<TilePiece>,
    pub(super) raw: Vec<u8>,
}

impl TileBytes {
    pub(super) fn from_vec(v: Vec<u8>) -> Self {
        TileBytes {
            pieces: vec![TilePiece::Bytes(v)],
            raw: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.pieces.iter().map(TilePiece::len).sum()
    }

    /// The tile's bytes, piece after piece, its [`TilePiece::Raw`] ranges
    /// taken from `raw` (the unfiltered tile, wherever it is): what goes
    /// into the file.
    pub(super) fn slices<'a>(&'a self, raw: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
        self.pieces.iter().map(move |p| match p {
            TilePiece::Bytes(b) => b.as_slice(),
            TilePiece::Raw(a, b) => &raw[*a..*b],
        })
    }

    pub(super) fn to_vec(&self) -> Vec<u8> {
        pieces_to_vec(&self.pieces, &self.raw)
    }

    /// Whether a piece is a range of the unfiltered tile.
    pub(super) fn uses_raw(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, TilePiece::Raw(..)))
    }
}

/// Alignment of direct I/O: offsets, lengths and memory.
const ALIGN: usize = 4096;

/// One aligned block of a staging buffer.
#[derive(Clone, FromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C, align(4096))]
struct Block([u8; ALIGN]);

/// One data file being written: its files (page cache, and direct I/O while
/// the file system takes it), shared by the I/O threads.
pub(super) struct OutFile {
    pub(super) path: PathBuf,
    file: File,
    direct: Option<File>,
    /// Whether direct I/O is still used (cleared when the file system
    /// refuses it).
    use_direct: AtomicBool,
    /// Bytes whose write-back has been started (page-cache writes).
    started: Mutex<u64>,
}

impl OutFile {
    /// Creates the file (it must not exist).
    pub(super) fn create(path: PathBuf) -> WriteResult<Self> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| WriteError::io(&path, e))?;
        let direct = open_direct(&path);
        Ok(OutFile {
            use_direct: AtomicBool::new(direct.is_some()),
            direct,
            path,
            file,
            started: Mutex::new(0),
        })
    }

    /// Writes `bytes[..len]` at `offset`; `bytes` is a whole number of
    /// blocks, zeros past `len`, which direct I/O writes and then cuts off
    /// (only the last write of a file is not whole blocks).
    /// Several threads may write one file at once, each its own range.
    fn write(&self, bytes: &[u8], len: usize, offset: u64) -> WriteResult<()> {
        if let (Some(d), true) = (&self.direct, self.use_direct.load(Ordering::Relaxed)) {
            match write_at(d, bytes, offset) {
                Ok(()) => {
                    if len != bytes.len() {
                        // The last write of the file: nothing is written
                        // past it.
                        self.file
                            .set_len(offset + len as u64)
                            .map_err(|e| WriteError::io(&self.path, e))?;
                    }
                    return Ok(());
                }
                // The file system takes no direct I/O after all: the page
                // cache from here on.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    self.use_direct.store(false, Ordering::Relaxed)
                }
                Err(e) => return Err(WriteError::io(&self.path, e)),
            }
        }
        write_at(&self.file, &bytes[..len], offset).map_err(|e| WriteError::io(&self.path, e))?;
        let end = offset + len as u64;
        let mut started = self.started.lock().unwrap_or_else(|p| p.into_inner());
        if end > *started && end - *started >= 4 << 20 {
            start_writeback(&self.file, *started, end - *started);
            *started = end;
        }
        Ok(())
    }

    /// Syncs the file to the disk.
    pub(super) fn sync(&self) -> WriteResult<()> {
        self.file
            .sync_all()
            .map_err(|e| WriteError::io(&self.path, e))
    }
}

/// The file opened again for direct I/O, where the platform and the file
/// system allow it.
fn open_direct(path: &std::path::Path) -> Option<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_DIRECT)
            .open(path)
            .ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

fn write_at(file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = file;
        f.seek(SeekFrom::Start(offset))?;
        f.write_all(bytes)
    }
}

/// A staging buffer: whole aligned blocks.
type Stage = Vec<Block>;

/// A full staging buffer on its way to a file.
struct IoJob {
    file: usize,
    stage: Stage,
    len: usize,
    offset: u64,
}

/// The bytes of one tile of every field: `(file, bytes)` in the order they
/// go into the files.
pub(super) type Pieces = Vec<(usize, TileBytes)>;

/// Tiles in flight to the files at most (each holds one filtered tile of
/// every field).
const QUEUED: usize = 2;

/// Staging buffers beyond one per file: written while the others fill.
const SPARE_STAGES: usize = 3;

/// Threads writing full staging buffers: two, so that the disk has the
/// next write queued while a thread that finished one waits for a core (on
/// a busy machine that wait was a quarter of each 4 MiB write).
const IO_THREADS: usize = 2;

/// The data files and the threads that write them: one copies each tile's
/// bytes into a file's staging buffer, [`IO_THREADS`] others write full
/// buffers, so that copying and writing overlap. Tiles of the caller's own
/// columns, kept as they are, are copied into the staging buffers by the
/// writer's thread instead ([`Sink::append_borrowed`]): once, from where
/// they are.
pub(super) struct Sink {
    tx: Option<SyncSender<Pieces>>,
    thread: Option<JoinHandle<WriteResult<Vec<OutFile>>>>,
    /// Unfiltered tiles' buffers, staged: for the next tiles.
    pub(super) recycled: Receiver<Vec<u8>>,
    /// The staging buffers, shared with the stage thread.
    shared: Arc<Shared>,
    /// Tiles handed to the stage thread so far.
    handed: u64,
}

/// The staging side, taken in turns by the stage thread (tiles handed
/// over) and the writer's thread (tiles copied from where they are).
struct Shared {
    state: Mutex<StageState>,
    /// Signalled when the stage thread has staged a tile, or stopped.
    turn: Condvar,
}

struct StageState {
    /// Taken by the stage thread when the tiles end.
    staging: Option<Staging>,
    /// Tiles the stage thread has staged.
    staged: u64,
    /// The stage thread takes no more tiles (it stopped, or the writer's
    /// thread failed to stage one).
    stopped: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, StageState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Marks the stage thread stopped however it ends (a panic included), so
/// that the writer never waits for it in vain.
struct StopOnDrop(Arc<Shared>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.lock().stopped = true;
        self.0.turn.notify_all();
    }
}

/// The staging side of the data files (on the copying thread).
struct Staging {
    /// Each file's staging buffer (empty until its first bytes), and the
    /// size it grows to: from 64 KiB, doubling each time it fills, up to
    /// `max_blocks`, so that small fragments stage little.
    stages: Vec<Stage>,
    target: Vec<usize>,
    max_blocks: usize,
    /// Staging buffers made so far (at most one per file and
    /// [`SPARE_STAGES`]).
    made: usize,
    staged: Vec<usize>,
    /// Bytes of each file sent to be written.
    sent: Vec<u64>,
    free: Vec<Stage>,
    jobs: SyncSender<IoJob>,
    back: Receiver<WriteResult<Stage>>,
}

impl Staging {
    /// Appends one tile's pieces to a file, its [`TilePiece::Raw`] ranges
    /// taken from `raw` (the unfiltered tile, wherever it is).
    fn append_tile(&mut self, file: usize, tile: &TileBytes, raw: &[u8]) -> WriteResult<()> {
        tile.slices(raw).try_for_each(|b| self.append(file, b))
    }

    fn append(&mut self, file: usize, mut bytes: &[u8]) -> WriteResult<()> {
        while !bytes.is_empty() {
            if self.staged[file] == 0 && self.stages[file].len() != self.target[file] {
                self.stages[file].resize(self.target[file], Block([0; ALIGN]));
            }
            let buf = self.stages[file].as_mut_bytes();
            let at = self.staged[file];
            let n = bytes.len().min(buf.len() - at);
            buf[at..at + n].copy_from_slice(&bytes[..n]);
            self.staged[file] += n;
            bytes = &bytes[n..];
            if self.staged[file] == buf.len() {
                self.send(file)?;
            }
        }
        Ok(())
    }

    /// Sends a file's staged bytes to be written; the file gets a free
    /// staging buffer.
    fn send(&mut self, file: usize) -> WriteResult<()> {
        let len = self.staged[file];
        if len == 0 {
            return Ok(());
        }
        let next = match self.free.pop() {
            Some(s) => s,
            None if self.made < self.stages.len() + SPARE_STAGES => {
                self.made += 1;
                Vec::new()
            }
            None => match self.back.recv() {
                Ok(s) => s?,
                Err(_) => return self.stopped(),
            },
        };
        let mut stage = std::mem::replace(&mut self.stages[file], next);
        // The file's next buffer (sized with its next bytes): larger, up
        // to the largest.
        self.target[file] = (self.target[file] * 2).min(self.max_blocks);
        let padded = len.div_ceil(ALIGN) * ALIGN;
        stage.as_mut_bytes()[len..padded].fill(0);
        stage.truncate(padded / ALIGN);
        let job = IoJob {
            file,
            stage,
            len,
            offset: self.sent[file],
        };
        if self.jobs.send(job).is_err() {
            return self.stopped();
        }
        self.sent[file] += len as u64;
        self.staged[file] = 0;
        while let Ok(s) = self.back.try_recv() {
            self.free.push(s?);
        }
        Ok(())
    }

    /// The I/O thread stopped: its error comes with the next buffer back.
    fn stopped(&mut self) -> WriteResult<()> {
        while let Ok(s) = self.back.recv() {
            s?;
        }
        Err(WriteError::cells("", "the data files are closed"))
    }
}

impl Sink {
    pub(super) fn start(outs: Vec<OutFile>, stage: usize) -> WriteResult<Self> {
        let n = outs.len();
        let blocks = stage.div_ceil(ALIGN).max(1);
        let (tx, rx): (SyncSender<Pieces>, Receiver<Pieces>) = sync_channel(QUEUED);
        let (recycle, recycled) = std::sync::mpsc::channel();
        let (jobs, jobs_rx) = sync_channel::<IoJob>(n + SPARE_STAGES);
        let (back_tx, back) = std::sync::mpsc::channel();
        let shared = Arc::new(Shared {
            state: Mutex::new(StageState {
                staging: Some(Staging {
                    stages: vec![Vec::new(); n],
                    target: vec![(16usize).min(blocks); n],
                    max_blocks: blocks,
                    made: n,
                    staged: vec![0; n],
                    sent: vec![0; n],
                    free: Vec::new(),
                    jobs,
                    back,
                }),
                staged: 0,
                stopped: false,
            }),
            turn: Condvar::new(),
        });
        let stop = StopOnDrop(Arc::clone(&shared));
        let thread = std::thread::Builder::new()
            .name("tiledb-codec-stage".into())
            .spawn(move || {
                let outs = Arc::new(outs);
                let jobs_rx = Arc::new(Mutex::new(jobs_rx));
                let mut io = Vec::with_capacity(IO_THREADS);
                for _ in 0..IO_THREADS {
                    let (outs, jobs_rx, back_tx) =
                        (Arc::clone(&outs), Arc::clone(&jobs_rx), back_tx.clone());
                    let t = std::thread::Builder::new()
                        .name("tiledb-codec-write".into())
                        .spawn(move || io_thread(&outs, &jobs_rx, back_tx));
                    match t {
                        Ok(t) => io.push(t),
                        // One thread is enough to go on with.
                        Err(e) if io.is_empty() => {
                            return Err(WriteError::io(std::path::Path::new("<write thread>"), e))
                        }
                        Err(_) => break,
                    }
                }
                drop(back_tx);
                let mut res = Ok(());
                'tiles: for pieces in rx {
                    let mut st = stop.0.lock();
                    let st = &mut *st;
                    let (Some(s), false) = (st.staging.as_mut(), st.stopped) else {
                        // The writer's thread failed to stage a tile.
                        res = Err(WriteError::cells("", "the data files are closed"));
                        break;
                    };
                    for (i, bytes) in pieces {
                        res = s.append_tile(i, &bytes, &bytes.raw);
                        if res.is_err() {
                            break 'tiles;
                        }
                        if bytes.raw.capacity() > 0 {
                            // The writer may be gone: then nothing wants it.
                            let _ = recycle.send(bytes.raw);
                        }
                    }
                    st.staged += 1;
                    stop.0.turn.notify_all();
                }
                let (staging, failed) = {
                    let mut st = stop.0.lock();
                    (st.staging.take(), st.stopped)
                };
                drop(stop);
                let Some(mut s) = staging else {
                    return Err(panicked());
                };
                if res.is_ok() && failed {
                    res = Err(WriteError::cells("", "the data files are closed"));
                }
                if res.is_ok() {
                    res = (0..n).try_for_each(|i| s.send(i));
                }
                let Staging { jobs, back, .. } = s;
                drop(jobs);
                let mut io_res = Ok(());
                for t in io {
                    let r = t.join().unwrap_or_else(|_| Err(panicked()));
                    if io_res.is_ok() {
                        io_res = r;
                    }
                }
                res?;
                if io_res.is_err() {
                    // An I/O thread's own error.
                    for r in back {
                        r?;
                    }
                }
                io_res?;
                // Every I/O thread has ended: the files are the stage
                // thread's alone again.
                Arc::try_unwrap(outs).map_err(|_| panicked())
            })
            .map_err(|e| WriteError::io(std::path::Path::new("<write thread>"), e))?;
        Ok(Sink {
            tx: Some(tx),
            thread: Some(thread),
            recycled,
            shared,
            handed: 0,
        })
    }

    /// Stages the pieces of one tile on this thread, after every tile
    /// handed over before: `raw[k]` holds the bytes of `pieces[k]`'s
    /// [`TilePiece::Raw`] ranges (the caller's column, borrowed only until
    /// this returns). Where each starts in its file is the writer's
    /// generated layout's to measure (`TileOffsetsParts`).
    pub(super) fn append_borrowed(&mut self, pieces: Pieces, raw: &[&[u8]]) -> WriteResult<()> {
        let res = {
            let mut st = self.shared.lock();
            while st.staged < self.handed && !st.stopped {
                st = self.shared.turn.wait(st).unwrap_or_else(|p| p.into_inner());
            }
            let st = &mut *st;
            match (st.staging.as_mut(), st.stopped) {
                (Some(s), false) => {
                    let res = pieces
                        .iter()
                        .zip(raw)
                        .try_for_each(|((i, bytes), raw)| s.append_tile(*i, bytes, raw));
                    if res.is_err() {
                        // The stage thread takes no more tiles either.
                        st.stopped = true;
                    }
                    Some(res)
                }
                // The stage thread stopped first: its error says why.
                _ => None,
            }
        };
        match res {
            Some(Ok(())) => Ok(()),
            Some(Err(e)) => {
                let _ = self.close();
                Err(e)
            }
            None => {
                self.close()?;
                Err(WriteError::cells("", "the data files are closed"))
            }
        }
    }

    /// Hands over the pieces of one tile (in the order of the writer's
    /// generated layouts, which measure where each starts).
    pub(super) fn append(&mut self, pieces: Pieces) -> WriteResult<()> {
        self.handed += 1;
        let sent = match &self.tx {
            Some(tx) => tx.send(pieces).is_ok(),
            None => false,
        };
        if !sent {
            // The threads stopped: their error says why.
            self.close()?;
            return Err(WriteError::cells("", "the data files are closed"));
        }
        Ok(())
    }

    /// Waits for every byte handed over to be in the files; gives the files.
    pub(super) fn close(&mut self) -> WriteResult<Vec<OutFile>> {
        self.tx = None;
        match self.thread.take() {
            Some(t) => t.join().unwrap_or_else(|_| Err(panicked())),
            None => Err(WriteError::cells("", "the data files are closed")),
        }
    }
}

fn panicked() -> WriteError {
    WriteError::io(
        std::path::Path::new("<write thread>"),
        std::io::Error::other("a thread writing the data files panicked"),
    )
}

/// Writes full staging buffers as they come (taking turns at the queue
/// with the other I/O threads) and gives them back, until the queue closes.
fn io_thread(
    outs: &[OutFile],
    jobs: &Mutex<Receiver<IoJob>>,
    back: std::sync::mpsc::Sender<WriteResult<Stage>>,
) -> WriteResult<()> {
    loop {
        // The lock is held only to take a job, not while writing it.
        let job = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(job) = job else {
            return Ok(());
        };
        let res = outs[job.file].write(job.stage.as_bytes(), job.len, job.offset);
        if let Err(e) = res {
            // The copying thread takes the error with the buffers.
            let _ = back.send(Err(e));
            return Err(WriteError::cells("", "the data files are closed"));
        }
        // The copying thread may have finished: nothing wants it then.
        let _ = back.send(Ok(job.stage));
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.close();
    }
}
