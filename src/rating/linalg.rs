//! Small dense symmetric positive-definite algebra (pools are tens of players, so a plain
//! Cholesky factorization is both the simplest and the fastest choice).
// Index loops read like the textbook formulas they implement.
#![allow(clippy::needless_range_loop)]

/// Square matrix stored row-major.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub n: usize,
    pub a: Vec<f64>,
}

impl Matrix {
    pub fn zeros(n: usize) -> Self {
        Matrix {
            n,
            a: vec![0.0; n * n],
        }
    }

    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }

    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        self.a[i * self.n + j] += v;
    }

    /// Lower-triangular Cholesky factor, or `None` when the matrix is not positive definite.
    pub fn cholesky(&self) -> Option<Matrix> {
        let n = self.n;
        let mut l = Matrix::zeros(n);
        for i in 0..n {
            for j in 0..=i {
                let mut s = self.get(i, j);
                for k in 0..j {
                    s -= l.get(i, k) * l.get(j, k);
                }
                if i == j {
                    if s.is_nan() || s <= 0.0 || !s.is_finite() {
                        return None;
                    }
                    l.a[i * n + i] = s.sqrt();
                } else {
                    l.a[i * n + j] = s / l.get(j, j);
                }
            }
        }
        Some(l)
    }

    /// Multiplies `self * b` for square matrices of equal size.
    pub fn mul(&self, b: &Matrix) -> Matrix {
        let n = self.n;
        let mut c = Matrix::zeros(n);
        for i in 0..n {
            for k in 0..n {
                let aik = self.get(i, k);
                if aik == 0.0 {
                    continue;
                }
                for j in 0..n {
                    c.a[i * n + j] += aik * b.get(k, j);
                }
            }
        }
        c
    }
}

/// Solves `L L^T x = b` given the Cholesky factor `l`.
pub fn cholesky_solve(l: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = l.n;
    let mut y = b.to_vec();
    for i in 0..n {
        let mut s = y[i];
        for k in 0..i {
            s -= l.get(i, k) * y[k];
        }
        y[i] = s / l.get(i, i);
    }
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= l.get(k, i) * y[k];
        }
        y[i] = s / l.get(i, i);
    }
    y
}

/// Inverse of `L L^T` given its Cholesky factor.
pub fn cholesky_inverse(l: &Matrix) -> Matrix {
    let n = l.n;
    let mut inv = Matrix::zeros(n);
    let mut e = vec![0.0; n];
    for j in 0..n {
        e.iter_mut().for_each(|x| *x = 0.0);
        e[j] = 1.0;
        let col = cholesky_solve(l, &e);
        for i in 0..n {
            inv.a[i * n + j] = col[i];
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_spd_system() {
        let m = Matrix {
            n: 3,
            a: vec![4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0],
        };
        let l = m.cholesky().unwrap();
        let x = cholesky_solve(&l, &[1.0, 2.0, 3.0]);
        for i in 0..3 {
            let r: f64 = (0..3).map(|j| m.get(i, j) * x[j]).sum();
            assert!((r - [1.0, 2.0, 3.0][i]).abs() < 1e-12);
        }
        let id = m.mul(&cholesky_inverse(&l));
        for i in 0..3 {
            for j in 0..3 {
                assert!((id.get(i, j) - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
        assert!(Matrix {
            n: 2,
            a: vec![1.0, 2.0, 2.0, 1.0]
        }
        .cholesky()
        .is_none());
    }
}
