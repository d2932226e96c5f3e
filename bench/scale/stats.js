'use strict';
/* Latency summaries and the --sizes notation of the scale benchmark. */

/** The p-th percentile (0 < p <= 100) by nearest rank: the smallest value with at least p% of the values at or below it. */
function percentile(values, p) {
  if (!values.length) return null;
  if (!(p > 0 && p <= 100)) throw new RangeError('p must be in (0, 100]');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50 / p95 / p99 / mean of latencies in ms, with their count. */
function summarize(latencies) {
  const n = latencies.length;
  return {
    n,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    mean: n ? latencies.reduce((a, b) => a + b, 0) / n : null,
  };
}

/** product / baseline, or null when either is missing or the baseline is 0. */
const ratio = (product, baseline) => (product == null || baseline == null || baseline === 0 ? null : product / baseline);

const UNITS = { k: 1e3, m: 1e6 };

/** '10k' -> 10000, '1M' -> 1000000, '2500' -> 2500. */
function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(String(text).trim());
  const n = m ? Number(m[1]) * (m[2] ? UNITS[m[2].toLowerCase()] : 1) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--sizes takes sizes such as 10k,100k,1M (got "${text}")`);
  return n;
}

/** A comma-separated list of sizes, smallest first, each once. */
const parseSizes = (text) => [...new Set(String(text).split(',').filter(Boolean).map(parseSize))].sort((a, b) => a - b);

/** 10000 -> '10k', 1000000 -> '1M', 2500 -> '2500'. */
function formatSize(n) {
  if (n >= 1e6 && n % 1e6 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 1e3 === 0) return `${n / 1e3}k`;
  return String(n);
}

module.exports = { percentile, summarize, ratio, parseSize, parseSizes, formatSize };
