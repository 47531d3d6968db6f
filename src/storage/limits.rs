//! How long a request to an object store may take, and how it is retried:
//! a server that stops answering makes a command fail with a message in
//! bounded time, never hang.
//!
//! Every request has a connect timeout and a whole-request timeout; a
//! request that fails (a timeout, a dropped connection, a 5xx answer) is
//! retried after a backoff that doubles from `retry_backoff_initial` up to
//! `retry_backoff_max`, at most `retry_max` times and not after
//! `retry_timeout` has passed since its first try. A request therefore
//! fails after at most about `retry_timeout + timeout +
//! retry_backoff_max`. The keys, given with the other options of
//! [`super::object::ObjectStorage::from_url`] (durations as `500ms`, `2s`,
//! `1m`, or a number of seconds):
//!
//! | key | default | what |
//! |---|---|---|
//! | `connect_timeout` | 5s | connecting to the server |
//! | `timeout` | 30s | one request, from connecting to the last byte |
//! | `retry_max` | 10 | retries of one request (0: none) |
//! | `retry_timeout` | 3m | no retry starts later than this after the first try |
//! | `retry_backoff_initial` | 100ms | the wait before the first retry |
//! | `retry_backoff_max` | 15s | the longest wait between two tries |
//!
//! (`connect_timeout` and `timeout` are the `object_store` crate's own
//! client keys, also spelled `aws_timeout` and so on; the `retry_*` keys
//! are this crate's.)

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use object_store::{BackoffConfig, ObjectStore, ObjectStoreScheme, RetryConfig};

use crate::error::{Error, Result};

/// The keys of the retry options (taken out of the options given to the
/// store's builder).
pub const RETRY_KEYS: [&str; 4] = [
    "retry_max",
    "retry_timeout",
    "retry_backoff_initial",
    "retry_backoff_max",
];

/// A duration as the options spell it: `250ms`, `2s`, `1m`, `1.5s`, or a
/// number of seconds.
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let n: f64 = num.trim().parse().ok()?;
    let secs = match unit.trim() {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

/// The retry configuration the `retry_*` options of `options` give (the
/// defaults for those left out); an error naming `url` for a value that
/// does not parse.
pub fn retry_config(url: &str, options: &[(String, String)]) -> Result<RetryConfig> {
    let bad = |k: &str, v: &str| {
        Error::io(
            Path::new(url),
            std::io::Error::other(format!("option {k}: {v:?} is not a valid value")),
        )
    };
    let mut retry = RetryConfig::default();
    let mut backoff = BackoffConfig::default();
    for (k, v) in options {
        let dur = || parse_duration(v).ok_or_else(|| bad(k, v));
        match k.as_str() {
            "retry_max" => retry.max_retries = v.trim().parse().map_err(|_| bad(k, v))?,
            "retry_timeout" => retry.retry_timeout = dur()?,
            "retry_backoff_initial" => backoff.init_backoff = dur()?,
            "retry_backoff_max" => backoff.max_backoff = dur()?,
            _ => {}
        }
    }
    retry.backoff = backoff;
    Ok(retry)
}

/// Builds a store of `$builder` for `$url` with the object_store keys of
/// `$options` (unknown keys are ignored, as `parse_url_opts` does) and the
/// retry configuration `$retry`.
macro_rules! build {
    ($builder:ty, $url:expr, $options:expr, $retry:expr) => {{
        let b = $options.iter().fold(
            <$builder>::new().with_url($url.to_string()),
            |b, (key, value)| match key.to_ascii_lowercase().parse() {
                Ok(k) => b.with_config(k, value.clone()),
                Err(_) => b,
            },
        );
        Arc::new(b.with_retry($retry).build()?) as Arc<dyn ObjectStore>
    }};
}

/// The store of `url`, configured by `options` (object_store's keys and
/// the `retry_*` keys of this module).
pub fn store_for_url<I, K, V>(url: &url::Url, options: I) -> Result<Arc<dyn ObjectStore>>
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: Into<String>,
{
    let text = url.as_str();
    let options: Vec<(String, String)> = options
        .into_iter()
        .map(|(k, v)| (k.as_ref().to_string(), v.into()))
        .collect();
    let retry = retry_config(text, &options)?;
    let rest: Vec<(String, String)> = options
        .into_iter()
        .filter(|(k, _)| !RETRY_KEYS.contains(&k.as_str()))
        .collect();
    let bad = |what: String| Error::io(Path::new(text), std::io::Error::other(what));
    let (scheme, _) = ObjectStoreScheme::parse(url)
        .map_err(|e| bad(format!("no object store for this URL: {e}")))?;
    let built = || -> std::result::Result<Arc<dyn ObjectStore>, object_store::Error> {
        Ok(match scheme {
            ObjectStoreScheme::AmazonS3 => {
                build!(object_store::aws::AmazonS3Builder, url, rest, retry)
            }
            ObjectStoreScheme::GoogleCloudStorage => {
                build!(
                    object_store::gcp::GoogleCloudStorageBuilder,
                    url,
                    rest,
                    retry
                )
            }
            ObjectStoreScheme::MicrosoftAzure => {
                build!(object_store::azure::MicrosoftAzureBuilder, url, rest, retry)
            }
            ObjectStoreScheme::Http => {
                let base = &url[..url::Position::BeforePath];
                build!(object_store::http::HttpBuilder, base, rest, retry)
            }
            ObjectStoreScheme::Local => Arc::new(object_store::local::LocalFileSystem::new()),
            _ => Arc::new(object_store::memory::InMemory::new()),
        })
    };
    built().map_err(|e| bad(format!("no object store for this URL: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_retries_parse() {
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("2s"), Some(Duration::from_secs(2)));
        assert_eq!(parse_duration("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_duration("1m"), Some(Duration::from_secs(60)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("-1s"), None);
        assert_eq!(parse_duration("2h"), None);
        assert_eq!(parse_duration("x"), None);
        let o = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        let r = retry_config("s3://b/a", &o("retry_max", "2")).unwrap();
        assert_eq!(r.max_retries, 2);
        let r = retry_config("s3://b/a", &o("retry_timeout", "5s")).unwrap();
        assert_eq!(r.retry_timeout, Duration::from_secs(5));
        let e = retry_config("s3://b/a", &o("retry_max", "many")).unwrap_err();
        assert!(e.to_string().contains("s3://b/a"), "{e}");
        assert!(e.to_string().contains("retry_max"), "{e}");
    }
}
