//! The order of a sparse read's cells by their coordinates without a
//! comparison sort: integer keys of every dimension shifted to start at
//! zero and packed into one `u64` (the first dimension highest), then
//! sorted a digit at a time (least significant first, each pass stable),
//! so that cells of equal coordinates keep the order they came in.

/// Bits of one digit, at most: 4,096 buckets a pass.
const MAX_DIGIT: u32 = 12;

/// The places `0..n` ordered by the keys of `dims` (per dimension, one
/// order-preserving `u64` per cell; the first dimension slowest), ties in
/// place order, with each place's packed key (equal packed keys: equal
/// keys); `None` when the keys do not fit one `u64` together or there are
/// too many cells for 32-bit places.
pub(super) fn order_by_keys(dims: &[&[u64]], n: usize) -> Option<(Vec<u64>, Vec<u32>)> {
    if dims.is_empty() || dims.iter().any(|k| k.len() != n) || n >= u32::MAX as usize {
        return None;
    }
    // Per dimension, its lowest key and the bits of its span.
    let mut lows = Vec::with_capacity(dims.len());
    let mut widths = Vec::with_capacity(dims.len());
    let mut total = 0u32;
    for k in dims {
        let (lo, hi) = k
            .iter()
            .fold((u64::MAX, 0u64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let bits = 64 - hi.saturating_sub(lo).leading_zeros();
        total = total.checked_add(bits).filter(|t| *t <= 64)?;
        lows.push(lo);
        widths.push(bits);
    }
    let mut keys: Vec<u64> = vec![0; n];
    for ((k, lo), bits) in dims.iter().zip(&lows).zip(&widths) {
        for (out, v) in keys.iter_mut().zip(k.iter()) {
            // A shift by 64 (a 64-bit dimension alone) leaves no old bits.
            *out = out.checked_shl(*bits).unwrap_or(0) | (v - lo);
        }
    }
    Some(sort_packed(keys, total))
}

/// `keys` (of at most `bits` bits each) sorted, a digit at a time, with the
/// place each came from; equal keys keep their places' order. At most
/// `u32::MAX` keys (the caller checks).
pub(super) fn sort_packed(mut keys: Vec<u64>, bits: u32) -> (Vec<u64>, Vec<u32>) {
    let n = keys.len();
    let mut places: Vec<u32> = (0..n as u32).collect();
    // As few passes of at most MAX_DIGIT bits as the keys need.
    let passes = bits.div_ceil(MAX_DIGIT).max(1);
    let digit = bits.div_ceil(passes).max(1);
    let mask = (1u64 << digit) - 1;
    let (mut keys2, mut places2) = (vec![0u64; n], vec![0u32; n]);
    let mut counts = vec![0usize; 1 << digit];
    let mut shift = 0;
    while shift < bits {
        counts.iter_mut().for_each(|c| *c = 0);
        for k in &keys {
            counts[((k >> shift) & mask) as usize] += 1;
        }
        // A pass where every key has the same digit moves nothing.
        if counts.contains(&n) {
            shift += digit;
            continue;
        }
        let mut at = 0;
        for c in counts.iter_mut() {
            let here = *c;
            *c = at;
            at += here;
        }
        for (k, p) in keys.iter().zip(&places) {
            let slot = &mut counts[((k >> shift) & mask) as usize];
            keys2[*slot] = *k;
            places2[*slot] = *p;
            *slot += 1;
        }
        std::mem::swap(&mut keys, &mut keys2);
        std::mem::swap(&mut places, &mut places2);
        shift += digit;
    }
    (keys, places)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_in_key_order_ties_in_place_order() {
        let x = [5u64, 1, 5, 3, 1, 1 << 40];
        let y = [2u64, 9, 1, 0, 9, 0];
        let (keys, order) = order_by_keys(&[&x, &y], 6).unwrap();
        assert_eq!(order, vec![1, 4, 3, 2, 0, 5]);
        assert_eq!(keys[0], keys[1]);
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));
        // Keys spanning more than 64 bits together: no order.
        let wide = [0u64, u64::MAX];
        assert!(order_by_keys(&[&wide, &wide], 2).is_none());
        // One 64-bit dimension alone.
        assert_eq!(order_by_keys(&[&wide[..]], 2).unwrap().1, vec![0, 1]);
        let many: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 4096).collect();
        let got = order_by_keys(&[&many], many.len()).unwrap().1;
        let mut want: Vec<u32> = (0..many.len() as u32).collect();
        want.sort_by_key(|&p| (many[p as usize], p));
        assert_eq!(got, want);
        assert!(order_by_keys(&[], 0).is_none());
    }
}
