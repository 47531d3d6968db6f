//! Filter throughput: each filter's pipeline decode and encode over a tile,
//! and for the compressors the bare compressor crate on the same chunks, so
//! that the pipeline's overhead over the codec shows.
//!
//! `cargo bench --bench filters`; the README records the figures.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tiledb_codec::raw::filters::Pipeline;
use tiledb_codec::raw::format::table;
use tiledb_codec::raw::format::{
    BitWidthReductionOptions, CompressorOptions, Datatype, Filter, FilterOptions, FilterType,
    FloatScaleOptions, PositiveDeltaOptions,
};
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::unfilter_tile;

const TILE: usize = 4 << 20;
const CHUNK: usize = 64 << 10;

fn filter(t: FilterType, options: FilterOptions) -> Filter {
    let size = tiledb_codec::raw::format::encode(&options).unwrap().len() as u32;
    table!(Filter {
        filter_type: t,
        filter_options_size: size,
        filter_options: options,
    })
}

fn compressor(t: FilterType, code: u8, level: i32, reinterpret: Option<u8>) -> Filter {
    filter(
        t,
        FilterOptions::Compressor(table!(CompressorOptions {
            compressor_type: tiledb_codec::raw::format::Compressor::from_raw(code),
            compression_level: level,
            reinterpret_datatype: reinterpret.map(tiledb_codec::raw::format::Datatype::from_raw),
        })),
    )
}

/// A slowly varying int64 series: what delta-style filters and compressors
/// meet in practice.
fn data_i64() -> Vec<u8> {
    let mut x: i64 = 1_000_000;
    let mut state: u64 = 7;
    let mut out = Vec::with_capacity(TILE);
    while out.len() < TILE {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x += (state >> 60) as i64 - 7;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

fn data_f64() -> Vec<u8> {
    data_i64()
        .chunks_exact(8)
        .flat_map(|c| (i64::from_le_bytes(c.try_into().unwrap()) as f64 / 1000.0).to_le_bytes())
        .collect()
}

fn cases() -> Vec<(&'static str, Vec<Filter>, Datatype, Vec<u8>)> {
    use FilterType as F;
    let i = data_i64();
    let f = data_f64();
    vec![
        ("NONE", vec![], Datatype::Int64, i.clone()),
        (
            "GZIP",
            vec![compressor(F::Gzip, 1, 6, None)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "ZSTD",
            vec![compressor(F::Zstd, 2, 3, None)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "LZ4",
            vec![compressor(F::Lz4, 3, 1, None)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "BZIP2",
            vec![compressor(F::Bzip2, 5, 9, None)],
            Datatype::Int64,
            i[..TILE / 8].to_vec(),
        ),
        (
            "RLE",
            vec![compressor(F::Rle, 4, -1, None)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "DOUBLE_DELTA",
            vec![compressor(F::DoubleDelta, 6, -1, Some(17))],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "DELTA",
            vec![compressor(F::Delta, 8, -1, Some(17))],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "BIT_WIDTH_REDUCTION",
            vec![filter(
                F::BitWidthReduction,
                FilterOptions::BitWidthReduction(table!(BitWidthReductionOptions {
                    max_window_size: 256,
                })),
            )],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "BITSHUFFLE",
            vec![filter(F::Bitshuffle, FilterOptions::NoOptions)],
            Datatype::Float64,
            f.clone(),
        ),
        (
            "BYTESHUFFLE",
            vec![filter(F::Byteshuffle, FilterOptions::NoOptions)],
            Datatype::Float64,
            f.clone(),
        ),
        (
            "POSITIVE_DELTA",
            vec![filter(
                F::PositiveDelta,
                FilterOptions::PositiveDelta(table!(PositiveDeltaOptions {
                    max_window_size: 1024,
                })),
            )],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "CHECKSUM_MD5",
            vec![filter(F::ChecksumMd5, FilterOptions::NoOptions)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "CHECKSUM_SHA256",
            vec![filter(F::ChecksumSha256, FilterOptions::NoOptions)],
            Datatype::Int64,
            i.clone(),
        ),
        (
            "SCALE_FLOAT",
            vec![filter(
                F::ScaleFloat,
                FilterOptions::FloatScale(table!(FloatScaleOptions {
                    scale: 0.001,
                    offset: 0.0,
                    byte_width: 4,
                })),
            )],
            Datatype::Float64,
            f.clone(),
        ),
        (
            "XOR",
            vec![filter(F::Xor, FilterOptions::NoOptions)],
            Datatype::Float64,
            f.clone(),
        ),
        (
            "BYTESHUFFLE+ZSTD",
            vec![
                filter(F::Byteshuffle, FilterOptions::NoOptions),
                compressor(F::Zstd, 2, 3, None),
            ],
            Datatype::Float64,
            f.clone(),
        ),
        (
            "BITSHUFFLE+LZ4",
            vec![
                filter(F::Bitshuffle, FilterOptions::NoOptions),
                compressor(F::Lz4, 3, 1, None),
            ],
            Datatype::Float64,
            f,
        ),
    ]
}

fn pipelines(c: &mut Criterion) {
    let mut g = c.benchmark_group("filter");
    g.sample_size(10)
        .measurement_time(std::time::Duration::from_secs(2))
        .warm_up_time(std::time::Duration::from_millis(300));
    for (name, filters, dt, data) in cases() {
        let Ok(p) = Pipeline::new(&filters, dt, dt.size(), 22) else {
            continue;
        };
        let Ok(encoded) = p.forward_tile(&data) else {
            continue;
        };
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| p.forward_tile(black_box(&data)).unwrap())
        });
        let file = MappedFile::from_vec("bench", encoded.clone());
        g.bench_function(BenchmarkId::new("decode", name), |b| {
            b.iter(|| {
                unfilter_tile(&file, 0, black_box(&encoded), None, u64::MAX, &p, None)
                    .unwrap()
                    .len()
            })
        });
    }
    g.finish();
}

/// The bare compressor crates over the same 64 KiB chunks.
fn bare(c: &mut Criterion) {
    let data = data_i64();
    let chunks: Vec<&[u8]> = data.chunks(CHUNK).collect();
    let mut g = c.benchmark_group("bare");
    g.sample_size(10)
        .measurement_time(std::time::Duration::from_secs(2))
        .warm_up_time(std::time::Duration::from_millis(300));
    g.throughput(Throughput::Bytes(data.len() as u64));
    let zstd_chunks: Vec<Vec<u8>> = chunks
        .iter()
        .map(|c| zstd::bulk::compress(c, 3).unwrap())
        .collect();
    g.bench_function("decode/ZSTD", |b| {
        let mut out = vec![0u8; CHUNK];
        b.iter(|| {
            for (z, c) in zstd_chunks.iter().zip(&chunks) {
                zstd::bulk::decompress_to_buffer(z, &mut out[..c.len()]).unwrap();
            }
        })
    });
    let lz4_chunks: Vec<Vec<u8>> = chunks
        .iter()
        .map(|c| lz4_flex::block::compress(c))
        .collect();
    g.bench_function("decode/LZ4", |b| {
        let mut out = vec![0u8; CHUNK];
        b.iter(|| {
            for (z, c) in lz4_chunks.iter().zip(&chunks) {
                lz4_flex::block::decompress_into(z, &mut out[..c.len()]).unwrap();
            }
        })
    });
    let gz_chunks: Vec<Vec<u8>> = chunks
        .iter()
        .map(|c| {
            use std::io::Write;
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
            e.write_all(c).unwrap();
            e.finish().unwrap()
        })
        .collect();
    g.bench_function("decode/GZIP", |b| {
        let mut out = vec![0u8; CHUNK];
        b.iter(|| {
            for z in &gz_chunks {
                let mut d = flate2::Decompress::new(true);
                d.decompress(z, &mut out, flate2::FlushDecompress::Finish)
                    .unwrap();
            }
        })
    });
    g.bench_function("encode/ZSTD", |b| {
        b.iter(|| {
            chunks
                .iter()
                .map(|c| zstd::bulk::compress(c, 3).unwrap().len())
                .sum::<usize>()
        })
    });
    g.bench_function("encode/LZ4", |b| {
        b.iter(|| {
            chunks
                .iter()
                .map(|c| lz4_flex::block::compress(c).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, pipelines, bare);
criterion_main!(benches);
