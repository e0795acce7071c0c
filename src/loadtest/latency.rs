//! Latency histograms of the load generator (HDR: three significant digits from 1 µs to a
//! minute, in a few tens of KiB whatever the number of samples) and their summary.

use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Samples of one latency, in microseconds.
pub struct LatencyHistogram {
    histogram: Histogram<u64>,
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        LatencyHistogram {
            histogram: Histogram::new_with_bounds(1, 60_000_000, 3)
                .expect("constant bounds that hdrhistogram accepts"),
        }
    }
}

impl LatencyHistogram {
    /// One sample; a latency past the top bound counts as the top bound.
    pub fn record(&mut self, latency: Duration) {
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.histogram.saturating_record(micros.max(1));
    }

    /// The summary written in the report.
    #[must_use]
    pub fn summary(&self) -> LatencySummary {
        let ms = |micros: u64| micros as f64 / 1000.0;
        let h = &self.histogram;
        if h.is_empty() {
            return LatencySummary::default();
        }
        LatencySummary {
            count: h.len(),
            p50_ms: ms(h.value_at_quantile(0.50)),
            p95_ms: ms(h.value_at_quantile(0.95)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            max_ms: ms(h.max()),
            mean_ms: h.mean() / 1000.0,
        }
    }
}

/// Percentiles of one latency, in milliseconds; all zero without samples.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct LatencySummary {
    pub count: u64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
}

impl std::fmt::Display for LatencySummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.count == 0 {
            return f.write_str("no samples");
        }
        write!(
            f,
            "p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} moves)",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms, self.count
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_distribution() {
        let mut h = LatencyHistogram::default();
        assert_eq!(h.summary(), LatencySummary::default());
        for ms in 1..=100u64 {
            h.record(Duration::from_millis(ms));
        }
        let s = h.summary();
        assert_eq!(s.count, 100);
        assert!((s.p50_ms - 50.0).abs() < 0.1, "{s:?}");
        assert!((s.p99_ms - 99.0).abs() < 0.1, "{s:?}");
        assert!((s.max_ms - 100.0).abs() < 0.1, "{s:?}");
    }
}
