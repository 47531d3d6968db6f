//! A stored data tile (`Tile`: chunk count + chunks) decoded as it would
//! stream from an object store (`TileStream`, fed in pieces of a fuzzed
//! size) must get the verdict a view of the whole tile gets
//! (`TileView::parse` + `decode_into`): the same bytes, or an error. So
//! must the same tile streamed with no place (`TileStream::scattered`):
//! the pieces and unfiltered chunks it hands on, each where it says it
//! lies in the tile, put together.
//!
//! Input: flags (u8: bit 0, the tile is ZSTD-filtered, else unfiltered),
//! piece size (u16 LE, 0: the whole tile at once), the tile's unfiltered
//! length (u16 LE), then the stored tile.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::filters::Pipeline;
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::model::{Filter, FilterTables};
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::{ChunkJob, Emitted, TileStream, TileView};

/// The limit a reader passes down for a tile's size.
const LIMIT: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let [flags, s0, s1, l0, l1, stored @ ..] = data else {
        return;
    };
    let step = usize::from(u16::from_le_bytes([*s0, *s1]));
    let len = usize::from(u16::from_le_bytes([*l0, *l1]));
    let filters = if flags & 1 != 0 {
        let zstd = Filter::Zstd { level: 1 }.to_table(22, (0, 0), "fuzz");
        vec![zstd.expect("ZSTD is a filter of format 22")]
    } else {
        Vec::new()
    };
    let Ok(pipeline) = Pipeline::new(&filters, Datatype::Uint8, 1, 22) else {
        return;
    };
    let file = MappedFile::from_vec("fuzz/a0.tdb", stored.to_vec());
    let mut viewed = vec![0u8; len];
    let view = TileView::parse(&file, 0, file.bytes(), None, LIMIT, pipeline.is_empty())
        .and_then(|v| v.decode_into(&pipeline, LIMIT, &mut viewed));
    let mut streamed = vec![0u8; len];
    let mut jobs = Vec::new();
    let mut stream = TileStream::new(
        file.path(),
        0,
        stored.len() as u64,
        LIMIT,
        &pipeline,
        &mut streamed,
    );
    let step = if step == 0 { stored.len().max(1) } else { step };
    let fed = stored.chunks(step).try_for_each(|piece| {
        stream.feed(piece, &mut |job| {
            jobs.push(job);
            Ok(())
        })
    });
    let verdict = fed
        .and_then(|()| stream.finish())
        .and_then(|()| jobs.into_iter().try_for_each(ChunkJob::run));
    assert_eq!(view.is_ok(), verdict.is_ok(), "{view:?} / {verdict:?}");
    if view.is_ok() {
        assert_eq!(viewed, streamed);
    }

    // No place: everything handed on lies inside the tile (indexing out
    // of it panics here), and put together it is the tile.
    let mut scattered = vec![0u8; len];
    let mut owned = Vec::new();
    let mut stream = TileStream::scattered(
        file.path(),
        0,
        stored.len() as u64,
        LIMIT,
        &pipeline,
        len as u64,
    );
    let fed = stored.chunks(step).try_for_each(|piece| {
        stream.feed_scattered(piece, &mut |e| {
            match e {
                Emitted::Bytes(at, bytes) => {
                    let at = at as usize;
                    scattered[at..at + bytes.len()].copy_from_slice(bytes);
                }
                Emitted::Job(job) => owned.push(job),
            }
            Ok(())
        })
    });
    let verdict = fed.and_then(|()| stream.finish()).and_then(|()| {
        owned.into_iter().try_for_each(|job| {
            let (at, bytes) = job.run_owned()?;
            let at = at as usize;
            scattered[at..at + bytes.len()].copy_from_slice(&bytes);
            Ok(())
        })
    });
    assert_eq!(view.is_ok(), verdict.is_ok(), "{view:?} / {verdict:?}");
    if view.is_ok() {
        assert_eq!(viewed, scattered);
    }
});
