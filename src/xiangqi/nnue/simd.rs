//! Integer kernels of the network: the accumulator update and the squared clipped ReLU
//! (SCReLU) dot product of the output layer. Each has a scalar body and, on x86-64, the
//! same body compiled for AVX2 (chosen at run time); all arithmetic wraps, so both give the
//! same integers whatever the order of the additions.

use super::network::{HIDDEN, QA};

/// A row of the first layer or an accumulator half.
pub type Row = [i16; HIDDEN];

/// `sum over i of clamp(acc[i], 0, QA)^2 * w[i]`, wrapping in i32, computed as
/// `v * (v * w)` with `v * w` in i16 (exact because |w| <= 127 and v <= 255).
#[inline]
pub fn screlu_dot(acc: &Row, w: &Row) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just asked whether it has AVX2.
        return unsafe { screlu_dot_avx2(acc, w) };
    }
    screlu_dot_scalar(acc, w)
}

/// The scalar [`screlu_dot`], always available (tests compare it with the AVX2 one).
#[inline]
pub fn screlu_dot_scalar(acc: &Row, w: &Row) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let v = a.clamp(0, QA as i16);
        let vw = v.wrapping_mul(w);
        sum = sum.wrapping_add(i32::from(v) * i32::from(vw));
    }
    sum
}

/// [`screlu_dot`] with AVX2 intrinsics: 16 lanes a step, `madd` pairs into i32 lanes.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn screlu_dot_avx2(acc: &Row, w: &Row) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(HIDDEN.is_multiple_of(16));
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: i + 16 <= HIDDEN, so both 32-byte unaligned loads stay inside the rows.
        let (a, wv) = unsafe {
            (
                _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                _mm256_loadu_si256(w.as_ptr().add(i).cast()),
            )
        };
        let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        let vw = _mm256_mullo_epi16(v, wv);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
    lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// `dst = src + sum of add rows - sum of sub rows`, wrapping in i16.
#[inline]
pub fn update(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU was just asked whether it has AVX2.
        return unsafe { update_avx2(dst, src, add, sub) };
    }
    update_body(dst, src, add, sub)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
    update_body(dst, src, add, sub)
}

/// The update itself; the compiler vectorises the lane loops for each target.
#[inline(always)]
fn update_body(dst: &mut Row, src: &Row, add: &[&Row], sub: &[&Row]) {
    *dst = *src;
    for row in add {
        for (d, &x) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_add(x);
        }
    }
    for row in sub {
        for (d, &x) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_sub(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn avx2_and_scalar_dot_products_agree() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(33);
        for round in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                // Values past both clamp bounds, and the extreme weights.
                acc[i] = rng.random_range(-600..600);
                w[i] = if round % 10 == 0 {
                    127
                } else {
                    rng.random_range(-127..=127)
                };
            }
            let scalar = screlu_dot_scalar(&acc, &w);
            assert_eq!(screlu_dot(&acc, &w), scalar);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked just above.
                assert_eq!(unsafe { screlu_dot_avx2(&acc, &w) }, scalar);
            }
            let expected: i64 = (0..HIDDEN)
                .map(|i| i64::from(acc[i].clamp(0, 255)).pow(2) * i64::from(w[i]))
                .sum();
            assert_eq!(i64::from(scalar), expected);
        }
    }
}
