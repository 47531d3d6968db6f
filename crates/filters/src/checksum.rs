//! CHECKSUM_MD5 and CHECKSUM_SHA256 (format_spec/tile.md#checksum-filters;
//! tiledb/sm/filter/checksum_md5_filter.cc, checksum_sha256_filter.cc).
//!
//! Forward, the data passes through unchanged and the chunk metadata
//! ([`ChecksumChunkMetadata`]) records one checksum per input metadata part
//! and one per input data part (the number of bytes covered, then the
//! digest), followed by the input metadata itself. Backward, the metadata
//! checksums are checked, in order, over the input metadata that follows the
//! table, and the data checksums over the data; a mismatch is an error that
//! names the filter and the checksum. (The engine can skip this with
//! `sm.skip_checksum_validation`; this codec always checks.)

use md5::{Digest, Md5};
use sha2::Sha256;

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{
    decode, encode, ChecksumChunkMetadata, ChecksumEntry, Filter, FilterType,
};

/// The codec of a CHECKSUM_MD5 or CHECKSUM_SHA256 filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    match filter.filter_type.known() {
        Some(FilterType::ChecksumMd5) => Ok(Box::new(Checksum { sha256: false })),
        Some(FilterType::ChecksumSha256) => Ok(Box::new(Checksum { sha256: true })),
        other => Err(FilterError::new(
            other.map_or("filter", |t| t.name()),
            "not a checksum filter",
        )),
    }
}

/// A checksum filter: MD5, or SHA-256.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Checksum {
    /// SHA-256 (else MD5).
    pub sha256: bool,
}

impl Checksum {
    /// The digest's size in bytes.
    pub fn digest_size(&self) -> u64 {
        if self.sha256 {
            32
        } else {
            16
        }
    }

    /// The digest of `bytes`.
    pub fn digest(&self, bytes: &[u8]) -> Vec<u8> {
        if self.sha256 {
            Sha256::digest(bytes).to_vec()
        } else {
            Md5::digest(bytes).to_vec()
        }
    }

    fn entry(&self, part: &[u8]) -> Result<ChecksumEntry, FilterError> {
        tiledb_codec_format::table!(ChecksumEntry {
            checksum: self.digest(part),
        })
        .with_outside_sizes(part)
        .map_err(super::too_large(self.name()))
    }

    /// Checks the checksums of `entries` over consecutive bytes of `bytes`.
    fn verify(
        &self,
        which: &str,
        entries: &[ChecksumEntry],
        bytes: &[u8],
    ) -> Result<(), FilterError> {
        let name = self.name();
        let mut pos = 0usize;
        for (i, e) in entries.iter().enumerate() {
            let n = usize::try_from(e.checksummed_bytes).unwrap_or(usize::MAX);
            let Some(part) = bytes.get(pos..).and_then(|b| b.get(..n)) else {
                return Err(FilterError::new(
                    name,
                    format!(
                        "{which} checksum {i} covers {n} bytes at {pos}, past the {} bytes there are",
                        bytes.len()
                    ),
                ));
            };
            let got = self.digest(part);
            if got != e.checksum {
                return Err(FilterError::new(
                    name,
                    format!(
                        "{which} checksum {i} mismatch: expected {}, got {}",
                        hex(&e.checksum),
                        hex(&got)
                    ),
                ));
            }
            pos += n;
        }
        Ok(())
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl FilterCodec for Checksum {
    fn name(&self) -> &'static str {
        if self.sha256 {
            "CHECKSUM_SHA256"
        } else {
            "CHECKSUM_MD5"
        }
    }

    fn forward(&self, _cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let md = tiledb_codec_format::table!(ChecksumChunkMetadata {
            metadata_checksums: input
                .metadata
                .iter()
                .map(|p| self.entry(p))
                .collect::<Result<_, _>>()?,
            data_checksums: input
                .data
                .iter()
                .map(|p| self.entry(p))
                .collect::<Result<_, _>>()?,
        });
        let mut metadata = vec![encode(&md.with_sizes())?];
        metadata.extend(super::engine_view(input.metadata));
        Ok(Parts {
            metadata,
            data: super::engine_view(input.data),
        })
    }

    fn reverse(
        &self,
        _cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let (md, used) = decode::<ChecksumChunkMetadata>(metadata, 0, (self.digest_size(),))
            .map_err(|e| FilterError::new(self.name(), format!("chunk metadata: {e}")))?;
        let rest = &metadata[used as usize..];
        self.verify("metadata", &md.metadata_checksums, rest)?;
        self.verify("data", &md.data_checksums, data)?;
        Ok(Reversed {
            metadata: rest.to_vec(),
            data: data.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pipeline;
    use proptest::prelude::*;
    use tiledb_codec_format::{Datatype, FilterOptions, Tile};

    fn filter(kind: FilterType) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: kind,
            filter_options: FilterOptions::NoOptions,
        })
        .with_sizes()
    }

    fn cx() -> FilterContext<'static> {
        FilterContext::new(Datatype::Int32, 4, 22)
    }

    fn round_trip(filters: &[Filter], dt: Datatype, data: &[u8]) -> Vec<u8> {
        let p = Pipeline::new(filters, dt, dt.size(), 22).unwrap();
        let tile = p.forward_tile(data).unwrap();
        let (tile, _) = decode::<Tile>(&tile, 0, ()).unwrap();
        let mut out = Vec::new();
        for c in &tile.chunks {
            out.extend(
                p.reverse_chunk(&c.metadata, &c.filtered_data, None)
                    .unwrap(),
            );
        }
        out
    }

    #[test]
    fn known_digests() {
        let md5 = Checksum { sha256: false };
        let sha = Checksum { sha256: true };
        assert_eq!(hex(&md5.digest(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(&sha.digest(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn md5_metadata_layout() {
        let md5 = Checksum { sha256: false };
        let input = Parts {
            metadata: vec![b"xy".to_vec()],
            data: vec![b"abc".to_vec()],
        };
        let out = md5.forward(&cx(), input).unwrap();
        assert_eq!(out.data, vec![b"abc".to_vec()]);
        let mut want = vec![1, 0, 0, 0, 1, 0, 0, 0];
        want.extend(2u64.to_le_bytes());
        want.extend(md5.digest(b"xy"));
        want.extend(3u64.to_le_bytes());
        want.extend(md5.digest(b"abc"));
        assert_eq!(out.metadata, vec![want, b"xy".to_vec()]);
        let r = md5
            .reverse(&cx(), &out.metadata_bytes(), &out.data_bytes())
            .unwrap();
        assert_eq!(r.metadata, b"xy");
        assert_eq!(r.data, b"abc");
    }

    #[test]
    fn empty_chunk_has_one_empty_data_checksum_and_no_data() {
        let sha = Checksum { sha256: true };
        let out = sha.forward(&cx(), Parts::chunk(&[])).unwrap();
        assert!(out.data.is_empty());
        assert_eq!(out.metadata[0].len(), 8 + 8 + 32);
    }

    #[test]
    fn mismatches_name_the_filter_and_the_checksum() {
        for sha256 in [false, true] {
            let c = Checksum { sha256 };
            let input = Parts {
                metadata: vec![b"meta".to_vec()],
                data: vec![b"some data".to_vec()],
            };
            let out = c.forward(&cx(), input).unwrap();
            let md = out.metadata_bytes();
            let err = c.reverse(&cx(), &md, b"some dat!").unwrap_err();
            assert_eq!(err.filter, c.name());
            assert!(err.what.contains("data checksum 0 mismatch"), "{err}");
            let mut bad = md.clone();
            *bad.last_mut().unwrap() ^= 1;
            let err = c.reverse(&cx(), &bad, b"some data").unwrap_err();
            assert!(err.what.contains("metadata checksum 0 mismatch"), "{err}");
            let err = c.reverse(&cx(), &md, b"some").unwrap_err();
            assert!(err.what.contains("data checksum 0 covers"), "{err}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn checksums_round_trip(
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            cells in 0usize..40_000,
            seed in any::<u8>(),
        ) {
            let len = cells * dt.size() as usize;
            let data: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(seed)).collect();
            let filters = [filter(FilterType::ChecksumMd5), filter(FilterType::ChecksumSha256)];
            prop_assert_eq!(round_trip(&filters, dt, &data), data);
        }

        #[test]
        fn parts_round_trip(
            md_parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 1..20), 0..3),
            parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 0..4),
            sha256 in any::<bool>(),
        ) {
            let c = Checksum { sha256 };
            let out = c.forward(&cx(), Parts { metadata: md_parts.clone(), data: parts.clone() }).unwrap();
            let r = c.reverse(&cx(), &out.metadata_bytes(), &out.data_bytes()).unwrap();
            prop_assert_eq!(r.data, parts.concat());
            prop_assert_eq!(r.metadata, md_parts.concat());
        }
    }
}
