//! The second half of `object_store.rs` (split to keep each file under 1,000 lines).

use super::*;

#[async_trait::async_trait]
impl object_store::ObjectStore for InFlight {
    async fn put_opts(
        &self,
        location: &object_store::path::Path,
        payload: object_store::PutPayload,
        opts: object_store::PutOptions,
    ) -> object_store::Result<object_store::PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &object_store::path::Path,
        opts: object_store::PutMultipartOptions,
    ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &object_store::path::Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.now.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        self.gets.fetch_add(1, SeqCst);
        self.got
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(location.to_string());
        for _ in 0..4 {
            yield_once().await;
        }
        let ranged = options.range.is_some();
        let out = self.inner.get_opts(location, options).await;
        self.now.fetch_sub(1, SeqCst);
        let pad = self.pad.load(SeqCst);
        match out {
            Ok(mut r) if ranged && pad > 0 => {
                use futures::StreamExt;
                use object_store::GetResultPayload::Stream;
                let Stream(body) =
                    std::mem::replace(&mut r.payload, Stream(futures::stream::empty().boxed()))
                else {
                    unreachable!("the memory store answers with a stream")
                };
                let more = futures::stream::once(async move { Ok(vec![0u8; pad].into()) });
                r.payload = Stream(body.chain(more).boxed());
                Ok(r)
            }
            out => out,
        }
    }

    fn delete_stream(
        &self,
        locations: futures::stream::BoxStream<
            'static,
            object_store::Result<object_store::path::Path>,
        >,
    ) -> futures::stream::BoxStream<'static, object_store::Result<object_store::path::Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(
        &self,
        prefix: Option<&object_store::path::Path>,
    ) -> futures::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(
        &self,
        prefix: Option<&object_store::path::Path>,
    ) -> object_store::Result<object_store::ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &object_store::path::Path,
        to: &object_store::path::Path,
        options: object_store::CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

/// The array at `local` uploaded to an [`InFlight`] store, and opened from
/// it with `fetch`.
pub(super) fn in_flight_array(
    local: &Path,
    fetch: tiledb_codec::raw::storage::object::FetchOptions,
) -> (std::sync::Arc<InFlight>, tiledb_codec::Array) {
    in_flight_array_at(local, "tiles64", fetch)
}

/// [`in_flight_array`] of the array uploaded as `name`.
pub(super) fn in_flight_array_at(
    local: &Path,
    name: &str,
    fetch: tiledb_codec::raw::storage::object::FetchOptions,
) -> (std::sync::Arc<InFlight>, tiledb_codec::Array) {
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&storage, local, &root.join(name));
    // No tiles kept between reads: these tests count each read's requests.
    let mut fetch = fetch;
    fetch.tile_cache = 0;
    storage.set_fetch_options(fetch);
    let array = tiledb_codec::Array::open_with(
        root.join(name),
        tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
    )
    .unwrap();
    (store, array)
}

/// Pending once (waking itself), then ready: lets other futures run.
pub(super) async fn yield_once() {
    let mut done = false;
    futures::future::poll_fn(|cx| {
        if done {
            std::task::Poll::Ready(())
        } else {
            done = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await
}

/// `FetchOptions::concurrency` bounds the GETs in flight: a read whose
/// tiles are fetched one request each (merging off) never has more than
/// the bound at once, and reaches it; and a larger bound lets more run.
#[test]
pub(super) fn the_concurrency_option_bounds_requests_in_flight() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-in-flight");
    let local = multi_tile_array(&tmp.0);
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    for bound in [1usize, 3, 6] {
        let (store, array) = in_flight_array(&local, {
            let mut lit = FetchOptions::default();
            lit.max_request = 0;
            lit.concurrency = bound;
            lit
        });
        store.most.store(0, SeqCst);
        let got = array.reader().read().unwrap();
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want.column::<f64>("v").unwrap()
        );
        let (most, gets) = (store.most.load(SeqCst), store.gets.load(SeqCst));
        assert!(gets > 3 * 64, "{gets} GETs");
        assert_eq!(most, bound, "most GETs in flight with a bound of {bound}");
    }
}

/// A server whose ranged answers carry more bytes than the range they
/// announce: the read is an error naming the object, not a buffer grown
/// with whatever comes.
#[test]
pub(super) fn an_answer_longer_than_its_range_is_refused() {
    use std::sync::atomic::Ordering::SeqCst;
    let (tmp, streamed) = (
        write_support::TempDir::new("s3-long-answer"),
        write_support::TempDir::new("s3-long-answer-streamed"),
    );
    // Tiles fetched then decoded, and tiles streamed.
    for local in [multi_tile_array(&tmp.0), side_by_side_array(&streamed.0)] {
        let (store, array) = in_flight_array(&local, Default::default());
        store.pad.store(1000, SeqCst);
        let err = array.reader().read().unwrap_err().to_string();
        assert!(err.contains("longer than"), "{err}");
        assert!(err.contains("tiles64"), "{err}");
    }
}

/// A 1-D dense array of 64,000 cells in 64 tiles, ZSTD `v` and unfiltered
/// `u`, written as two fragments side by side (cells 0-31,999 and
/// 32,000-63,999), no fragment over another.
pub(super) fn side_by_side_array(dir: &Path) -> PathBuf {
    let array = tiles64(dir, "u", false);
    for half in [0i64, 32_000] {
        let v: Vec<f64> = (half..half + 32_000)
            .map(|i| (i as f64 * 0.37).sin())
            .collect();
        let u: Vec<i32> = (half..half + 32_000).map(|i| i as i32 * 3).collect();
        array
            .write()
            .range("d", half..=half + 31_999)
            .column("v", &v)
            .column("u", &u)
            .commit()
            .unwrap();
    }
    dir.join("tiles64")
}

/// The GETs one read of `array` makes, checking its cells against `want`.
pub(super) fn gets_of_read(
    store: &InFlight,
    array: &tiledb_codec::Array,
    want: &tiledb_codec::Batch,
    what: &str,
) -> usize {
    use std::sync::atomic::Ordering::SeqCst;
    let before = store.gets.load(SeqCst);
    let got = array.reader().read().unwrap();
    assert_eq!(
        got.column::<f64>("v").unwrap(),
        want.column::<f64>("v").unwrap(),
        "{what}"
    );
    assert_eq!(
        got.column::<i32>("u").unwrap(),
        want.column::<i32>("u").unwrap(),
        "{what}"
    );
    store.gets.load(SeqCst) - before
}

/// Dense tiles that land whole in the result, from fragments side by side,
/// are streamed into their places (filtered or not): one request per data file however small
/// the read-ahead (which bounds only what a read holds of fetched tiles,
/// and a streamed tile is never held whole), with the local read's cells;
/// a box that cuts tiles too. A fragment written over others takes the
/// fetch-then-decode path instead, group by group, with the same cells.
#[test]
pub(super) fn dense_tiles_stream_into_their_places() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-stream");
    let local = side_by_side_array(&tmp.0);
    let fetch = {
        let mut lit = FetchOptions::default();
        lit.read_ahead = 1;
        lit
    };
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    let (store, array) = in_flight_array(&local, fetch);
    // The first read also fetches the fragments' tile lists.
    gets_of_read(&store, &array, &want, "side by side");
    let streamed = gets_of_read(&store, &array, &want, "side by side, again");
    // Two attributes of two fragments, one file each: 4 requests.
    assert_eq!(streamed, 4, "GETs of a streamed read");

    // A box that cuts its first and last tiles: in groups of one tile.
    let boxed = |a: &Array| a.reader().range("d", 12_345..=40_321).read().unwrap();
    let (want_box, got_box) = (boxed(&Array::open(&local).unwrap()), boxed(&array));
    assert_eq!(
        got_box.column::<f64>("v").unwrap(),
        want_box.column::<f64>("v").unwrap()
    );
    assert_eq!(
        got_box.column::<i32>("u").unwrap(),
        want_box.column::<i32>("u").unwrap()
    );
    // With a read-ahead that holds the two cut tiles (of about 12 KB with
    // both attributes): they are fetched apart (4 GETs) while the 27 tiles
    // between them stream (one GET per attribute and fragment: 4); with
    // none, the cut tiles stream too, their cells spread over the result
    // as they come: 4 GETs in all.
    let box_gets = |read_ahead: u64| {
        let (store, array) = in_flight_array(&local, {
            let mut lit = FetchOptions::default();
            lit.read_ahead = read_ahead;
            lit
        });
        boxed(&array);
        let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
        let got = boxed(&array);
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want_box.column::<f64>("v").unwrap()
        );
        assert_eq!(
            got.column::<i32>("u").unwrap(),
            want_box.column::<i32>("u").unwrap()
        );
        store.gets.load(std::sync::atomic::Ordering::SeqCst) - before
    };
    let (some, none) = (box_gets(32 << 10), box_gets(1));
    assert!(some <= 8, "GETs of a box whose inner tiles stream: {some}");
    assert_eq!(none, 4, "GETs of a box streamed whole");

    // A third fragment over tiles 10-20: its cells win, and nothing is
    // streamed (in which order tiles arrive would decide who wins).
    let over: Vec<f64> = vec![-1.0; 11_000];
    let under: Vec<i32> = vec![-7; 11_000];
    Array::open(&local)
        .unwrap()
        .write()
        .range("d", 10_000..=20_999)
        .column("v", &over)
        .column("u", &under)
        .commit()
        .unwrap();
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.column::<i32>("u").unwrap()[15_000], -7);
    let (store, array) = in_flight_array(&local, fetch);
    gets_of_read(&store, &array, &want, "overlapping");
    let grouped = gets_of_read(&store, &array, &want, "overlapping, again");
    assert!(grouped >= 2 * 64, "GETs of an overlapping read: {grouped}");
}

/// A dense 2-D array (200 x 320 cells, tiles of 50 x 40) with a ZSTD
/// float attribute `v` and a nullable int attribute `n` (validity ZSTD
/// too), written by our writer in two fragments side by side: rows 0-99
/// and 100-199.
pub(super) fn two_d_nullable_array(dir: &Path) -> PathBuf {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let dim = |name: &str, hi: i64, extent: i64| {
        DimensionBuilder::new(name, Datatype::Int64)
            .domain(0..=hi)
            .tile_extent(extent)
    };
    let schema = SchemaBuilder::dense()
        .dimension(dim("r", 199, 50))
        .dimension(dim("c", 319, 40))
        .attribute(
            AttributeBuilder::new("v", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .attribute(AttributeBuilder::new("n", Datatype::Int32).nullable())
        .validity_filters([Filter::Zstd { level: 3 }])
        .build()
        .unwrap();
    let array = Array::create(dir.join("grid"), &schema).unwrap();
    for rows in [0i64..=99, 100..=199] {
        let cells = rows.clone().flat_map(|r| (0..320i64).map(move |c| (r, c)));
        let v: Vec<f64> = cells
            .clone()
            .map(|(r, c)| (r * 320 + c) as f64 * 0.5)
            .collect();
        let n: Vec<Option<i32>> = cells
            .map(|(r, c)| ((r + c) % 5 != 0).then_some((r * 1000 + c) as i32))
            .collect();
        array
            .write()
            .range("r", rows)
            .range("c", 0..=319)
            .column("v", &v)
            .nullable("n", &n)
            .commit()
            .unwrap();
    }
    dir.join("grid")
}

/// Tiles of a 2-D array, which do not land whole in the result, and
/// validity tiles stream too when the fragments do not overlap: a full
/// read and a box that cuts tiles each fetch every file once (one GET per
/// file, six in all) however small the read-ahead, with the local read's
/// cells and validity. A fragment written over the others turns streaming
/// off (in which order tiles arrived would decide who wins): the read then
/// goes group by group, in more requests, with the same cells.
#[test]
pub(super) fn tiles_of_any_shape_stream_with_their_validity() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, ReaderBuilder};
    let tmp = write_support::TempDir::new("s3-stream-2d");
    let local = two_d_nullable_array(&tmp.0);
    let fetch = {
        let mut lit = FetchOptions::default();
        lit.read_ahead = 1;
        lit
    };
    fn full(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r
    }
    fn boxed(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r.range("r", 30..=170).range("c", 15..=300)
    }
    let gets = |local: &Path, shape: fn(ReaderBuilder<'_>) -> ReaderBuilder<'_>, what: &str| {
        let want = shape(Array::open(local).unwrap().reader()).read().unwrap();
        let (store, array) = in_flight_array_at(local, "grid", fetch);
        // The first read also fetches the fragments' tile lists.
        shape(array.reader()).read().unwrap();
        let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
        let got = shape(array.reader()).read().unwrap();
        assert_eq!(got.len(), want.len(), "{what}");
        assert_eq!(
            got.column::<f64>("v").unwrap(),
            want.column::<f64>("v").unwrap(),
            "{what}"
        );
        assert_eq!(
            got.nullable::<i32>("n").unwrap(),
            want.nullable::<i32>("n").unwrap(),
            "{what}"
        );
        store.gets.load(std::sync::atomic::Ordering::SeqCst) - before
    };
    assert_eq!(gets(&local, full, "full read"), 6, "GETs of a full read");
    assert_eq!(gets(&local, boxed, "box"), 6, "GETs of a box");
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.len(), 200 * 320);
    assert!(want.validity("n").unwrap().iter().any(|v| !v));

    // Over rows 40-60 and columns 10-50: grouped, in more requests.
    let cells = 21 * 41;
    Array::open(&local)
        .unwrap()
        .write()
        .range("r", 40..=60)
        .range("c", 10..=50)
        .column("v", &vec![-1.0f64; cells])
        .nullable("n", &vec![None::<i32>; cells])
        .commit()
        .unwrap();
    let over = gets(&local, full, "overlapping");
    assert!(over > 6, "GETs of an overlapping read: {over}");
    let got = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(got.column::<f64>("v").unwrap()[50 * 320 + 20], -1.0);
}

/// Var-sized dense cells from an object store: with a read-ahead of one
/// byte each row of tiles is its own group (its tiles fetched while the
/// row before is set, then let go), in more requests than with the default
/// read-ahead; both give the local read's strings, nulls included, over
/// overlapping fragments, full and boxed.
#[test]
pub(super) fn var_sized_dense_cells_come_group_by_group() {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, ReaderBuilder, SchemaBuilder};
    let tmp = write_support::TempDir::new("s3-var-dense");
    let dim = |name: &str, hi: i64, extent: i64| {
        DimensionBuilder::new(name, Datatype::Int64)
            .domain(0..=hi)
            .tile_extent(extent)
    };
    let schema = SchemaBuilder::dense()
        .dimension(dim("r", 119, 20))
        .dimension(dim("c", 59, 30))
        .attribute(
            AttributeBuilder::new("s", Datatype::StringUtf8)
                .var()
                .nullable()
                .filters([Filter::Zstd { level: 3 }]),
        )
        .build()
        .unwrap();
    let local = tmp.0.join("strings");
    let array = Array::create(&local, &schema).unwrap();
    let write =
        |rows: std::ops::RangeInclusive<i64>, cols: std::ops::RangeInclusive<i64>, tag: &str| {
            let cells: Vec<Option<String>> = rows
                .clone()
                .flat_map(|r| cols.clone().map(move |c| (r, c)))
                .map(|(r, c)| {
                    ((r * 7 + c) % 9 != 0)
                        .then(|| format!("{tag}{}", "x".repeat(((r + c) % 13) as usize)))
                })
                .collect();
            array
                .write()
                .range("r", rows)
                .range("c", cols)
                .nullable_strings("s", &cells)
                .commit()
                .unwrap();
        };
    write(0..=59, 0..=59, "a");
    write(60..=119, 0..=59, "b");
    // Over both: rows 50..70, columns 10..40.
    write(50..=70, 10..=40, "c");
    fn full(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r
    }
    fn boxed(r: ReaderBuilder<'_>) -> ReaderBuilder<'_> {
        r.range("r", 15..=100).range("c", 5..=44)
    }
    let mut requests = Vec::new();
    for ahead in [1, FetchOptions::default().read_ahead] {
        let fetch = {
            let mut lit = FetchOptions::default();
            lit.read_ahead = ahead;
            lit
        };
        let (store, array) = in_flight_array_at(&local, "strings", fetch);
        array.reader().read().unwrap();
        let mut gets = 0;
        type Shape = fn(ReaderBuilder<'_>) -> ReaderBuilder<'_>;
        let shapes: [(Shape, &str); 2] = [(full, "full"), (boxed, "box")];
        for (shape, what) in shapes {
            let want = shape(Array::open(&local).unwrap().reader()).read().unwrap();
            let before = store.gets.load(std::sync::atomic::Ordering::SeqCst);
            let got = shape(array.reader()).read().unwrap();
            gets += store.gets.load(std::sync::atomic::Ordering::SeqCst) - before;
            let (g, w) = (
                got.nullable_strings("s").unwrap(),
                want.nullable_strings("s").unwrap(),
            );
            assert_eq!(g, w, "{what}, read-ahead {ahead}");
            assert!(g.contains(&None) && g.iter().any(|s| s.is_some_and(|s| s.starts_with('c'))));
        }
        requests.push(gets);
    }
    assert!(
        requests[0] > requests[1],
        "GETs with a read-ahead of 1 byte and by default: {requests:?}"
    );
}

/// A data tile whose chunk count cannot be, read from an object store:
/// a streamed read is an error naming the data file, the offset, the table
/// and the field, not a panic.
#[test]
pub(super) fn a_damaged_streamed_tile_is_a_typed_error() {
    let tmp = write_support::TempDir::new("s3-stream-damaged");
    let local = side_by_side_array(&tmp.0);
    // The second tile of the newest fragment's `u` (a1.tdb): 1,000 cells
    // of 4 bytes in one chunk, so 8 + 12 + 4,000 bytes a tile.
    let mut frags: Vec<PathBuf> = std::fs::read_dir(local.join("__fragments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    frags.sort();
    let file = frags[1].join("a1.tdb");
    let mut bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes.len(), 32 * 4020, "{}", file.display());
    bytes[4020..4028].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (_, array) = in_flight_array(&local, Default::default());
    let err = array.reader().read().unwrap_err().to_string();
    for part in ["a1.tdb", "4020", "Tile", "num_chunks", "cannot fit"] {
        assert!(err.contains(part), "{part} in: {err}");
    }
}

/// One `ObjectStorage` kept across opens, as a service keeps its client:
/// each open lists the array afresh, so it sees a fragment committed since
/// through another client, and fetches the metadata only of that fragment
/// (what it fetched before is kept, as the engine's VFS keeps it); an
/// object whose size changed is fetched again, and with nothing kept every
/// open fetches every fragment's metadata.
#[test]
pub(super) fn a_storage_kept_across_opens_sees_new_fragments_and_keeps_their_metadata() {
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let tmp = write_support::TempDir::new("s3-reopen");
    let local = side_by_side_array(&tmp.0);
    let fragments = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(local.join("__fragments"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&storage, &local, &root.join("tiles64"));
    let open = || {
        Array::open_with(
            root.join("tiles64"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
    };
    let got = || store.got.lock().unwrap().clone();
    let metadata = |gets: &[String]| -> Vec<String> {
        gets.iter()
            .filter(|g| g.ends_with("__fragment_metadata.tdb") || g.contains("/__schema/"))
            .cloned()
            .collect()
    };
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    gets_of_read(&store, &open().unwrap(), &want, "first open");
    let first = metadata(&got());
    assert!(first.len() >= 3, "two fragments and a schema: {first:?}");
    let fetched_before = got().len();
    assert_eq!(
        gets_of_read(&store, &open().unwrap(), &want, "second open"),
        4,
        "the data files only"
    );
    assert!(metadata(&got()[fetched_before..]).is_empty());

    // A fragment over tiles 10-20, uploaded by another client.
    let old = fragments();
    Array::open(&local)
        .unwrap()
        .write()
        .range("d", 10_000..=20_999)
        .column("v", &vec![-1.0f64; 11_000])
        .column("u", &vec![-7i32; 11_000])
        .commit()
        .unwrap();
    let new: Vec<String> = fragments()
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    assert_eq!(new.len(), 1);
    let (other, other_root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    upload(&other, &local, &other_root.join("tiles64"));
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    assert_eq!(want.column::<i32>("u").unwrap()[15_000], -7);
    let fetched_before = got().len();
    gets_of_read(&store, &open().unwrap(), &want, "after a commit elsewhere");
    let since = metadata(&got()[fetched_before..]);
    assert!(!since.is_empty());
    assert!(
        since.iter().all(|g| g.contains(&new[0])),
        "only the new fragment's metadata: {since:?}"
    );

    // An object that changed size is not taken from what was kept.
    let changed = format!("tiles64/__fragments/{}/__fragment_metadata.tdb", old[0]);
    let mut bytes = std::fs::read(
        local
            .join("__fragments")
            .join(&old[0])
            .join("__fragment_metadata.tdb"),
    )
    .unwrap();
    bytes.extend_from_slice(&[0; 16]);
    futures::executor::block_on(object_store::ObjectStoreExt::put(
        &store.inner,
        &object_store::path::Path::from(changed.as_str()),
        bytes.into(),
    ))
    .unwrap();
    let fetched_before = got().len();
    let _ = open().and_then(|a| a.reader().read());
    assert!(
        got()[fetched_before..].iter().any(|g| g == &changed),
        "{changed} fetched again"
    );

    // Nothing kept: every fragment's metadata is fetched again.
    let fresh = write_support::TempDir::new("s3-reopen-fresh");
    let store = std::sync::Arc::new(InFlight::new());
    let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
    storage.set_fetch_options({
        let mut lit = FetchOptions::default();
        lit.metadata_cache = 0;
        lit
    });
    let local = side_by_side_array(&fresh.0);
    upload(&storage, &local, &root.join("tiles64"));
    let want = Array::open(&local).unwrap().reader().read().unwrap();
    let array = || {
        Array::open_with(
            root.join("tiles64"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
        .unwrap()
    };
    gets_of_read(&store, &array(), &want, "nothing kept");
    let fetched_before = store.got.lock().unwrap().len();
    gets_of_read(&store, &array(), &want, "nothing kept, again");
    let again = metadata(&store.got.lock().unwrap()[fetched_before..]);
    assert!(again.len() >= 3, "{again:?}");
}

/// A box of a sparse array of four fragments, read from an object store:
/// the tiles the box picks of every fragment (each field's) are fetched in
/// one round, more requests in flight at once than one fragment has files,
/// and the cells are the local read's. With a read-ahead too small for
/// them all, fragment by fragment as before, with the same cells.
#[test]
pub(super) fn a_sparse_box_fetches_the_tiles_of_every_fragment_at_once() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::model::Filter;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let tmp = write_support::TempDir::new("s3-sparse-box");
    let dim = |n: &str| {
        DimensionBuilder::new(n, Datatype::Int64)
            .domain(0..=999)
            .tile_extent(100)
    };
    let schema = SchemaBuilder::sparse()
        .dimension(dim("x"))
        .dimension(dim("y"))
        .attribute(
            AttributeBuilder::new("a", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .capacity(500)
        .build()
        .unwrap();
    let local = tmp.0.join("sparse");
    let array = Array::create(&local, &schema).unwrap();
    for f in 0..4i64 {
        let cells: Vec<(i64, i64)> = (0..4_000i64)
            // Distinct: i mod 1000 gives x, i / 1000 the band of y.
            .map(|i| {
                let x = (i * 37 + f * 11) % 1000;
                (x, i / 1000 * 250 + (i * 7 + f * 29) % 250)
            })
            .collect();
        let x: Vec<i64> = cells.iter().map(|c| c.0).collect();
        let y: Vec<i64> = cells.iter().map(|c| c.1).collect();
        let a: Vec<f64> = (0..4_000).map(|i| (f * 4_000 + i) as f64).collect();
        array
            .write()
            .column("x", &x)
            .column("y", &y)
            .column("a", &a)
            .commit()
            .unwrap();
    }
    let boxed = |a: &Array| {
        a.reader()
            .range("x", 250..=499)
            .range("y", 300..=649)
            .read()
            .unwrap()
    };
    let want = boxed(&Array::open(&local).unwrap());
    assert!(want.len() > 100, "{} cells", want.len());
    for (ahead, together) in [(FetchOptions::default().read_ahead, true), (1, false)] {
        let store = std::sync::Arc::new(InFlight::new());
        let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
        upload(&storage, &local, &root.join("sparse"));
        storage.set_fetch_options({
            let mut lit = FetchOptions::default();
            lit.read_ahead = ahead;
            lit
        });
        let array = Array::open_with(
            root.join("sparse"),
            tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
        )
        .unwrap();
        store.most.store(0, SeqCst);
        let got = boxed(&array);
        for c in ["x", "y"] {
            assert_eq!(
                got.column::<i64>(c).unwrap(),
                want.column::<i64>(c).unwrap()
            );
        }
        assert_eq!(
            got.column::<f64>("a").unwrap(),
            want.column::<f64>("a").unwrap()
        );
        let most = store.most.load(SeqCst);
        // x, y and a: three files a fragment.
        if together {
            assert!(most > 3, "{most} GETs in flight at most");
        } else {
            assert!(most <= 3, "{most} GETs in flight at most, read-ahead 1");
        }
    }
}

/// Small tiles are kept between reads (`FetchOptions::tile_cache`): a
/// sparse array read again through the same storage fetches no tile it
/// fetched before, and returns the same cells; with the cache off, or
/// with tiles longer than `tile_cache_range`, each read fetches its tiles
/// again.
#[test]
pub(super) fn small_tiles_are_kept_between_reads() {
    use std::sync::atomic::Ordering::SeqCst;
    use tiledb_codec::raw::storage::object::FetchOptions;
    use tiledb_codec::Array;
    let fixture = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let want = Array::open(&fixture).unwrap().reader().read().unwrap();
    let gets_of_two_reads = |tile_cache: u64, tile_cache_range: u64| {
        let store = std::sync::Arc::new(InFlight::new());
        let (storage, root) = ObjectStorage::with_store(store.clone(), "s3://mem").unwrap();
        upload(&storage, &fixture, &root.join("a"));
        let mut fetch = FetchOptions::default();
        fetch.tile_cache = tile_cache;
        fetch.tile_cache_range = tile_cache_range;
        storage.set_fetch_options(fetch);
        let mut gets = Vec::new();
        for _ in 0..2 {
            let array = Array::open_with(
                root.join("a"),
                tiledb_codec::OpenOptions::new().with_storage(storage.clone().into()),
            )
            .unwrap();
            let before = store.gets.load(SeqCst);
            let got = array.reader().read().unwrap();
            gets.push(store.gets.load(SeqCst) - before);
            assert_eq!(
                format!("{got:?}"),
                format!("{want:?}"),
                "tile cache {tile_cache}"
            );
            assert_eq!(
                got.column::<i64>("a").unwrap(),
                want.column::<i64>("a").unwrap()
            );
        }
        gets
    };
    let d = FetchOptions::default();
    let kept = gets_of_two_reads(d.tile_cache, d.tile_cache_range);
    let off = gets_of_two_reads(0, d.tile_cache_range);
    // The fixture's tiles are a few bytes each: none is kept at 1 byte.
    let too_long = gets_of_two_reads(d.tile_cache, 1);
    assert_eq!(too_long, off, "no tile is short enough to keep");
    assert!(kept[0] > 0, "the first read fetches its tiles: {kept:?}");
    assert_eq!(kept[1], 0, "the second read fetches nothing: {kept:?}");
    assert!(
        off[1] > 0,
        "with no cache, the second read fetches its tiles: {off:?}"
    );
    assert_eq!(
        off[0], kept[0],
        "the first reads fetch alike: {kept:?} {off:?}"
    );
}
