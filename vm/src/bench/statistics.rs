//! Summarising a benchmark's samples as BenchmarkDotNet does: the mean of the iterations'
//! time per operation, and the error, half the 99.9% confidence interval of that mean
//! (Student's t quantile times the standard error).

/// The mean and error of one benchmark, in nanoseconds per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub mean: f64,
    pub error: f64,
}

/// The summary of per-iteration samples (nanoseconds per operation).
pub fn summarize(samples: &[f64]) -> Summary {
    let n = samples.len();
    if n == 0 {
        return Summary { mean: 0.0, error: 0.0 };
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Summary { mean, error: 0.0 };
    }
    let variance = samples.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (n - 1) as f64;
    let standard_error = (variance / n as f64).sqrt();
    Summary { mean, error: t_999(n - 1) * standard_error }
}

/// The two-sided 99.9% quantile of Student's t distribution (`t(0.9995)`) with `df`
/// degrees of freedom, from the standard table; between rows the smaller `df`'s value
/// (the wider interval) is used.
fn t_999(df: usize) -> f64 {
    const SMALL: [f64; 30] = [
        636.619, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781, 4.587, 4.437, 4.318, 4.221, 4.140, 4.073, 4.015, 3.965, 3.922, 3.883, 3.850, 3.819,
        3.792, 3.768, 3.745, 3.725, 3.707, 3.690, 3.674, 3.659, 3.646,
    ];
    const LARGE: [(usize, f64); 4] = [(40, 3.551), (60, 3.460), (120, 3.373), (usize::MAX, 3.291)];
    if (1..=30).contains(&df) {
        return SMALL[df - 1];
    }
    let mut value = SMALL[29];
    for (at_least, t) in LARGE {
        if df >= at_least {
            value = t;
        }
    }
    value
}

/// `mean / baseline`, when there is a baseline with a positive mean.
pub fn ratio(mean: f64, baseline: Option<f64>) -> Option<f64> {
    baseline.filter(|b| *b > 0.0).map(|b| mean / b)
}

#[cfg(test)]
mod tests {
    use super::{summarize, t_999};

    #[test]
    fn error_is_half_the_999_interval() {
        let s = summarize(&[10.0, 12.0, 11.0, 13.0, 9.0]);
        assert!((s.mean - 11.0).abs() < 1e-9);
        let standard_error = (2.5f64 / 5.0).sqrt();
        assert!((s.error - 8.610 * standard_error).abs() < 1e-9);
    }

    #[test]
    fn quantiles_shrink_with_more_samples() {
        assert!(t_999(14) > t_999(30));
        assert!(t_999(35) == t_999(30));
        assert!(t_999(1000) < t_999(100));
    }
}
