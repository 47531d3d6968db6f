use super::{coalesce, FetchOptions};
use std::path::PathBuf;

#[test]
fn near_ranges_of_one_object_merge_up_to_the_maximum() {
    let (a, b) = (PathBuf::from("s3://x/a"), PathBuf::from("s3://x/b"));
    let o = FetchOptions {
        coalesce_gap: 10,
        max_request: 100,
        ..FetchOptions::default()
    };
    let requests = vec![
        (a.clone(), 50..60),   // 0
        (b.clone(), 0..10),    // 1: another object
        (a.clone(), 0..20),    // 2
        (a.clone(), 25..40),   // 3: 5 bytes after 2
        (a.clone(), 80..90),   // 4: 20 bytes after 0: apart
        (a.clone(), 90..95),   // 5: just after 4
        (a.clone(), 95..95),   // 6: empty, not fetched
        (a.clone(), 10..15),   // 7: inside 2
        (a.clone(), 120..150), // 8: 25 bytes after 5: apart
        (a.clone(), 150..350), // 9: longer than the maximum: alone
    ];
    let plan = coalesce(&requests, &o);
    let got: Vec<(usize, std::ops::Range<u64>, Vec<usize>)> = plan
        .into_iter()
        .map(|c| (c.path, c.range, c.parts))
        .collect();
    assert_eq!(
        got,
        vec![
            (2, 0..60, vec![2, 7, 3, 0]),
            (4, 80..95, vec![4, 5]),
            (8, 120..150, vec![8]),
            (9, 150..350, vec![9]),
            (1, 0..10, vec![1]),
        ]
    );
    // Merging off: one request per non-empty range, never more.
    let off = FetchOptions {
        max_request: 0,
        ..o
    };
    assert_eq!(coalesce(&requests, &off).len(), 9);
}
