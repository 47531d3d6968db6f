//! `tiledb_codec._native`: the Rust half of the `tiledb_codec` Python
//! package. It is thin: arrays are opened, read and written through the
//! crate's facade (`tiledb_codec::Array` and `tiledb_codec::arrow`), cells
//! cross into Python over the Arrow C stream interface (no copy), and the
//! Python half (`python/tiledb_codec/`) shapes them for users.
//!
//! Every call that reads or writes files releases the GIL.

use std::ffi::CString;
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};

use arrow_array::ffi_stream::{ArrowArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{RecordBatchIterator, RecordBatchReader};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict};
use pyo3::IntoPyObjectExt;
use tiledb_codec::arrow::RecordBatches;
use tiledb_codec::{
    AggregateValue, Array, ConsolidationMode, Datatype, OpenOptions, Order, ReaderBuilder, Target,
};
use tiledb_codec::{DomainRange, MetadataValue};

mod error;
mod group;

use error::{error, refuse, refuse_key, refuse_query, refuse_schema};

pub(crate) fn key_of(key: Option<Vec<u8>>) -> PyResult<Option<[u8; 32]>> {
    key.map(|k| {
        <[u8; 32]>::try_from(k.as_slice()).map_err(|_| {
            refuse_key(format!(
                "an encryption key is 32 bytes (AES-256), not {}",
                k.len()
            ))
        })
    })
    .transpose()
}

/// An opened array (`tiledb_codec.Array` wraps it).
#[pyclass(frozen, module = "tiledb_codec._native")]
struct NativeArray {
    inner: Arc<Array>,
}

/// Opens the array at `uri`, as of the timestamps `start..=end` when
/// either is given, with an encryption key.
/// A URL (`s3://...`) opens through the object store configured by
/// `options` (the object_store crate's keys).
#[pyfunction]
#[pyo3(signature = (uri, start=None, end=None, key=None, options=Vec::new()))]
fn open(
    py: Python<'_>,
    uri: String,
    start: Option<u64>,
    end: Option<u64>,
    key: Option<Vec<u8>>,
    options: Vec<(String, String)>,
) -> PyResult<NativeArray> {
    let mut opts = OpenOptions::new().with_encryption_key(key_of(key)?);
    if start.is_some() || end.is_some() {
        opts = opts.with_time_range(start.unwrap_or(0)..=end.unwrap_or(u64::MAX));
    }
    for (k, v) in options {
        opts = opts.with_store_option(k, v);
    }
    let array = py.detach(|| Array::open_with(&uri, opts)).map_err(error)?;
    Ok(NativeArray {
        inner: Arc::new(array),
    })
}

/// The schema of a schema JSON, checked (as `SchemaBuilder::build` checks
/// one).
fn parse_schema(schema_json: &str) -> PyResult<tiledb_codec::Schema> {
    let json: serde_json::Value = serde_json::from_str(schema_json)
        .map_err(|e| refuse_schema(format!("schema JSON: {e}")))?;
    tiledb_codec::Schema::from_json(&json).map_err(error)
}

/// A schema JSON checked and completed (the defaults filled in: filters,
/// fill values, enumeration file names): what `SchemaBuilder.build` makes.
#[pyfunction]
fn check_schema(schema_json: &str) -> PyResult<String> {
    let schema = parse_schema(schema_json)?;
    serde_json::to_string(&schema.to_json()).map_err(|e| refuse(e.to_string()))
}

/// Creates an array at `uri` from a schema in the JSON of
/// `Schema.to_json()`, encrypted with `key`, its schema stamped
/// `timestamp` (ms; default now), and opens it.
#[pyfunction]
#[pyo3(signature = (uri, schema_json, key=None, timestamp=None))]
fn create(
    py: Python<'_>,
    uri: PathBuf,
    schema_json: &str,
    key: Option<Vec<u8>>,
    timestamp: Option<u64>,
) -> PyResult<NativeArray> {
    let schema = parse_schema(schema_json)?;
    let mut opts = tiledb_codec::CreateOptions::default().with_encryption_key(key_of(key)?);
    if let Some(t) = timestamp {
        opts = opts.with_timestamp(t);
    }
    let array = py
        .detach(|| Array::create_with(&uri, &schema, &opts))
        .map_err(error)?;
    Ok(NativeArray {
        inner: Arc::new(array),
    })
}

/// The schema JSON (as `create` takes it) of an Arrow schema (any object
/// with `__arrow_c_schema__`, such as a `pyarrow.Schema`): the fields named
/// in `dims` become the dimensions, the others attributes; domains and
/// tile extents are left null for the caller to fill in.
#[pyfunction]
fn schema_from_arrow(schema: Bound<'_, PyAny>, dims: Vec<String>) -> PyResult<String> {
    let capsule = schema.call_method0("__arrow_c_schema__")?;
    let capsule = capsule.cast::<PyCapsule>()?;
    let ptr = capsule
        .pointer_checked(Some(c"arrow_schema"))
        .map_err(|e| refuse(format!("not an Arrow schema capsule: {e}")))?
        .as_ptr()
        .cast::<arrow_schema::ffi::FFI_ArrowSchema>();
    // SAFETY: a capsule named "arrow_schema" holds an FFI_ArrowSchema (the
    // Arrow PyCapsule interface), alive as long as the capsule, which
    // outlives this borrow; it is read, not moved.
    let ffi = unsafe { &*ptr };
    let arrow = arrow_schema::Schema::try_from(ffi).map_err(error)?;
    let names: Vec<&str> = dims.iter().map(String::as_str).collect();
    let schema = tiledb_codec::arrow::from_arrow(&arrow, &names).map_err(error)?;
    serde_json::to_string(&schema.to_json()).map_err(|e| refuse(e.to_string()))
}

/// A (low, high) pair of Python values.
type PyPair = (Py<PyAny>, Py<PyAny>);

/// One bound of a range, as Python gives it.
#[derive(FromPyObject)]
enum PyBound {
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
}

/// A read order as Python names it (`row-major`, `col-major`, `global`,
/// `unordered`, or TileDB-Py's letters), if one is given.
fn parse_order(order: Option<String>) -> PyResult<Option<Order>> {
    order
        .map(|o| o.parse::<Order>().map_err(refuse_query))
        .transpose()
}

/// `b` reading `ranges`: (dimension, low, high) triples, inclusive.
fn with_ranges<'a>(
    mut b: ReaderBuilder<'a>,
    ranges: Vec<(String, PyBound, PyBound)>,
) -> PyResult<ReaderBuilder<'a>> {
    for (dim, lo, hi) in ranges {
        b = match (lo, hi) {
            (PyBound::Int(l), PyBound::Int(h)) => b.range(&dim, l..=h),
            (PyBound::UInt(l), PyBound::UInt(h)) => b.range(&dim, l..=h),
            (PyBound::Int(l), PyBound::UInt(h)) if l >= 0 => b.range(&dim, l as u64..=h),
            (PyBound::Str(l), PyBound::Str(h)) => b.range(&dim, l..=h),
            (l, h) => match (as_f64(&l), as_f64(&h)) {
                (Some(l), Some(h)) => b.range(&dim, l..=h),
                _ => {
                    return Err(refuse_query(format!(
                        "range on dimension {dim:?}: the bounds are of different kinds"
                    )))
                }
            },
        };
    }
    Ok(b)
}

/// The memory of a writable, contiguous numpy array, as its
/// `__array_interface__` gives it: where it starts, how many bytes, the
/// type of its elements (numpy's typestr, such as `<f8`).
struct RawBuffer {
    addr: usize,
    len: usize,
    typestr: String,
}

impl RawBuffer {
    /// The buffer of `obj`, which must be a numpy array (`ndarray` is
    /// numpy's type), writable and contiguous; `what` names it in errors.
    fn of(obj: &Bound<'_, PyAny>, ndarray: &Bound<'_, PyAny>, what: &str) -> PyResult<RawBuffer> {
        if !obj.is_instance(ndarray)? {
            let t = obj.get_type().name()?;
            return Err(refuse_query(format!("{what}: a numpy array, not a {t}")));
        }
        let flags = obj.getattr("flags")?;
        if !flags.getattr("writeable")?.extract::<bool>()? {
            return Err(refuse_query(format!("{what}: the array is read-only")));
        }
        if !flags.getattr("c_contiguous")?.extract::<bool>()?
            && !flags.getattr("f_contiguous")?.extract::<bool>()?
        {
            return Err(refuse_query(format!(
                "{what}: the array is not contiguous (a view with strides)"
            )));
        }
        let iface = obj.getattr("__array_interface__")?;
        let (addr, readonly): (usize, bool) = iface.get_item("data")?.extract()?;
        let typestr: String = iface.get_item("typestr")?.extract()?;
        let len: usize = obj.getattr("nbytes")?.extract()?;
        if readonly || (addr == 0 && len > 0) {
            return Err(refuse_query(format!(
                "{what}: the array's memory is not writable"
            )));
        }
        Ok(RawBuffer { addr, len, typestr })
    }

    /// The buffer's bytes.
    ///
    /// # Safety
    /// The array it was taken from must be alive, not resized and not
    /// otherwise accessed for as long as the slice is used, and no other
    /// slice of its bytes may be in use meanwhile.
    unsafe fn bytes<'a>(&self) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: as the caller promises; numpy says `len` bytes from
        // `addr` are the array's (contiguous, writable).
        unsafe { std::slice::from_raw_parts_mut(self.addr as *mut u8, self.len) }
    }
}

/// A [`Target`] for the field `name` over `bytes`, its values of the numpy
/// type `typestr` (in the host's byte order): the Rust type that type is,
/// which the read checks against the field's datatype.
fn target<'a>(name: String, typestr: &str, bytes: &'a mut [u8]) -> PyResult<Target<'a>> {
    let native = if cfg!(target_endian = "little") {
        '<'
    } else {
        '>'
    };
    let mut chars = typestr.chars();
    let order = chars.next().unwrap_or('?');
    let kind = chars.as_str();
    let one_byte = matches!(kind, "i1" | "u1" | "b1");
    if !one_byte && order != native && order != '=' {
        return Err(refuse_query(format!(
            "the buffer of {name:?} is {typestr}: not in the host's byte order"
        )));
    }
    Ok(match kind {
        "i1" => Target::bytes::<i8>(name, bytes),
        "u1" | "b1" => Target::bytes::<u8>(name, bytes),
        "i2" => Target::bytes::<i16>(name, bytes),
        "u2" => Target::bytes::<u16>(name, bytes),
        "i4" => Target::bytes::<i32>(name, bytes),
        "u4" => Target::bytes::<u32>(name, bytes),
        "i8" => Target::bytes::<i64>(name, bytes),
        "u8" => Target::bytes::<u64>(name, bytes),
        "f4" => Target::bytes::<f32>(name, bytes),
        "f8" => Target::bytes::<f64>(name, bytes),
        k if k.starts_with("M8") || k.starts_with("m8") => Target::bytes::<i64>(name, bytes),
        _ => {
            return Err(refuse_query(format!(
                "the buffer of {name:?} holds {typestr}, which no TileDB datatype is"
            )))
        }
    })
}

/// A Python value of a typed range bound.
fn bound_pair(py: Python<'_>, r: &DomainRange) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    fn two<'py, T: IntoPyObject<'py> + Clone>(
        py: Python<'py>,
        r: &tiledb_codec::raw::model::Range<T>,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        Ok((
            r.start.clone().into_py_any(py)?,
            r.end.clone().into_py_any(py)?,
        ))
    }
    match r {
        DomainRange::Int8(r) => two(py, r),
        DomainRange::Int16(r) => two(py, r),
        DomainRange::Int32(r) => two(py, r),
        DomainRange::Int64(r) => two(py, r),
        DomainRange::UInt8(r) => two(py, r),
        DomainRange::UInt16(r) => two(py, r),
        DomainRange::UInt32(r) => two(py, r),
        DomainRange::UInt64(r) => two(py, r),
        DomainRange::Float32(r) => two(py, r),
        DomainRange::Float64(r) => two(py, r),
        DomainRange::Bytes(r) => Ok((
            PyBytes::new(py, &r.start).into_any().unbind(),
            PyBytes::new(py, &r.end).into_any().unbind(),
        )),
        #[allow(unreachable_patterns)]
        _ => Err(refuse("a kind of range this package does not know yet")),
    }
}

/// What the worker thread of a read answers: a batch, or `None` at the
/// end.
type Answer = Option<Result<arrow_array::RecordBatch, arrow_schema::ArrowError>>;

/// The Arrow batches of a read, made on a thread of their own. The thread
/// owns an `Arc` of the array and borrows it for the read's
/// `RecordBatches` inside its own closure, so nothing outlives what it
/// borrows (no `unsafe`). It makes a batch only when one is asked for, so
/// one batch at a time exists as the memory budget says; it ends when the
/// batches do or when this is dropped (its asking channel closes).
struct WorkerBatches {
    schema: arrow_schema::SchemaRef,
    ask: mpsc::SyncSender<()>,
    answers: mpsc::Receiver<Answer>,
    done: bool,
}

impl WorkerBatches {
    /// Starts the read `build` makes of `array` on a thread; waits for its
    /// start (the first read of a sparse array happens there), so that an
    /// error in the query comes back here.
    fn start<F>(array: Arc<Array>, build: F) -> PyResult<WorkerBatches>
    where
        F: for<'a> FnOnce(&'a Array) -> PyResult<RecordBatches<'a>> + Send + 'static,
    {
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let (ask, asks) = mpsc::sync_channel::<()>(1);
        let (answer_tx, answers) = mpsc::sync_channel::<Answer>(1);
        std::thread::Builder::new()
            .name("tiledb_codec read".into())
            .spawn(move || {
                let mut batches = match build(&array) {
                    Ok(b) => b,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                if ready_tx.send(Ok(batches.schema())).is_err() {
                    return;
                }
                while asks.recv().is_ok() {
                    let next = batches.next();
                    let end = next.is_none();
                    if answer_tx.send(next).is_err() || end {
                        return;
                    }
                }
            })
            .map_err(|e| refuse(format!("cannot start the read's thread: {e}")))?;
        let schema = ready_rx
            .recv()
            .map_err(|_| refuse("the read's thread stopped before it started"))??;
        Ok(WorkerBatches {
            schema,
            ask,
            answers,
            done: false,
        })
    }
}

/// `build` itself: gives the closure the signature it is written for (the
/// batches borrow the array given).
fn read_fn<F>(build: F) -> F
where
    F: for<'a> FnOnce(&'a Array) -> PyResult<RecordBatches<'a>>,
{
    build
}

impl Iterator for WorkerBatches {
    type Item = Result<arrow_array::RecordBatch, arrow_schema::ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let answer = match self.ask.send(()) {
            Ok(()) => self.answers.recv().ok(),
            Err(_) => None,
        };
        match answer {
            Some(Some(batch)) => Some(batch),
            Some(None) => {
                self.done = true;
                None
            }
            // The thread ended without saying the batches did: it panicked.
            None => {
                self.done = true;
                Some(Err(arrow_schema::ArrowError::ExternalError(
                    "the read's thread stopped in the middle of the read".into(),
                )))
            }
        }
    }
}

impl RecordBatchReader for WorkerBatches {
    fn schema(&self) -> arrow_schema::SchemaRef {
        self.schema.clone()
    }
}

/// A read not yet consumed: hands its batches over once through
/// `__arrow_c_stream__`.
#[pyclass(module = "tiledb_codec._native")]
struct Stream {
    batches: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
}

#[pymethods]
impl Stream {
    /// The Arrow C stream of the batches (the Arrow PyCapsule interface);
    /// a requested schema is not applied (the consumer casts).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let batches = self
            .batches
            .lock()
            .map_err(|_| refuse("the stream's lock is poisoned"))?
            .take()
            .ok_or_else(|| refuse("this read's stream was already taken"))?;
        let stream = FFI_ArrowArrayStream::new(batches);
        let name = CString::new("arrow_array_stream").map_err(|e| refuse(e.to_string()))?;
        PyCapsule::new(py, stream, Some(name))
    }
}

/// How a stream's batches are made (`NativeArray.stream`'s `options`, a
/// dict with every key).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct StreamOptions {
    /// The order of the cells (`None`: the array's).
    order: Option<String>,
    /// Cells per batch (`None`: the library's default).
    batch_size: Option<usize>,
    /// The memory the read may take (`None`: the library's default).
    memory_budget: Option<u64>,
    /// Whether the coordinates are returned.
    coords: bool,
    /// Batches are made as the consumer asks for them (on a thread of the
    /// read's own), within the memory budget; otherwise every batch is
    /// made before `stream` returns (what a whole read wants, without a
    /// thread).
    lazy: bool,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            order: None,
            batch_size: None,
            memory_budget: None,
            coords: true,
            lazy: true,
        }
    }
}

#[pymethods]
impl NativeArray {
    /// Where the array is.
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }

    /// The schema as JSON text (the `schema` object of `inspect --json`).
    fn schema_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner.schema().to_json()).map_err(|e| refuse(e.to_string()))
    }

    /// The committed fragments, oldest first: dicts of name, path,
    /// timestamps, format_version, dense, cell_count, non_empty_domain.
    fn fragments<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        type Fragment = (
            String,
            PathBuf,
            (u64, u64),
            u32,
            bool,
            Option<u64>,
            Option<Vec<DomainRange>>,
        );
        // Non-empty domains may be read from the fragments' metadata files:
        // without the GIL.
        let fragments = py.detach(|| {
            self.inner
                .fragments()
                .into_iter()
                .map(|f| {
                    let t = f.timestamps();
                    Ok::<Fragment, tiledb_codec::Error>((
                        f.name().to_string(),
                        f.path().to_path_buf(),
                        (*t.start(), *t.end()),
                        f.format_version(),
                        f.is_dense(),
                        f.cell_count(),
                        f.non_empty_domain()?,
                    ))
                })
                .collect::<Result<Vec<_>, _>>()
        });
        let mut out = Vec::new();
        for (name, path, timestamps, version, dense, cells, ned) in fragments.map_err(error)? {
            let d = PyDict::new(py);
            d.set_item("name", name)?;
            d.set_item("path", path)?;
            d.set_item("timestamps", timestamps)?;
            d.set_item("format_version", version)?;
            d.set_item("dense", dense)?;
            d.set_item("cell_count", cells)?;
            let ned = match ned {
                None => None,
                Some(ranges) => Some(
                    ranges
                        .iter()
                        .map(|r| bound_pair(py, r))
                        .collect::<PyResult<Vec<_>>>()?,
                ),
            };
            d.set_item("non_empty_domain", ned)?;
            out.push(d);
        }
        Ok(out)
    }

    /// The union of the fragments' non-empty domains, one (low, high) per
    /// dimension; `None` when no fragment has one.
    fn nonempty_domain(&self, py: Python<'_>) -> PyResult<Option<Vec<PyPair>>> {
        let union = py.detach(|| {
            let mut union: Option<Vec<DomainRange>> = None;
            for f in self.inner.fragments() {
                let Some(ned) = f.non_empty_domain()? else {
                    continue;
                };
                match union.as_mut() {
                    None => union = Some(ned),
                    Some(have) => {
                        for (h, r) in have.iter_mut().zip(&ned) {
                            if !widen(h, r) {
                                return Ok(Err(format!(
                                    "fragment {}: a non-empty domain of another datatype",
                                    f.name()
                                )));
                            }
                        }
                    }
                }
            }
            Ok::<_, tiledb_codec::Error>(Ok(union))
        });
        let union = union.map_err(error)?.map_err(refuse)?;
        union
            .map(|u| u.iter().map(|r| bound_pair(py, r)).collect())
            .transpose()
    }

    /// The metadata: (key, datatype name, little-endian bytes) triples.
    fn metadata<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<(String, &'static str, Bound<'py, PyBytes>)>> {
        let meta = py.detach(|| self.inner.metadata()).map_err(error)?;
        Ok(meta
            .into_iter()
            .map(|(k, v)| (k, v.datatype.name(), PyBytes::new(py, &v.bytes)))
            .collect())
    }

    /// A read as an Arrow stream (`Stream`): `ranges` are (dimension, low,
    /// high) triples, inclusive; several on one dimension read their union.
    /// `options` (a dict with every key of `StreamOptions`; `None`: the
    /// defaults) say how the batches are made.
    #[pyo3(signature = (attrs=None, ranges=Vec::new(), condition=None, options=None))]
    fn stream(
        &self,
        py: Python<'_>,
        attrs: Option<Vec<String>>,
        ranges: Vec<(String, PyBound, PyBound)>,
        condition: Option<String>,
        options: Option<StreamOptions>,
    ) -> PyResult<Stream> {
        let StreamOptions {
            order,
            batch_size,
            memory_budget,
            coords,
            lazy,
        } = options.unwrap_or_default();
        let order = parse_order(order)?;
        let array = Arc::clone(&self.inner);
        let build = read_fn(move |array: &Array| {
            let mut b = with_ranges(array.reader().coordinates(coords), ranges)?;
            if let Some(a) = attrs {
                b = b.attributes(a);
            }
            if let Some(c) = condition {
                b = b.condition(c);
            }
            if let Some(o) = order {
                b = b.order(o);
            }
            if let Some(n) = batch_size {
                b = b.batch_size(n);
            }
            if let Some(m) = memory_budget {
                b = b.memory_budget(m);
            }
            b.arrow().map_err(error)
        });
        let batches: Box<dyn RecordBatchReader + Send> = if lazy {
            Box::new(py.detach(move || WorkerBatches::start(array, build))?)
        } else {
            Box::new(py.detach(move || {
                let batches = build(&array)?;
                let schema = batches.schema();
                let all = batches.collect::<Result<Vec<_>, _>>().map_err(error)?;
                Ok::<_, PyErr>(RecordBatchIterator::new(all.into_iter().map(Ok), schema))
            })?)
        };
        Ok(Stream {
            batches: Mutex::new(Some(batches)),
        })
    }

    /// Reads into numpy arrays the caller owns: `targets` are (field,
    /// values, validity or None) triples, each array writable and
    /// contiguous, its element type one that stands for the field's
    /// datatype; the validity (one uint8 or bool per cell) is needed for a
    /// nullable attribute. `ranges` and `order` as `stream`. Returns the
    /// cells read, written at the start of each array in the read's order.
    #[pyo3(signature = (targets, ranges=Vec::new(), order=None))]
    fn read_into(
        &self,
        py: Python<'_>,
        targets: Vec<(String, Bound<'_, PyAny>, Option<Bound<'_, PyAny>>)>,
        ranges: Vec<(String, PyBound, PyBound)>,
        order: Option<String>,
    ) -> PyResult<usize> {
        let order = parse_order(order)?;
        let ndarray = py.import("numpy")?.getattr("ndarray")?;
        let mut raws = Vec::with_capacity(targets.len());
        for (name, data, validity) in &targets {
            let d = RawBuffer::of(data, &ndarray, &format!("the buffer of {name:?}"))?;
            let v = match validity {
                None => None,
                Some(v) => {
                    let what = format!("the validity buffer of {name:?}");
                    let v = RawBuffer::of(v, &ndarray, &what)?;
                    if !matches!(v.typestr.as_str(), "|u1" | "|b1") {
                        return Err(refuse_query(format!(
                            "{what}: uint8 or bool, not {}",
                            v.typestr
                        )));
                    }
                    Some(v)
                }
            };
            raws.push((name.clone(), d, v));
        }
        // No two buffers may share memory: each becomes a `&mut [u8]`.
        let mut spans: Vec<(usize, usize, &str)> = raws
            .iter()
            .flat_map(|(n, d, v)| std::iter::once(d).chain(v).map(move |b| (b, n.as_str())))
            .filter(|(b, _)| b.len > 0)
            .map(|(b, n)| (b.addr, b.addr.saturating_add(b.len), n))
            .collect();
        spans.sort_unstable();
        for w in spans.windows(2) {
            if w[1].0 < w[0].1 {
                return Err(refuse_query(format!(
                    "the buffers of {:?} and {:?} share memory",
                    w[0].2, w[1].2
                )));
            }
        }
        let array = &self.inner;
        // `targets` holds the arrays alive until the read is done.
        let n = py.detach(move || {
            let mut ts = Vec::with_capacity(raws.len());
            for (name, d, v) in &raws {
                // SAFETY: each array is alive (held by `targets`) while the
                // read runs; no two of the buffers overlap (checked above);
                // the slices are dropped before this closure returns.
                let mut t = target(name.clone(), &d.typestr, unsafe { d.bytes() })?;
                if let Some(v) = v {
                    // SAFETY: as above.
                    t = t.validity(unsafe { v.bytes() });
                }
                ts.push(t);
            }
            let mut b = with_ranges(array.reader(), ranges)?;
            if let Some(o) = order {
                b = b.order(o);
            }
            b.read_into(&mut ts).map_err(error)
        })?;
        drop(targets);
        Ok(n)
    }

    /// Writes an Arrow stream (any object with `__arrow_c_stream__`) as one
    /// fragment at `timestamp` (ms; default now).
    #[pyo3(signature = (data, timestamp=None))]
    fn write(
        &self,
        py: Python<'_>,
        data: Bound<'_, PyAny>,
        timestamp: Option<u64>,
    ) -> PyResult<()> {
        let capsule = data.call_method0("__arrow_c_stream__")?;
        let capsule = capsule.cast::<PyCapsule>()?;
        // The name is checked: only a capsule of that name may be read as
        // an FFI_ArrowArrayStream.
        let ptr = capsule
            .pointer_checked(Some(c"arrow_array_stream"))
            .map_err(|e| refuse(format!("not an Arrow stream capsule: {e}")))?
            .as_ptr()
            .cast::<FFI_ArrowArrayStream>();
        // SAFETY: a capsule named "arrow_array_stream" holds an
        // FFI_ArrowArrayStream (the Arrow PyCapsule interface); `from_raw`
        // moves it out and marks the capsule's copy released, so the
        // capsule's destructor does not release it again.
        let reader = unsafe { ArrowArrayStreamReader::from_raw(ptr) }.map_err(error)?;
        let array = Arc::clone(&self.inner);
        py.detach(move || array.write_arrow(reader, timestamp))
            .map_err(error)
    }

    /// Consolidates (`mode`: fragments, fragment_meta, commits, array_meta)
    /// within `start..=end`; whether anything was written.
    #[pyo3(signature = (mode="fragments", start=None, end=None))]
    fn consolidate(
        &self,
        py: Python<'_>,
        mode: &str,
        start: Option<u64>,
        end: Option<u64>,
    ) -> PyResult<bool> {
        let mode: ConsolidationMode = mode.parse().map_err(refuse)?;
        let at = match (start, end) {
            (None, None) => None,
            (s, e) => Some((s.unwrap_or(0), e.unwrap_or(u64::MAX))),
        };
        py.detach(|| self.inner.consolidate(mode, at))
            .map_err(error)
    }

    /// Removes what consolidations of `mode` within `start..=end` (all
    /// when neither is given) superseded; how many removed.
    #[pyo3(signature = (mode="fragments", start=None, end=None))]
    fn vacuum(
        &self,
        py: Python<'_>,
        mode: &str,
        start: Option<u64>,
        end: Option<u64>,
    ) -> PyResult<usize> {
        let mode: ConsolidationMode = mode.parse().map_err(refuse)?;
        let at = match (start, end) {
            (None, None) => None,
            (s, e) => Some((s.unwrap_or(0), e.unwrap_or(u64::MAX))),
        };
        py.detach(|| self.inner.vacuum_at(mode, at)).map_err(error)
    }

    /// Deletes the cells for which the condition holds.
    #[pyo3(signature = (condition, timestamp=None))]
    fn delete(&self, py: Python<'_>, condition: String, timestamp: Option<u64>) -> PyResult<()> {
        py.detach(|| self.inner.delete_cells(condition, timestamp))
            .map_err(error)
    }

    /// The aggregates `exprs` (`count(*)`, `sum(a)`, `min(a)`, `max(a)`,
    /// `mean(a)`, `null_count(a)`) over the cells `ranges` and `condition`
    /// select, as TileDB computes them (a dense `count` counts every cell
    /// of the region whatever the condition): one value each, `None` for
    /// a null one, `bytes` for the min or max of a string field.
    #[pyo3(signature = (exprs, ranges=Vec::new(), condition=None))]
    fn aggregate(
        &self,
        py: Python<'_>,
        exprs: Vec<String>,
        ranges: Vec<(String, PyBound, PyBound)>,
        condition: Option<String>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let values = py.detach(|| {
            let mut b = with_ranges(self.inner.reader(), ranges)?;
            if let Some(c) = condition {
                b = b.condition(c);
            }
            b.aggregate(&exprs).map_err(error)
        })?;
        values
            .into_iter()
            .map(|v| match v {
                AggregateValue::Int(i) => i.into_py_any(py),
                AggregateValue::Uint(u) => u.into_py_any(py),
                AggregateValue::Float(f) => f.into_py_any(py),
                AggregateValue::Text(t) => PyBytes::new(py, &t).into_py_any(py),
                _ => Ok(py.None()),
            })
            .collect()
    }

    /// Sets metadata `key` to little-endian `value` bytes of `datatype`.
    #[pyo3(signature = (key, datatype, value, timestamp=None))]
    fn put_metadata(
        &self,
        py: Python<'_>,
        key: &str,
        datatype: &str,
        value: Vec<u8>,
        timestamp: Option<u64>,
    ) -> PyResult<()> {
        let dt = Datatype::ALL
            .iter()
            .copied()
            .find(|d| d.name().eq_ignore_ascii_case(datatype))
            .ok_or_else(|| refuse(format!("no datatype {datatype:?}")))?;
        let v = MetadataValue::new(dt, value);
        py.detach(|| self.inner.put_metadata(key, &v, timestamp))
            .map_err(error)
    }

    /// Deletes metadata `key`.
    #[pyo3(signature = (key, timestamp=None))]
    fn delete_metadata(&self, py: Python<'_>, key: &str, timestamp: Option<u64>) -> PyResult<()> {
        py.detach(|| self.inner.delete_metadata(key, timestamp))
            .map_err(error)
    }
}

/// Widens `have` to cover `r` too; false when they are of two datatypes.
fn widen(have: &mut DomainRange, r: &DomainRange) -> bool {
    fn span<T: PartialOrd + Clone>(
        h: &mut tiledb_codec::raw::model::Range<T>,
        r: &tiledb_codec::raw::model::Range<T>,
    ) -> bool {
        if r.start < h.start {
            h.start = r.start.clone();
        }
        if r.end > h.end {
            h.end = r.end.clone();
        }
        true
    }
    match (have, r) {
        (DomainRange::Int8(h), DomainRange::Int8(r)) => span(h, r),
        (DomainRange::Int16(h), DomainRange::Int16(r)) => span(h, r),
        (DomainRange::Int32(h), DomainRange::Int32(r)) => span(h, r),
        (DomainRange::Int64(h), DomainRange::Int64(r)) => span(h, r),
        (DomainRange::UInt8(h), DomainRange::UInt8(r)) => span(h, r),
        (DomainRange::UInt16(h), DomainRange::UInt16(r)) => span(h, r),
        (DomainRange::UInt32(h), DomainRange::UInt32(r)) => span(h, r),
        (DomainRange::UInt64(h), DomainRange::UInt64(r)) => span(h, r),
        (DomainRange::Float32(h), DomainRange::Float32(r)) => span(h, r),
        (DomainRange::Float64(h), DomainRange::Float64(r)) => span(h, r),
        (DomainRange::Bytes(h), DomainRange::Bytes(r)) => span(h, r),
        _ => false,
    }
}

fn as_f64(b: &PyBound) -> Option<f64> {
    match b {
        PyBound::Int(i) => Some(*i as f64),
        PyBound::UInt(u) => Some(*u as f64),
        PyBound::Float(f) => Some(*f),
        PyBound::Str(_) => None,
    }
}

/// Test-only (feature `fail-points`): the process exits with status 86
/// right after the `step`-th durable step of the writes from now (a file
/// written, a folder made, a rename, a removal), as a crash there would
/// stop it; `None` disarms.
#[cfg(feature = "fail-points")]
#[pyfunction]
#[pyo3(signature = (step))]
fn _stop_after_durable_step(step: Option<u32>) {
    tiledb_codec::raw::write::steps::stop_after_durable_step(step, |n, what| {
        eprintln!("stopped after durable step {n} ({what})");
        std::process::exit(86)
    });
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    #[cfg(feature = "fail-points")]
    m.add_function(wrap_pyfunction!(_stop_after_durable_step, m)?)?;
    error::add(m)?;
    m.add_function(wrap_pyfunction!(group::object_type, m)?)?;
    m.add_function(wrap_pyfunction!(group::group_members, m)?)?;
    m.add_function(wrap_pyfunction!(group::object_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(create, m)?)?;
    m.add_function(wrap_pyfunction!(check_schema, m)?)?;
    m.add_function(wrap_pyfunction!(schema_from_arrow, m)?)?;
    m.add_class::<NativeArray>()?;
    m.add_class::<Stream>()?;
    Ok(())
}
