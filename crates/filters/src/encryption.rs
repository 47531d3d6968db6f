//! The AES-256-GCM filter (format_spec/tile.md#encryption-filters; filter
//! type 11, `INTERNAL_FILTER_AES_256_GCM`), as the engine runs it
//! (tiledb/sm/filter/encryption_aes256gcm_filter.cc,
//! tiledb/sm/crypto/crypto_openssl.cc):
//!
//! * every metadata part and every data part of the chunk is encrypted on
//!   its own with the array's 32-byte key, a fresh random 12-byte IV and no
//!   associated data; GCM adds no padding, so a part's encrypted length is
//!   its plaintext length, and its 16-byte tag is kept apart;
//! * the chunk metadata (`EncryptionChunkMetadata`) lists, per part,
//!   plaintext length, encrypted length, IV and tag; the encrypted metadata
//!   parts, then the encrypted data parts, form the output data;
//! * the input metadata is not passed on: it travels encrypted, as parts.
//!   Backward, the decrypted metadata parts are the metadata handed to the
//!   filter before this one.
//!
//! The output datatype is BLOB.

#[cfg(feature = "encryption")]
use aes_gcm::aead::{AeadInOut, KeyInit};
#[cfg(feature = "encryption")]
use aes_gcm::{Aes256Gcm, Key, Nonce, Tag};

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{decode, encode, AesPart, Datatype, EncryptionChunkMetadata, Filter};

/// The filter's name, as TileDB names it.
const NAME: &str = "AES_256_GCM";

/// IV bytes (`Crypto::AES256GCM_IV_BYTES`): the `iv` field of an [`AesPart`].
pub const IV_BYTES: usize = AesPart::OFFSET_TAG - AesPart::OFFSET_IV;
/// Tag bytes (`Crypto::AES256GCM_TAG_BYTES`): the `tag` that ends an [`AesPart`].
pub const TAG_BYTES: usize = AesPart::SIZE - AesPart::OFFSET_TAG;

/// Reading or writing an encrypted tile without a key.
pub const MISSING_KEY: &str = "the array is encrypted: an encryption key is needed";
/// A part whose tag does not verify: the key is wrong or the bytes changed.
pub const BAD_KEY: &str = "wrong encryption key or damaged data";

/// The codec for the AES-256-GCM filter. It has no options (whatever the
/// options size says, the engine reads none); the key comes from the
/// [`FilterContext`]. Built without the `encryption` feature, the codec
/// exists (pipelines naming it still build) but running it is an error
/// ([`FilterError::needs_feature`]).
pub fn codec(_filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(Aes256GcmFilter))
}

/// AES-256-GCM, one IV and tag per part.
#[derive(Debug, Clone, Copy, Default)]
pub struct Aes256GcmFilter;

/// The cipher keyed with the context's key.
#[cfg(feature = "encryption")]
struct Cipher(Aes256Gcm);

/// Stands in for the cipher in a build without the `encryption` feature:
/// it cannot be made.
#[cfg(not(feature = "encryption"))]
enum Cipher {}

#[cfg(feature = "encryption")]
impl Cipher {
    fn new(cx: &FilterContext) -> Result<Self, FilterError> {
        let key = cx.key.ok_or_else(|| FilterError::new(NAME, MISSING_KEY))?;
        Ok(Cipher(Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key))))
    }

    /// Encrypts `plain` with `iv`: the ciphertext (as long as `plain`) and tag.
    fn encrypt(
        &self,
        iv: &[u8; IV_BYTES],
        plain: &[u8],
    ) -> Result<(Vec<u8>, [u8; TAG_BYTES]), FilterError> {
        let mut buf = plain.to_vec();
        let tag = self
            .0
            .encrypt_inout_detached(&Nonce::from(*iv), &[], buf.as_mut_slice().into())
            .map_err(|_| FilterError::new(NAME, "a part is too long for AES-256-GCM"))?;
        Ok((buf, tag.into()))
    }

    /// Decrypts one part onto the end of `out`, checking its tag.
    fn decrypt(
        &self,
        iv: &[u8; IV_BYTES],
        tag: &[u8; TAG_BYTES],
        encrypted: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), FilterError> {
        let start = out.len();
        out.extend_from_slice(encrypted);
        self.0
            .decrypt_inout_detached(
                &Nonce::from(*iv),
                &[],
                (&mut out[start..]).into(),
                &Tag::from(*tag),
            )
            .map_err(|_| FilterError::new(NAME, BAD_KEY))
    }
}

#[cfg(not(feature = "encryption"))]
impl Cipher {
    fn new(_cx: &FilterContext) -> Result<Self, FilterError> {
        Err(FilterError::needs_feature(NAME, "encryption"))
    }

    fn encrypt(
        &self,
        _iv: &[u8; IV_BYTES],
        _plain: &[u8],
    ) -> Result<(Vec<u8>, [u8; TAG_BYTES]), FilterError> {
        match *self {}
    }

    fn decrypt(
        &self,
        _iv: &[u8; IV_BYTES],
        _tag: &[u8; TAG_BYTES],
        _encrypted: &[u8],
        _out: &mut Vec<u8>,
    ) -> Result<(), FilterError> {
        match *self {}
    }
}

impl FilterCodec for Aes256GcmFilter {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_datatype(&self, _input: Datatype) -> Datatype {
        Datatype::Blob
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let cipher = Cipher::new(cx)?;
        let mut out =
            Vec::with_capacity(input.metadata.iter().chain(&input.data).map(Vec::len).sum());
        let mut md = tiledb_codec_format::table!(EncryptionChunkMetadata {
            metadata_parts: Vec::with_capacity(input.metadata.len()),
            data_parts: Vec::with_capacity(input.data.len()),
        });
        for (parts, list) in [
            (&input.metadata, &mut md.metadata_parts),
            (&input.data, &mut md.data_parts),
        ] {
            for p in parts {
                // A fresh random IV per part, as the engine draws one from
                // OpenSSL's RAND_bytes for every part.
                let mut iv = [0u8; IV_BYTES];
                rand::fill(&mut iv[..]);
                let (c, tag) = cipher.encrypt(&iv, p)?;
                list.push(
                    tiledb_codec_format::table!(AesPart {
                        iv: iv.to_vec(),
                        tag: tag.to_vec(),
                    })
                    .with_outside_sizes(p, &c)
                    .map_err(super::too_large(NAME))?,
                );
                out.extend_from_slice(&c);
            }
        }
        Ok(Parts {
            metadata: vec![encode(&md.with_sizes())?],
            data: vec![out],
        })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let cipher = Cipher::new(cx)?;
        let (md, _) = decode::<EncryptionChunkMetadata>(metadata, 0, ())
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let mut out = Reversed::default();
        let mut pos = 0usize;
        for (parts, dest) in [
            (&md.metadata_parts, &mut out.metadata),
            (&md.data_parts, &mut out.data),
        ] {
            for part in parts {
                if part.encrypted_length != part.plaintext_length {
                    // GCM neither pads nor expands.
                    return Err(FilterError::new(
                        NAME,
                        format!(
                            "a part of {} plaintext bytes says it has {} encrypted bytes",
                            part.plaintext_length, part.encrypted_length
                        ),
                    ));
                }
                let len = part.encrypted_length as usize;
                let Some(src) = pos.checked_add(len).and_then(|end| data.get(pos..end)) else {
                    return Err(FilterError::new(
                        NAME,
                        format!(
                            "a part of {len} bytes at {pos} runs past the chunk's {} bytes",
                            data.len()
                        ),
                    ));
                };
                let iv: &[u8; IV_BYTES] = part.iv.as_slice().try_into().map_err(|_| {
                    FilterError::new(NAME, format!("an IV of {} bytes", part.iv.len()))
                })?;
                let tag: &[u8; TAG_BYTES] = part.tag.as_slice().try_into().map_err(|_| {
                    FilterError::new(NAME, format!("a tag of {} bytes", part.tag.len()))
                })?;
                cipher.decrypt(iv, tag, src, dest)?;
                pos += len;
            }
        }
        Ok(out)
    }
}

#[cfg(all(test, not(feature = "encryption")))]
mod without_the_feature {
    use super::*;

    #[test]
    fn running_the_filter_names_the_missing_feature() {
        let cx = FilterContext {
            key: Some(&[1u8; 32]),
            ..FilterContext::new(Datatype::Uint8, 1, 22)
        };
        let e = Aes256GcmFilter
            .forward(&cx, Parts::chunk(b"secret"))
            .unwrap_err();
        assert_eq!(e.missing_feature, Some("encryption"));
        let e = Aes256GcmFilter.reverse(&cx, &[], &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "AES_256_GCM: the AES_256_GCM filter needs tiledb-codec's `encryption` feature"
        );
    }
}

#[cfg(all(test, feature = "encryption"))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Encrypts one part with `iv` under `cipher`, as the filter does.
    fn encrypt_part(
        cipher: &Aes256Gcm,
        iv: &[u8; IV_BYTES],
        plain: &[u8],
    ) -> (Vec<u8>, [u8; TAG_BYTES]) {
        Cipher(cipher.clone()).encrypt(iv, plain).unwrap()
    }

    fn cx(key: Option<&[u8; 32]>) -> FilterContext<'_> {
        FilterContext {
            key,
            ..FilterContext::new(Datatype::Uint8, 1, 22)
        }
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The GCM paper's test case 14 (McGrew & Viega): AES-256, zero key,
    /// zero IV, one zero block.
    #[test]
    fn known_answer_test_case_14() {
        let key = [0u8; 32];
        let iv = [0u8; 12];
        let c = Aes256Gcm::new(&Key::<Aes256Gcm>::from(key));
        let (ct, tag) = encrypt_part(&c, &iv, &[0u8; 16]);
        assert_eq!(ct, hex("cea7403d4d606b6e074ec5d3baf39d18"));
        assert_eq!(tag.to_vec(), hex("d0d1c8a799996bf0265b98b5d48ab919"));

        // The same part as the filter's chunk: metadata and data by hand.
        let md = tiledb_codec_format::table!(EncryptionChunkMetadata {
            num_metadata_parts: 0,
            num_data_parts: 1,
            metadata_parts: vec![],
            data_parts: vec![tiledb_codec_format::table!(AesPart {
                plaintext_length: 16,
                encrypted_length: 16,
                iv: iv.to_vec(),
                tag: tag.to_vec(),
            })],
        });
        let bytes = encode(&md).unwrap();
        assert_eq!(bytes.len(), 8 + 8 + 12 + 16);
        let r = Aes256GcmFilter
            .reverse(&cx(Some(&key)), &bytes, &ct)
            .unwrap();
        assert_eq!(r.data, vec![0u8; 16]);
        assert!(r.metadata.is_empty());
    }

    /// What the filter writes decrypts with the `aes-gcm` crate directly,
    /// with the IV and tag from the chunk metadata.
    #[test]
    fn forward_part_matches_aes_gcm_directly() {
        let key: [u8; 32] = *b"0123456789abcdeF0123456789abcdeF";
        let plain = b"a part of a TileDB chunk".to_vec();
        let p = Aes256GcmFilter
            .forward(&cx(Some(&key)), Parts::chunk(&plain))
            .unwrap();
        let (md, _) = decode::<EncryptionChunkMetadata>(&p.metadata_bytes(), 0, ()).unwrap();
        assert_eq!((md.num_metadata_parts, md.num_data_parts), (0, 1));
        let part = &md.data_parts[0];
        assert_eq!(part.plaintext_length as usize, plain.len());
        assert_eq!(part.encrypted_length as usize, plain.len());
        let data = p.data_bytes();
        assert_ne!(data, plain);

        let cipher = Aes256Gcm::new(&Key::<Aes256Gcm>::from(key));
        let mut buf = data.clone();
        let iv: [u8; 12] = part.iv.as_slice().try_into().unwrap();
        let tag: [u8; 16] = part.tag.as_slice().try_into().unwrap();
        cipher
            .decrypt_inout_detached(
                &Nonce::from(iv),
                &[],
                buf.as_mut_slice().into(),
                &Tag::from(tag),
            )
            .unwrap();
        assert_eq!(buf, plain);
        // And encrypting again with that IV gives the same bytes and tag.
        let (again, tag2) = encrypt_part(&cipher, &iv, &plain);
        assert_eq!((again, tag2), (data, tag));
    }

    #[test]
    fn fresh_iv_per_part() {
        let key = [7u8; 32];
        let input = Parts {
            metadata: vec![b"same".to_vec()],
            data: vec![b"same".to_vec(), b"same".to_vec()],
        };
        let p = Aes256GcmFilter.forward(&cx(Some(&key)), input).unwrap();
        let (md, _) = decode::<EncryptionChunkMetadata>(&p.metadata_bytes(), 0, ()).unwrap();
        let ivs: Vec<_> = md
            .metadata_parts
            .iter()
            .chain(&md.data_parts)
            .map(|p| p.iv.clone())
            .collect();
        assert_eq!(ivs.len(), 3);
        assert!(ivs[0] != ivs[1] && ivs[1] != ivs[2] && ivs[0] != ivs[2]);
    }

    #[test]
    fn missing_and_wrong_keys_are_clear_errors() {
        let key = [1u8; 32];
        let p = Aes256GcmFilter
            .forward(&cx(Some(&key)), Parts::chunk(b"secret"))
            .unwrap();
        let (md, data) = (p.metadata_bytes(), p.data_bytes());
        let e = Aes256GcmFilter.reverse(&cx(None), &md, &data).unwrap_err();
        assert_eq!(e.what, MISSING_KEY);
        let e = Aes256GcmFilter
            .forward(&cx(None), Parts::chunk(b"x"))
            .unwrap_err();
        assert_eq!(e.what, MISSING_KEY);
        let e = Aes256GcmFilter
            .reverse(&cx(Some(&[2u8; 32])), &md, &data)
            .unwrap_err();
        assert_eq!(e.what, BAD_KEY);
        let mut damaged = data.clone();
        damaged[0] ^= 1;
        let e = Aes256GcmFilter
            .reverse(&cx(Some(&key)), &md, &damaged)
            .unwrap_err();
        assert_eq!(e.what, BAD_KEY);
        // Truncated data or metadata: an error, no panic.
        assert!(Aes256GcmFilter
            .reverse(&cx(Some(&key)), &md, &data[..3])
            .is_err());
        assert!(Aes256GcmFilter
            .reverse(&cx(Some(&key)), &md[..20], &data)
            .is_err());
    }

    proptest! {
        #[test]
        fn identity(
            key in any::<[u8; 32]>(),
            metadata in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..3),
            data in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..512), 0..3),
            rest in proptest::collection::vec(any::<u8>(), 0..8),
        ) {
            let input = Parts { metadata: metadata.clone(), data: data.clone() };
            let p = Aes256GcmFilter.forward(&cx(Some(&key)), input).unwrap();
            prop_assert_eq!(p.metadata.len(), 1);
            prop_assert_eq!(p.data.len(), 1);
            // Metadata left after this filter's own is not this filter's.
            let mut md = p.metadata_bytes();
            md.extend_from_slice(&rest);
            let r = Aes256GcmFilter.reverse(&cx(Some(&key)), &md, &p.data_bytes()).unwrap();
            prop_assert_eq!(r.metadata, metadata.concat());
            prop_assert_eq!(r.data, data.concat());
        }
    }
}
