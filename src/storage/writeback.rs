//! Starting the write-back of a file's bytes early, so that the disk works
//! while the writer makes the next tiles and the sync before the commit
//! finds little left to do.

use std::fs::File;

/// Asks the kernel to start writing `len` bytes of `file` from `offset` to
/// the disk, without waiting (Linux `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`). Only a hint: durability still comes from the
/// `sync_all` before the commit, which also reports any write error, so a
/// failure here is ignored. Elsewhere it does nothing.
pub fn start_writeback(file: &File, offset: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
            return;
        };
        // SAFETY: the descriptor is open for as long as `file` is borrowed,
        // and the call reads no memory of ours.
        let _ = unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE)
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
}
