//! Reads into buffers the caller owns (`ReaderBuilder::read_into`,
//! `ArrayReader::read_into`) hold the cells `read` returns, whichever way
//! they are made: decoded straight into the buffers (dense, fixed-size, no
//! condition) or copied in; and refuse what does not fit before writing.

use crate::common;

use tiledb_codec::raw::read::{ArrayReader, Cells, Query, Sink};
use tiledb_codec::{Array, Error, ReadOptions, Target};

fn options(key: Option<&str>) -> ReadOptions {
    let mut opts = ReadOptions::default();
    if let Some(k) = key {
        opts = opts.with_key(k.as_bytes().try_into().unwrap());
    }
    opts
}

/// Reads `q` into fresh buffers sized from `cells`, for every fixed-size
/// column of `cells`, and compares; the buffers start with 0xAB so that a
/// cell left unwritten shows.
fn check_into(reader: &ArrayReader, q: &Query, cells: &Cells, id: &str) -> usize {
    let fixed: Vec<_> = cells
        .columns
        .iter()
        .filter(|c| c.offsets().is_none())
        .collect();
    if fixed.is_empty() {
        return 0;
    }
    let mut data: Vec<Vec<u8>> = fixed.iter().map(|c| vec![0xAB; c.data().len()]).collect();
    let mut validity: Vec<Vec<u8>> = fixed.iter().map(|_| vec![0xAB; cells.len]).collect();
    let mut sinks: Vec<Sink> = fixed
        .iter()
        .zip(data.iter_mut().zip(validity.iter_mut()))
        .map(|(c, (d, v))| {
            let mut lit = Sink::new(c.field.name.clone(), d);
            lit.validity = Some(v);
            lit
        })
        .collect();
    let n = reader
        .read_into(q, &mut sinks)
        .unwrap_or_else(|e| panic!("{id}: read_into: {e}"));
    assert_eq!(n, cells.len, "{id}: cells");
    for ((c, d), v) in fixed.iter().zip(&data).zip(&validity) {
        assert_eq!(d.as_slice(), c.data(), "{id}: values of {}", c.field.name);
        let want: Vec<u8> = match c.validity() {
            Some(v) => v.to_vec(),
            None => vec![1; cells.len],
        };
        assert_eq!(v, &want, "{id}: validity of {}", c.field.name);
    }
    fixed.len()
}

#[test]
fn every_fixture_reads_into_buffers_what_read_returns() {
    let mut checked = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let Ok(reader) = ArrayReader::open(&f.path, &options(f.key.as_deref())) else {
            continue;
        };
        // Every fixed-size field, the dimensions included (copied in).
        let q = Query::default();
        let Ok(cells) = reader.read(&q) else {
            continue;
        };
        checked += check_into(&reader, &q, &cells, &f.id);
        // The attributes alone: a dense array's are decoded in place.
        let q = {
            let mut lit = Query::default();
            lit.skip_coordinates = true;
            lit
        };
        let cells = reader.read(&q).unwrap();
        checked += check_into(&reader, &q, &cells, &f.id);
    }
    assert!(checked > 100, "only {checked} columns checked");
}

#[test]
fn dense_reads_into_the_same_buffers_again_and_with_ranges() {
    let array = Array::open("tests/fixtures/v22/dense_int_2d").unwrap();
    let want = array
        .reader()
        .attributes(["a"])
        .range("rows", 2..=3)
        .coordinates(false)
        .read()
        .unwrap();
    let want = want.column::<i32>("a").unwrap().into_owned();
    assert!(!want.is_empty());
    let mut buf = vec![-7i32; want.len() + 3];
    for _ in 0..2 {
        let n = array
            .reader()
            .range("rows", 2..=3)
            .read_into(&mut [Target::new("a", &mut buf)])
            .unwrap();
        assert_eq!(&buf[..n], want.as_slice());
        // Past the cells, nothing was written.
        assert_eq!(&buf[n..], &[-7, -7, -7]);
    }
}

#[test]
fn what_does_not_fit_is_refused_before_anything_is_written() {
    let array = Array::open("tests/fixtures/v22/dense_int_2d").unwrap();
    let n = array.reader().read().unwrap().len();
    // Too small.
    let mut small = vec![5i32; n - 1];
    let e = array
        .reader()
        .read_into(&mut [Target::new("a", &mut small)])
        .unwrap_err();
    assert!(e.to_string().contains("need"), "{e}");
    assert!(small.iter().all(|v| *v == 5));
    // The wrong type.
    let mut wrong = vec![0f64; n];
    let e = array
        .reader()
        .read_into(&mut [Target::new("a", &mut wrong)])
        .unwrap_err();
    assert!(matches!(e, Error::WrongType { .. }), "{e}");
    // No such field.
    let mut buf = vec![0i32; n];
    let e = array
        .reader()
        .read_into(&mut [Target::new("nope", &mut buf)])
        .unwrap_err();
    assert!(matches!(e, Error::NoSuchField { .. }), "{e}");
    // Two targets of one field.
    let (mut x, mut y) = (vec![0i32; n], vec![0i32; n]);
    let e = array
        .reader()
        .read_into(&mut [Target::new("a", &mut x), Target::new("a", &mut y)])
        .unwrap_err();
    assert!(e.to_string().contains("two sinks"), "{e}");
}

#[test]
fn nullable_and_var_sized_fields() {
    // A nullable fixed-size attribute wants a validity buffer; a var-sized
    // one cannot be read into a flat buffer.
    let mut nullable_seen = false;
    let mut var_seen = false;
    for f in common::fixtures() {
        if f.kind != "array" || f.key.is_some() {
            continue;
        }
        let Ok(array) = Array::open(&f.path) else {
            continue;
        };
        let Ok(batch) = array.reader().read() else {
            continue;
        };
        for c in &tiledb_codec::raw::cells(&batch).columns {
            let name = c.field.name.clone();
            let raw = ArrayReader::open(&f.path, &ReadOptions::default()).unwrap();
            let mut data = vec![0u8; c.data().len()];
            let mut sinks = [Sink::new(name.clone(), &mut data)];
            let got = raw.read_into(&Query::default(), &mut sinks);
            if c.offsets().is_some() {
                let e = got.unwrap_err().to_string();
                assert!(e.contains("var-sized"), "{}: {e}", f.id);
                var_seen = true;
            } else if c.field.nullable {
                let e = got.unwrap_err().to_string();
                assert!(e.contains("validity"), "{}: {e}", f.id);
                nullable_seen = true;
            }
        }
    }
    assert!(nullable_seen && var_seen);
}

/// Fragments that tile part of the domain between them, none covering the
/// whole read: the cells none holds get the fill value, the others the
/// newest fragment's value, in fresh memory and in a buffer of garbage
/// alike (slabs no fragment covers are filled, covered ones are not).
#[test]
fn fill_values_where_no_fragment_covers_a_slab() {
    use tiledb_codec::{AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
    let dir = common::scratch("into-fill");
    let path = dir.join("a");
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0i64..=23)
                .tile_extent(4i64),
        )
        .attribute(AttributeBuilder::new("v", Datatype::Int32).fill_value(-7i32))
        .build()
        .unwrap();
    let array = Array::create(&path, &schema).unwrap();
    // (first, last, value), oldest first: tiles 0-1 and 3-5 written, tile
    // 2 (cells 8..=11) never; an older fragment under part of the newer.
    let writes = [(12i64, 19i64, 5i32), (0, 7, 1), (16, 23, 3)];
    for (t, (lo, hi, v)) in writes.iter().enumerate() {
        let cells = vec![*v; (hi - lo + 1) as usize];
        array
            .write()
            .range("d", *lo..=*hi)
            .column("v", &cells)
            .timestamp(t as u64 + 1)
            .commit()
            .unwrap();
    }
    let want: Vec<i32> = (0..24i64)
        .map(|c| {
            writes
                .iter()
                .rev()
                .find(|(lo, hi, _)| (*lo..=*hi).contains(&c))
                .map_or(-7, |w| w.2)
        })
        .collect();
    assert_eq!(&want[8..12], &[-7; 4]);
    assert_eq!(&want[12..16], &[5; 4]);
    let array = Array::open(&path).unwrap();
    let fresh = array
        .reader()
        .attributes(["v"])
        .coordinates(false)
        .read()
        .unwrap();
    assert_eq!(&*fresh.column::<i32>("v").unwrap(), &want[..]);
    let mut buf = vec![0x5A5A_5A5Ai32; 24];
    let n = array
        .reader()
        .read_into(&mut [Target::new("v", &mut buf)])
        .unwrap();
    assert_eq!(n, 24);
    assert_eq!(buf, want);
}

/// Batch by batch, `Batches::next_into` writes into the caller's buffers
/// (reused from batch to batch, larger than a batch) what `next` returns:
/// every fixture, dense and sparse, with and without coordinates, in about
/// four batches each.
#[test]
fn every_fixture_reads_batches_into_buffers_what_next_returns() {
    let mut batches_checked = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let Ok(reader) = ArrayReader::open(&f.path, &options(f.key.as_deref())) else {
            continue;
        };
        for skip in [false, true] {
            let q = {
                let mut lit = Query::default();
                lit.skip_coordinates = skip;
                lit
            };
            let Ok(all) = reader.read(&q) else {
                continue;
            };
            let size = (all.len / 4).max(7);
            let q = {
                let mut lit = q;
                lit.batch_cells = Some(size);
                lit
            };
            let Ok(batches) = reader.batches(&q) else {
                continue;
            };
            let Ok(want) = batches.collect::<Result<Vec<Cells>, _>>() else {
                continue;
            };
            let Some(first) = want.first() else {
                continue;
            };
            let fixed: Vec<(String, usize)> = first
                .columns
                .iter()
                .filter(|c| c.offsets().is_none())
                .map(|c| (c.field.name.clone(), c.field.cell_size() as usize))
                .collect();
            if fixed.is_empty() {
                continue;
            }
            let room = size + 2;
            let mut data: Vec<Vec<u8>> = fixed.iter().map(|(_, cs)| vec![0; room * cs]).collect();
            let mut validity: Vec<Vec<u8>> = fixed.iter().map(|_| vec![0; room]).collect();
            let mut got = reader.batches(&q).unwrap();
            for (k, cells) in want.iter().enumerate() {
                let id = format!("{} batch {k} (coordinates skipped: {skip})", f.id);
                for (d, v) in data.iter_mut().zip(validity.iter_mut()) {
                    d.fill(0xAB);
                    v.fill(0xAB);
                }
                let mut sinks: Vec<Sink> = fixed
                    .iter()
                    .zip(data.iter_mut().zip(validity.iter_mut()))
                    .map(|((name, _), (d, v))| {
                        let mut lit = Sink::new(name.clone(), d);
                        lit.validity = Some(v);
                        lit
                    })
                    .collect();
                let n = got
                    .next_into(&mut sinks)
                    .unwrap_or_else(|| panic!("{id}: no batch"))
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(n, cells.len, "{id}: cells");
                for ((name, cs), (d, v)) in fixed.iter().zip(data.iter().zip(&validity)) {
                    let c = cells.column(name).unwrap();
                    assert_eq!(&d[..n * cs], c.data(), "{id}: values of {name}");
                    assert!(
                        d[n * cs..].iter().all(|b| *b == 0xAB),
                        "{id}: past the cells of {name}"
                    );
                    let want_v = c.validity().map_or_else(|| vec![1; n], <[u8]>::to_vec);
                    assert_eq!(&v[..n], want_v.as_slice(), "{id}: validity of {name}");
                }
                batches_checked += 1;
            }
            assert!(
                got.next_into(&mut []).is_none(),
                "{}: a batch after the last",
                f.id
            );
        }
    }
    assert!(
        batches_checked > 300,
        "only {batches_checked} batches checked"
    );
}

/// The facade's `BatchReader::next_into`: a buffer smaller than a batch is
/// refused before anything is written, and a mistyped target too.
#[test]
fn batches_into_buffers_refuse_what_does_not_fit() {
    let array = Array::open("tests/fixtures/v22/dense_int_2d").unwrap();
    let mut batches = array
        .reader()
        .attributes(["a"])
        .batch_size(30)
        .build()
        .unwrap();
    let mut small = vec![-1i32; 5];
    let e = batches
        .next_into(&mut [Target::new("a", &mut small)])
        .unwrap()
        .unwrap_err();
    assert!(e.to_string().contains("holds 20 bytes"), "{e}");
    assert!(small.iter().all(|v| *v == -1));
    let mut wrong = vec![0f64; 30];
    let e = batches
        .next_into(&mut [Target::new("a", &mut wrong)])
        .unwrap()
        .unwrap_err();
    assert!(matches!(e, Error::WrongType { .. }), "{e}");
}
