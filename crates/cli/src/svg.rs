//! A picture of an array's fragments, for deciding when to consolidate:
//! each fragment's non-empty domain as a rectangle over the array's domain,
//! coloured by when it was written.
//!
//! One-dimensional arrays draw one bar per fragment, oldest at the top;
//! two-dimensional arrays draw the rectangles over the plane (the first
//! dimension downwards, the second across). The view is the current domain
//! where one is set, else the domain; where the fragments cover less than a
//! hundredth of it along a dimension, the view zooms to them and says so.
//! String dimensions have no domain: their axis is the sorted distinct
//! bounds of the fragments' ranges, evenly spaced (the picture says this).
//!
//! ```
//! use tiledb_codec::ReadOptions;
//! use tiledb_codec_cli::summary::ArraySummary;
//!
//! let s = ArraySummary::read("tests/fixtures/v22/dense_int_2d".as_ref(), &ReadOptions::default())?;
//! let svg = tiledb_codec_cli::svg::fragment_layout(&s)?;
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"fragment\"").count(), s.fragments.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use crate::summary::{format_range, format_timestamp, ArraySummary};
use tiledb_codec::raw::model::{CurrentDomain, DomainRange};

/// Why an array has no fragment-layout picture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// Only 1-D and 2-D arrays are drawn.
    #[error(
        "a fragment-layout picture needs a 1-D or 2-D array; this one has {dimensions} dimensions"
    )]
    UnsupportedDimensions {
        /// The array's dimension count.
        dimensions: usize,
    },
}

/// Where along one axis a range sits, in axis units.
enum Axis {
    /// A numeric dimension: the view `[lo, hi)`; integer ranges cover
    /// `[start, end + 1)`.
    Numeric { lo: f64, hi: f64, integer: bool },
    /// A string dimension: the sorted distinct bounds, each one unit wide.
    Ordinal(Vec<Vec<u8>>),
}

/// A numeric range as `f64` (integers as their value).
fn numeric(r: &DomainRange) -> Option<(f64, f64, bool)> {
    Some(match r {
        DomainRange::Int8(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::Int16(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::Int32(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::Int64(r) => (r.start as f64, r.end as f64, true),
        DomainRange::UInt8(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::UInt16(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::UInt32(r) => (f64::from(r.start), f64::from(r.end), true),
        DomainRange::UInt64(r) => (r.start as f64, r.end as f64, true),
        DomainRange::Float32(r) => (f64::from(r.start), f64::from(r.end), false),
        DomainRange::Float64(r) => (r.start, r.end, false),
        _ => return None,
    })
}

impl Axis {
    /// `[from, to)` in axis units for a fragment's range.
    fn span(&self, r: &DomainRange) -> Option<(f64, f64)> {
        match (self, r) {
            (Axis::Ordinal(keys), DomainRange::Bytes(r)) => {
                let a = keys.binary_search(&r.start).ok()? as f64;
                let b = keys.binary_search(&r.end).ok()? as f64;
                Some((a, b + 1.0))
            }
            (Axis::Numeric { integer, .. }, r) => {
                let (a, b, _) = numeric(r)?;
                Some((a, if *integer { b + 1.0 } else { b }))
            }
            _ => None,
        }
    }

    fn bounds(&self) -> (f64, f64) {
        match self {
            Axis::Numeric { lo, hi, .. } => (*lo, *hi),
            Axis::Ordinal(keys) => (0.0, keys.len().max(1) as f64),
        }
    }

    /// The labels at the axis's two ends.
    fn end_labels(&self) -> (String, String) {
        match self {
            Axis::Numeric { lo, hi, integer } => {
                let hi = if *integer { hi - 1.0 } else { *hi };
                (num(*lo), num(hi))
            }
            Axis::Ordinal(keys) => {
                let q = |k: Option<&Vec<u8>>| {
                    k.map_or_else(String::new, |k| String::from_utf8_lossy(k).into_owned())
                };
                (q(keys.first()), q(keys.last()))
            }
        }
    }
}

fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.4}")
    }
}

/// The axis of dimension `i`, and a note when the view is not the domain.
fn axis(s: &ArraySummary, i: usize, notes: &mut Vec<String>) -> Axis {
    let dim = &s.schema.dimensions[i];
    let ranges: Vec<&DomainRange> = s
        .fragments
        .iter()
        .filter_map(|f| f.non_empty_domain.as_ref()?.get(i))
        .collect();
    let current = match &s.schema.current_domain {
        Some(CurrentDomain::NdRectangle(r)) => r.get(i),
        _ => None,
    };
    let base = current.or(dim.domain.as_ref());
    match base.and_then(numeric) {
        Some((lo, hi, integer)) => {
            let hi = if integer { hi + 1.0 } else { hi };
            let spans: Vec<(f64, f64, bool)> = ranges.iter().filter_map(|r| numeric(r)).collect();
            let ulo = spans.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
            let uhi = spans
                .iter()
                .map(|s| if integer { s.1 + 1.0 } else { s.1 })
                .fold(f64::NEG_INFINITY, f64::max);
            if !spans.is_empty() && (uhi - ulo) < (hi - lo) / 100.0 {
                notes.push(format!(
                    "{}: zoomed to the fragments; its {} is {}",
                    dim.name,
                    if current.is_some() {
                        "current domain"
                    } else {
                        "domain"
                    },
                    format_range(base.unwrap_or(ranges[0]))
                ));
                let pad = ((uhi - ulo) * 0.05).max(if integer { 1.0 } else { 0.0 });
                Axis::Numeric {
                    lo: ulo - pad,
                    hi: uhi + pad,
                    integer,
                }
            } else {
                Axis::Numeric { lo, hi, integer }
            }
        }
        None => {
            let mut keys: Vec<Vec<u8>> = ranges
                .iter()
                .filter_map(|r| match r {
                    DomainRange::Bytes(r) => Some([r.start.clone(), r.end.clone()]),
                    _ => None,
                })
                .flatten()
                .collect();
            keys.sort();
            keys.dedup();
            notes.push(format!(
                "{}: a string dimension; the axis is the {} distinct bounds of the fragments' ranges, sorted and evenly spaced (not to scale)",
                dim.name,
                keys.len()
            ));
            Axis::Ordinal(keys)
        }
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A viridis-like ramp, `t` in `[0, 1]`: old fragments dark blue, new ones yellow.
const STOPS: [(u8, u8, u8); 5] = [
    (0x44, 0x01, 0x54),
    (0x3b, 0x52, 0x8b),
    (0x21, 0x90, 0x8c),
    (0x5d, 0xc9, 0x63),
    (0xfd, 0xe7, 0x25),
];

fn colour(t: f64) -> String {
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

const WIDTH: f64 = 640.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 70.0;
const PLOT_W: f64 = 520.0;

/// The fragment-layout picture of a 1-D or 2-D array, as an SVG document.
/// Each fragment is one `<rect class="fragment">` with a tooltip naming
/// it; colours run from the oldest fragment (dark blue) to the newest
/// (yellow), with a legend.
pub fn fragment_layout(s: &ArraySummary) -> Result<String, LayoutError> {
    let ndim = s.schema.dimensions.len();
    if !(1..=2).contains(&ndim) {
        return Err(LayoutError::UnsupportedDimensions { dimensions: ndim });
    }
    let mut notes = Vec::new();
    let axes: Vec<Axis> = (0..ndim).map(|i| axis(s, i, &mut notes)).collect();
    // 2-D: the first dimension runs down, the second across; 1-D: the
    // dimension across and one row per fragment.
    let (x_axis, y_axis) = if ndim == 2 {
        (&axes[1], Some(&axes[0]))
    } else {
        (&axes[0], None)
    };
    let n = s.fragments.len();
    let plot_h = match y_axis {
        Some(_) => 400.0,
        None => (n.max(1) as f64 * 22.0).max(44.0),
    };
    let legend_y = TOP + plot_h + 50.0;
    let height = legend_y + 60.0 + notes.len() as f64 * 16.0;
    let (t_min, t_max) = s.fragments.iter().fold((u64::MAX, 0u64), |(a, b), f| {
        (a.min(f.timestamps.start), b.max(f.timestamps.start))
    });
    let shade = |t: u64| {
        if t_max > t_min {
            (t - t_min) as f64 / (t_max - t_min) as f64
        } else {
            1.0
        }
    };

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<title>Fragments of {}</title>"#,
        escape(&s.path.display().to_string())
    );
    let _ = writeln!(
        out,
        r#"<defs><linearGradient id="age" x1="0" x2="1" y1="0" y2="0">{}</linearGradient></defs>"#,
        (0..STOPS.len())
            .map(|i| {
                let t = i as f64 / (STOPS.len() - 1) as f64;
                format!(r#"<stop offset="{t}" stop-color="{}"/>"#, colour(t))
            })
            .collect::<String>()
    );
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="24" font-size="15" font-weight="bold">{} - {} fragments</text>"#,
        escape(&s.path.display().to_string()),
        n
    );
    let dims: Vec<&str> = s
        .schema
        .dimensions
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    let axes_text = match ndim {
        2 => format!("{} down, {} across", dims[0], dims[1]),
        _ => format!(
            "{} across, one row per fragment (oldest at the top)",
            dims[0]
        ),
    };
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="44">{}</text>"#,
        escape(&axes_text)
    );
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{PLOT_W}" height="{plot_h}" fill="#f4f4f4" stroke="#888"/>"##
    );

    axis_labels(&mut out, x_axis, y_axis, plot_h);

    let scale = |axis: &Axis, (a, b): (f64, f64), len: f64| {
        let (lo, hi) = axis.bounds();
        let w = if hi > lo { hi - lo } else { 1.0 };
        let from = ((a - lo) / w * len).clamp(0.0, len);
        let to = ((b - lo) / w * len).clamp(0.0, len);
        // Always visible: at least one pixel.
        (from, (to - from).max(1.0))
    };
    for (i, f) in s.fragments.iter().enumerate() {
        let Some(ned) = &f.non_empty_domain else {
            continue;
        };
        let xi = if ndim == 2 { 1 } else { 0 };
        let (Some(xr), Some(xs)) = (ned.get(xi), ned.get(xi).and_then(|r| x_axis.span(r))) else {
            continue;
        };
        let (x, w) = scale(x_axis, xs, PLOT_W);
        let (y, h) = match y_axis {
            Some(ya) => match ned.first().and_then(|r| ya.span(r)) {
                Some(ys) => scale(ya, ys, plot_h),
                None => continue,
            },
            None => (i as f64 * 22.0 + 3.0, 16.0),
        };
        let tip = format!(
            "#{} {}\n{} ({})\n{}",
            i + 1,
            f.name,
            f.timestamps.start,
            format_timestamp(f.timestamps.start),
            ned.iter()
                .zip(&dims)
                .map(|(r, d)| format!("{d}: {}", format_range(r)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = xr;
        let _ = writeln!(
            out,
            r##"<rect class="fragment" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{}" fill-opacity="0.6" stroke="#222"><title>{}</title></rect>"##,
            LEFT + x,
            TOP + y,
            w,
            h,
            colour(shade(f.timestamps.start)),
            escape(&tip)
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" font-size="10">#{}</text>"#,
            LEFT + x + 2.0,
            TOP + y + 11.0,
            i + 1
        );
    }

    let times = (n > 0).then_some((t_min, t_max));
    legend(&mut out, legend_y, times, &notes);
    out.push_str("</svg>\n");
    Ok(out)
}

/// The labels at the ends of the axes of a plot `plot_h` high.
fn axis_labels(out: &mut String, x_axis: &Axis, y_axis: Option<&Axis>, plot_h: f64) {
    let (x_lo, x_hi) = x_axis.end_labels();
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="{}" >{}</text><text x="{}" y="{}" text-anchor="end">{}</text>"#,
        TOP + plot_h + 16.0,
        escape(&x_lo),
        LEFT + PLOT_W,
        TOP + plot_h + 16.0,
        escape(&x_hi)
    );
    if let Some(y) = y_axis {
        let (y_lo, y_hi) = y.end_labels();
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text><text x="{}" y="{}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            TOP + 12.0,
            escape(&y_lo),
            LEFT - 6.0,
            TOP + plot_h,
            escape(&y_hi)
        );
    }
}

/// The legend at `legend_y`: the colour ramp from the oldest to the newest
/// fragment (`times`: their start times; `None`: no fragments), and the
/// notes.
fn legend(out: &mut String, legend_y: f64, times: Option<(u64, u64)>, notes: &[String]) {
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{legend_y}" width="240" height="12" fill="url(#age)" stroke="#888"/>"##
    );
    let (old, new) = match times {
        None => ("no fragments".to_string(), String::new()),
        Some((t_min, t_max)) => (format_timestamp(t_min), format_timestamp(t_max)),
    };
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="{}">oldest: {}</text><text x="{}" y="{}" text-anchor="end">newest: {}</text>"#,
        legend_y + 26.0,
        escape(&old),
        LEFT + PLOT_W,
        legend_y + 26.0,
        escape(&new)
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}">colour: start time of each fragment</text>"#,
        LEFT + 250.0,
        legend_y + 10.0
    );
    for (k, note) in notes.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{LEFT}" y="{}" font-size="11">{}</text>"#,
            legend_y + 46.0 + k as f64 * 16.0,
            escape(note)
        );
    }
}
