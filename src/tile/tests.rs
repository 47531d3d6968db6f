use super::{ChunkJob, TileStream, TileView};
use crate::filters::Pipeline;
use crate::format::{CompressorOptions, Datatype, Filter, FilterOptions, FilterType, Record};
use crate::storage::MappedFile;

fn pipelines() -> Vec<Pipeline> {
    let zstd = FilterOptions::Compressor(crate::format::table!(CompressorOptions {
        compressor_type: crate::format::Compressor::from_raw(2),
        compression_level: 1,
        reinterpret_datatype: None,
    }));
    let zstd = crate::format::table!(Filter {
        filter_type: FilterType::Zstd,
        filter_options: zstd,
    })
    .with_sizes();
    [vec![], vec![zstd]]
        .iter()
        .map(|f| Pipeline::new(f, Datatype::Uint8, 1, 22).unwrap())
        .collect()
}

/// What the view of a stored tile decodes to (or its error's text).
fn by_view(p: &Pipeline, stored: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let file = MappedFile::from_vec("t", stored.to_vec());
    let mut out = vec![0; len];
    TileView::parse(&file, 0, file.bytes(), None, 1 << 20, p.is_empty())
        .and_then(|v| v.decode_into(p, 1 << 20, &mut out))
        .map(|()| out)
        .map_err(|e| e.to_string())
}

/// What a stream fed `stored` in pieces of `step` bytes decodes to.
fn by_stream(p: &Pipeline, stored: &[u8], len: usize, step: usize) -> Result<Vec<u8>, String> {
    let mut out = vec![0; len];
    let mut s = TileStream::new("t".as_ref(), 0, stored.len() as u64, 1 << 20, p, &mut out);
    // The filtered chunks' jobs run after their tile's last piece.
    let mut jobs = Vec::new();
    stored
        .chunks(step)
        .try_for_each(|piece| {
            s.feed(piece, &mut |j| {
                jobs.push(j);
                Ok(())
            })
        })
        .and_then(|()| s.finish())
        .and_then(|()| jobs.into_iter().try_for_each(ChunkJob::run))
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Tiles of every pipeline and size, fed in pieces of any size, decode
/// to their bytes.
#[test]
fn a_tile_fed_in_pieces_decodes_to_its_bytes() {
    for p in pipelines() {
        for len in [0usize, 1, 100, 65_536, 200_003] {
            let tile: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let stored = p.forward_tile(&tile).unwrap();
            for step in [1, 5, 12, 13, 4096, 70_000, usize::MAX] {
                if step == 1 && len > 100 {
                    continue;
                }
                let got = by_stream(&p, &stored, len, step.min(stored.len().max(1)));
                assert_eq!(
                    got.as_deref(),
                    Ok(&tile[..]),
                    "{len} bytes, pieces of {step}"
                );
            }
        }
    }
}

/// Unfiltered chunks that carry metadata: it is skipped, as a view
/// skips it.
#[test]
fn the_metadata_of_unfiltered_chunks_is_skipped() {
    let p = &pipelines()[0];
    let mut stored = 2u64.to_le_bytes().to_vec();
    for (md, data) in [(&b"meta!"[..], &b"abc"[..]), (b"", b"defg")] {
        for n in [data.len(), data.len(), md.len()] {
            stored.extend((n as u32).to_le_bytes());
        }
        stored.extend(md);
        stored.extend(data);
    }
    assert_eq!(by_view(p, &stored, 7).as_deref(), Ok(&b"abcdefg"[..]));
    for step in 1..stored.len() {
        assert_eq!(
            by_stream(p, &stored, 7, step).as_deref(),
            Ok(&b"abcdefg"[..])
        );
    }
}

/// A tile whose range runs past what its object gave is refused even
/// when its chunks came whole (a tile fetched whole must be whole), as
/// a view of the range is never made.
#[test]
fn a_range_longer_than_the_object_is_refused() {
    for p in pipelines() {
        let tile = vec![5u8; 1000];
        let stored = p.forward_tile(&tile).unwrap();
        let mut out = vec![0; tile.len()];
        let range = stored.len() as u64 + 10;
        let mut s = TileStream::new("t".as_ref(), 40, range, 1 << 20, &p, &mut out);
        let mut jobs = Vec::new();
        s.feed(&stored, &mut |j| {
            jobs.push(j);
            Ok(())
        })
        .unwrap();
        let err = s.finish().unwrap_err().to_string();
        assert!(
            err.contains("TileOffsets") && err.contains("ends after"),
            "{err}"
        );
    }
}

/// A stored tile cut short, or with any byte of its count or chunk
/// headers changed, gets the verdict a view of it gets: the same bytes,
/// or an error (and never a panic).
#[test]
fn a_damaged_tile_streams_to_the_views_verdict() {
    for p in pipelines() {
        let tile: Vec<u8> = (0..150_000).map(|i| (i % 13) as u8).collect();
        let stored = p.forward_tile(&tile).unwrap();
        let len = tile.len();
        for cut in (0..stored.len()).step_by(997).chain([stored.len() - 1]) {
            let s = &stored[..cut];
            assert!(by_view(&p, s, len).is_err(), "cut at {cut}");
            assert!(by_stream(&p, s, len, 4096).is_err(), "cut at {cut}");
        }
        // The count and the first two chunk headers, every byte of
        // them, with bits flipped.
        let first = 8 + 12 + 65_536 + if p.is_empty() { 0 } else { 1 << 20 };
        let heads: Vec<usize> = (0..20)
            .chain((first.min(stored.len() - 12)..).take(12))
            .collect();
        let mut refused = 0;
        for at in heads {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut d = stored.clone();
                d[at] ^= flip;
                let view = by_view(&p, &d, len);
                let stream = by_stream(&p, &d, len, 1000);
                assert_eq!(
                    view.is_ok(),
                    stream.is_ok(),
                    "byte {at} ^ {flip:#x}: {view:?} / {stream:?}"
                );
                match (view, stream) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "byte {at} ^ {flip:#x}"),
                    _ => refused += 1,
                }
            }
        }
        assert!(refused >= 40, "{refused} damaged tiles refused");
    }
}
