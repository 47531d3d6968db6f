//! Create a 1-D dense float64 array and write it in one fragment: the
//! library calls behind the write half of `bench/write.sh`.
//!
//! `cargo run --release --example write_dense -- OUT [MIB] [none|zstd|disk]`
//!
//! `disk` writes no array: the bytes of the unfiltered fragment's data file
//! (the values, with the chunk headers between them) go to the file OUT as
//! a plain program would write them as fast as it can, in 4 MiB writes that
//! bypass the page cache (`O_DIRECT` on Linux), then one sync: the disk's
//! own time for the data, to measure a write against.
//!
//! The array: dimension `d` (INT64, 8 MiB tiles of 1,048,576 cells),
//! attribute `v` (FLOAT64, no filter or ZSTD at the engine's default level).
//! The values are [`value`], which `bench/engine_write.py` computes the same
//! way. As the engine's side (`A[:] = data`), the values are made first and
//! handed to one `write` call. With ZSTD the writer filters each whole
//! tile where the values are, a few tiles at once on the thread pool,
//! writing the tiles done in order; unfiltered, it copies the values a row
//! of tiles at a time (tiles kept as they are go to the files from a tile
//! it owns) while the tiles before are written.
//! Prints the seconds spent in the library (creating the array, writing,
//! committing) and the CPU seconds of the process (every thread) in that
//! time, leaving out making the values.
use std::path::PathBuf;
use std::time::Instant;

use tiledb_codec::raw::model::Filter;
use tiledb_codec::raw::write::{Column, FragmentWriter, WriteOptions};
use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Cells of a space tile: 8 MiB of float64.
const TILE: u64 = 1 << 20;

/// Cell `i`: a slow ramp plus 32 bits of hashed noise. Every step is one
/// correctly rounded operation, so numpy gives the same bits.
fn value(i: u64) -> f64 {
    let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    i as f64 * (1.0 / 1024.0) + h as f64 * (1.0 / 4_294_967_296.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .ok_or("usage: write_dense OUT [MIB] [none|zstd|disk]")?,
    );
    let mib: u64 = args.next().map_or(Ok(256), |s| s.parse())?;
    let mode = args.next().unwrap_or_else(|| "none".into());
    let filters = match mode.as_str() {
        "none" | "disk" => vec![],
        "zstd" => vec![Filter::Zstd { level: -1 }],
        other => return Err(format!("unknown mode {other:?} (none, zstd or disk)").into()),
    };
    let cells = mib * (1 << 20) / 8;

    // The values, made before the clock starts (as numpy makes the
    // engine's).
    let mut data = Vec::with_capacity(cells as usize * 8);
    for i in 0..cells {
        data.extend_from_slice(&value(i).to_le_bytes());
    }
    if mode == "disk" {
        return disk(&out, &data);
    }
    let column = Column::fixed("v", data);

    let cpu = cpu_seconds();
    let t = Instant::now();
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0..=cells - 1)
                .tile_extent(TILE),
        )
        .attribute(AttributeBuilder::new("v", Datatype::Float64).filters(filters))
        .build()?;
    Array::create(&out, &schema)?;
    let rect = [(0, i128::from(cells) - 1)];
    let mut writer = FragmentWriter::dense(&out, &rect, WriteOptions::default())?;
    writer.write(std::slice::from_ref(&column))?;
    let info = writer.finish()?;
    let in_library = t.elapsed();
    let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);

    eprintln!(
        "{}: {} cells in {} tiles",
        info.name, info.cells, info.tiles
    );
    // The wall seconds last: `bench/compare_write.py` reads the last number.
    match cpu {
        Some(c) => println!("cpu {c:.2} {:.4}", in_library.as_secs_f64()),
        None => println!("{:.4}", in_library.as_secs_f64()),
    }
    Ok(())
}

/// The `disk` mode: the unfiltered data file's bytes (each 8 MiB tile: a
/// chunk count, then chunks of 64 KiB with their 12-byte headers, as the
/// writer lays them out) written to `out` in 4 MiB direct writes from an
/// aligned buffer, then synced; prints the seconds (and CPU seconds) as the
/// other modes do, the making of the bytes left out.
fn disk(out: &std::path::Path, data: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    const CHUNK: usize = 64 << 10;
    const WRITE: usize = 4 << 20;
    let tile = TILE as usize * 8;
    let mut bytes = Vec::with_capacity(data.len() + data.len() / CHUNK * 12 + 4096);
    for t in data.chunks(tile) {
        bytes.extend_from_slice(&(t.len().div_ceil(CHUNK) as u64).to_le_bytes());
        for c in t.chunks(CHUNK) {
            for n in [c.len() as u32, c.len() as u32, 0] {
                bytes.extend_from_slice(&n.to_le_bytes());
            }
            bytes.extend_from_slice(c);
        }
    }
    let len = bytes.len();
    // Whole 4 KiB blocks, from a 4 KiB-aligned buffer (direct I/O's
    // rules); the file is cut to the real length after.
    #[derive(Clone, Copy, FromBytes, IntoBytes, Immutable, KnownLayout)]
    #[repr(C, align(4096))]
    struct Block([u8; 4096]);
    let mut aligned = vec![Block([0; 4096]); WRITE / 4096];
    let cpu = cpu_seconds();
    let t = Instant::now();
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_DIRECT);
    }
    let file = opts.open(out)?;
    let mut at = 0;
    while at < len {
        let n = (len - at).min(WRITE);
        let buf = aligned.as_mut_slice().as_mut_bytes();
        buf[..n].copy_from_slice(&bytes[at..at + n]);
        let padded = n.div_ceil(4096) * 4096;
        buf[n..padded].fill(0);
        std::os::unix::fs::FileExt::write_all_at(&file, &buf[..padded], at as u64)?;
        at += n;
    }
    file.set_len(len as u64)?;
    file.sync_all()?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
    eprintln!("{len} bytes in {} direct writes", len.div_ceil(WRITE));
    match cpu {
        Some(c) => println!("cpu {c:.2} {secs:.4}"),
        None => println!("{secs:.4}"),
    }
    Ok(())
}

/// User and system CPU seconds of this process, every thread
/// (`/proc/self/stat`, in clock ticks of 1/100 s); `None` where there is no
/// such file.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis: state is the
    // first, utime the 12th, stime the 13th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
