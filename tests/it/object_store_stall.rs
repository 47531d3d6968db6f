//! Issue 47, item 4: an object store that stops answering cannot hang a
//! command. A server on 127.0.0.1 accepts connections and never answers;
//! a read through the library and one through the binary fail within the
//! configured timeouts and retries, with a message naming the URL.

use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use tiledb_codec::Array;

/// A server that accepts every connection and never answers; its port.
fn stalled_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    port
}

/// The configured bound: one try of 1 s, one retry of 1 s after at most
/// 100 ms, no retry started after 2 s; 8 s leaves room for a slow machine.
const BOUND: Duration = Duration::from_secs(8);

#[test]
fn a_stalled_server_fails_a_library_read_in_time() {
    let port = stalled_server();
    let endpoint = format!("http://127.0.0.1:{port}");
    let url = "s3://stalled-bucket/array";
    let options = [
        ("aws_endpoint", endpoint.as_str()),
        ("aws_allow_http", "true"),
        ("aws_access_key_id", "test"),
        ("aws_secret_access_key", "test"),
        ("aws_region", "us-east-1"),
        ("timeout", "1s"),
        ("connect_timeout", "1s"),
        ("retry_max", "1"),
        ("retry_timeout", "2s"),
        ("retry_backoff_initial", "10ms"),
        ("retry_backoff_max", "100ms"),
    ];
    let start = Instant::now();
    let mut opts = tiledb_codec::OpenOptions::new();
    for (k, v) in options {
        opts = opts.with_store_option(k, v);
    }
    let err = Array::open_with(url, opts).unwrap_err();
    let took = start.elapsed();
    let msg = err.to_string();
    eprintln!("{took:?}: {msg}");
    assert!(took < BOUND, "took {took:?}: {msg}");
    assert!(msg.contains(url), "{msg}");
    assert!(!msg.contains("not a folder"), "{msg}");
}

#[test]
fn a_stalled_server_fails_a_command_in_time() {
    let port = stalled_server();
    let url = "s3://stalled-bucket/array";
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(["export", url])
        .env("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}"))
        .env("AWS_ALLOW_HTTP", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("TILEDB_CODEC_TIMEOUT", "1s")
        .env("TILEDB_CODEC_CONNECT_TIMEOUT", "1s")
        .env("TILEDB_CODEC_RETRY_MAX", "1")
        .env("TILEDB_CODEC_RETRY_TIMEOUT", "2s")
        .env("TILEDB_CODEC_RETRY_BACKOFF_INITIAL", "10ms")
        .env("TILEDB_CODEC_RETRY_BACKOFF_MAX", "100ms")
        .output()
        .unwrap();
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    eprintln!("{took:?}: {err}");
    assert!(!out.status.success());
    assert!(took < BOUND, "took {took:?}: {err}");
    assert!(err.contains(url), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
