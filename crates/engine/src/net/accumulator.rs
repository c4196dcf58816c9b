//! The quantized network's integer arithmetic: the first layer kept as an accumulator
//! (its pre-activations for the inputs set, in int16, updated by adding and subtracting
//! the columns of the inputs a turn changes), and the second layer's int16 dot products
//! summed in int32.
//!
//! Each kernel has a scalar path and an AVX2 path chosen at run time
//! ([`Kernels::detect`]); both compute the same integers (int16 additions wrap the same
//! way, and the int32 sums cannot overflow within the weights' bounds, see
//! [`super::QuantizedNet`]), so they give the same numbers bit for bit, which the tests
//! check on every position of random games.

/// Which implementation of the integer kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// Plain Rust, on every machine.
    Scalar,
    /// AVX2 intrinsics (x86-64 with AVX2, detected at run time).
    Avx2,
}

impl Kernels {
    /// The fastest kernels this machine runs.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernels::Avx2;
            }
        }
        Kernels::Scalar
    }

    /// `acc[j] += column[j]` for every `j` (wrapping); `acc` and `column` of one length, a
    /// multiple of 16.
    #[inline]
    pub fn add(self, acc: &mut [i16], column: &[i16]) {
        debug_assert_eq!(acc.len(), column.len());
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: Avx2 is only chosen when the CPU has AVX2 (`detect`, or a caller that
            // checked); the lengths are equal multiples of 16.
            Kernels::Avx2 => unsafe { avx2::add(acc, column) },
            _ => acc.iter_mut().zip(column).for_each(|(a, c)| *a = a.wrapping_add(*c)),
        }
    }

    /// `acc[j] -= column[j]` for every `j` (wrapping).
    #[inline]
    pub fn sub(self, acc: &mut [i16], column: &[i16]) {
        debug_assert_eq!(acc.len(), column.len());
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add`.
            Kernels::Avx2 => unsafe { avx2::sub(acc, column) },
            _ => acc.iter_mut().zip(column).for_each(|(a, c)| *a = a.wrapping_sub(*c)),
        }
    }

    /// `acc[j] += columns[i * acc.len() + j]` for every input `i` of `inputs` (wrapping):
    /// the columns of many inputs added in one call (the AVX2 path keeps the loop inside
    /// one function with the instructions enabled). Every input must index a column.
    #[inline]
    pub fn add_columns(self, acc: &mut [i16], columns: &[i16], inputs: &[u16]) {
        let n = acc.len();
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add`; the caller's inputs index whole columns of `columns`.
            Kernels::Avx2 => unsafe { avx2::add_columns(acc, columns, inputs) },
            _ => {
                for &i in inputs {
                    let column = &columns[usize::from(i) * n..][..n];
                    acc.iter_mut().zip(column).for_each(|(a, c)| *a = a.wrapping_add(*c));
                }
            }
        }
    }

    /// The second layer's sums from scratch: the accumulator of `inputs` (`bias` plus
    /// their `columns`), clamped to 0..=`max`, times each row of `rows`, into `out`: what
    /// [`Kernels::add_columns`] and then [`Kernels::dense`] give, in one pass that keeps
    /// the accumulator in registers where the AVX2 path can (16, 32, 64 or 128 units).
    #[inline]
    pub fn evaluate(self, bias: &[i16], columns: &[i16], inputs: &[u16], max: i16, rows: &[i16], out: &mut [i32]) {
        #[cfg(target_arch = "x86_64")]
        if self == Kernels::Avx2 {
            // SAFETY: AVX2 is there (see `add`); each arm's width is the bias's length.
            match bias.len() {
                16 => return unsafe { avx2::evaluate::<1>(bias, columns, inputs, max, rows, out) },
                32 => return unsafe { avx2::evaluate::<2>(bias, columns, inputs, max, rows, out) },
                64 => return unsafe { avx2::evaluate::<4>(bias, columns, inputs, max, rows, out) },
                128 => return unsafe { avx2::evaluate::<8>(bias, columns, inputs, max, rows, out) },
                _ => {}
            }
        }
        let mut acc = [0i16; crate::net::MAX_HIDDEN1];
        let acc = &mut acc[..bias.len()];
        acc.copy_from_slice(bias);
        self.add_columns(acc, columns, inputs);
        self.dense(acc, max, rows, out);
    }

    /// `out[k] = sum_j clamp(acc[j], 0, max) * rows[k * acc.len() + j]` in int32, for every
    /// row `k` of `out`.
    #[inline]
    pub fn dense(self, acc: &[i16], max: i16, rows: &[i16], out: &mut [i32]) {
        debug_assert_eq!(rows.len(), acc.len() * out.len());
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add`; `rows` holds `out.len()` rows of `acc.len()`.
            Kernels::Avx2 => unsafe { avx2::dense(acc, max, rows, out) },
            _ => {
                for (k, o) in out.iter_mut().enumerate() {
                    let row = &rows[k * acc.len()..(k + 1) * acc.len()];
                    *o = acc.iter().zip(row).map(|(&a, &w)| i32::from(a.clamp(0, max)) * i32::from(w)).sum();
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add(acc: &mut [i16], column: &[i16]) {
        for (a, c) in acc.chunks_exact_mut(16).zip(column.chunks_exact(16)) {
            // SAFETY: each chunk holds 16 i16 (32 bytes); unaligned loads and stores.
            unsafe {
                let x = _mm256_loadu_si256(a.as_ptr().cast());
                let y = _mm256_loadu_si256(c.as_ptr().cast());
                _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm256_add_epi16(x, y));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_columns(acc: &mut [i16], columns: &[i16], inputs: &[u16]) {
        let n = acc.len();
        for &i in inputs {
            let column = &columns[usize::from(i) * n..][..n];
            for (a, c) in acc.chunks_exact_mut(16).zip(column.chunks_exact(16)) {
                // SAFETY: as in `add`.
                unsafe {
                    let x = _mm256_loadu_si256(a.as_ptr().cast());
                    let y = _mm256_loadu_si256(c.as_ptr().cast());
                    _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm256_add_epi16(x, y));
                }
            }
        }
    }

    /// [`super::Kernels::evaluate`] with the accumulator in `C` registers of 16 lanes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn evaluate<const C: usize>(
        bias: &[i16],
        columns: &[i16],
        inputs: &[u16],
        max: i16,
        rows: &[i16],
        out: &mut [i32],
    ) {
        let n = 16 * C;
        let mut acc = [_mm256_setzero_si256(); C];
        for (c, a) in acc.iter_mut().enumerate() {
            // SAFETY: `bias` holds `n` values (the caller matched its length).
            *a = unsafe { _mm256_loadu_si256(bias[16 * c..].as_ptr().cast()) };
        }
        for &i in inputs {
            let column = &columns[usize::from(i) * n..][..n];
            for (c, a) in acc.iter_mut().enumerate() {
                // SAFETY: `column` holds `n` values.
                *a = _mm256_add_epi16(*a, unsafe { _mm256_loadu_si256(column[16 * c..].as_ptr().cast()) });
            }
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(max));
        for a in acc.iter_mut() {
            *a = _mm256_min_epi16(_mm256_max_epi16(*a, zero), top);
        }
        for (k, o) in out.iter_mut().enumerate() {
            let row = &rows[k * n..][..n];
            let mut sum = _mm256_setzero_si256();
            for (c, a) in acc.iter().enumerate() {
                // SAFETY: `row` holds `n` values.
                let w = unsafe { _mm256_loadu_si256(row[16 * c..].as_ptr().cast()) };
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(*a, w));
            }
            // The eight lanes' sum (integer: any order gives the same).
            let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
            let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
            *o = _mm_cvtsi128_si32(one);
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sub(acc: &mut [i16], column: &[i16]) {
        for (a, c) in acc.chunks_exact_mut(16).zip(column.chunks_exact(16)) {
            // SAFETY: as in `add`.
            unsafe {
                let x = _mm256_loadu_si256(a.as_ptr().cast());
                let y = _mm256_loadu_si256(c.as_ptr().cast());
                _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm256_sub_epi16(x, y));
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dense(acc: &[i16], max: i16, rows: &[i16], out: &mut [i32]) {
        let n = acc.len();
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(max);
        for (k, o) in out.iter_mut().enumerate() {
            let row = &rows[k * n..(k + 1) * n];
            let mut sum = _mm256_setzero_si256();
            for (a, w) in acc.chunks_exact(16).zip(row.chunks_exact(16)) {
                // SAFETY: 16 i16 per chunk; unaligned loads.
                unsafe {
                    let x = _mm256_loadu_si256(a.as_ptr().cast());
                    let x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
                    let y = _mm256_loadu_si256(w.as_ptr().cast());
                    sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, y));
                }
            }
            let mut lanes = [0i32; 8];
            // SAFETY: 8 i32 fit the 32 bytes stored.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
            *o = lanes.iter().sum();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Rng;

    fn random_i16(rng: &mut Rng, n: usize, bound: u32) -> Vec<i16> {
        (0..n).map(|_| (rng.below(2 * bound + 1) as i32 - bound as i32) as i16).collect()
    }

    #[test]
    fn avx2_kernels_give_the_scalar_numbers_bit_for_bit() {
        if Kernels::detect() != Kernels::Avx2 {
            return; // Nothing to compare on this machine.
        }
        let mut rng = Rng::new(11);
        for n in [16, 32, 64, 128, 256] {
            for _ in 0..50 {
                // Wide values: the additions wrap, and both paths must wrap alike.
                let column = random_i16(&mut rng, n, 32767);
                let start = random_i16(&mut rng, n, 32767);
                let (mut a, mut b) = (start.clone(), start.clone());
                Kernels::Scalar.add(&mut a, &column);
                Kernels::Avx2.add(&mut b, &column);
                assert_eq!(a, b);
                Kernels::Scalar.sub(&mut a, &column);
                Kernels::Avx2.sub(&mut b, &column);
                assert_eq!(a, start);
                assert_eq!(b, start);
                let inputs: Vec<u16> = (0..20).map(|_| rng.below(8) as u16).collect();
                let columns = random_i16(&mut rng, n * 8, 32767);
                let (mut c, mut d) = (start.clone(), start.clone());
                Kernels::Scalar.add_columns(&mut c, &columns, &inputs);
                Kernels::Avx2.add_columns(&mut d, &columns, &inputs);
                assert_eq!(c, d);
                let rows = random_i16(&mut rng, n * 8, 127);
                let (mut e, mut f) = (vec![0; 8], vec![0; 8]);
                Kernels::Scalar.evaluate(&start, &columns, &inputs, 255, &rows, &mut e);
                Kernels::Avx2.evaluate(&start, &columns, &inputs, 255, &rows, &mut f);
                assert_eq!(e, f);
                let (mut x, mut y) = (vec![0; 8], vec![0; 8]);
                Kernels::Scalar.dense(&start, 255, &rows, &mut x);
                Kernels::Avx2.dense(&start, 255, &rows, &mut y);
                assert_eq!(x, y);
            }
        }
    }

    #[test]
    fn dense_clamps_the_accumulator_before_multiplying() {
        let acc = [-5i16, 300, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let mut rows = [0i16; 16];
        rows[..3].copy_from_slice(&[1, 1, 2]);
        let mut out = [0i32];
        Kernels::Scalar.dense(&acc, 255, &rows, &mut out);
        assert_eq!(out[0], 255 + 14);
    }
}
