'use strict';
/* Fixed-duration HTTP load with autocannon: a warm-up run (discarded), then the measured run. */
const autocannon = require('autocannon');
const { startCpuAccounting } = require('./cpu');
const { onInterrupt, throwIfInterrupted } = require('./interrupt');

async function run(opts) {
  throwIfInterrupted();
  let off;
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, r) => (err ? reject(err) : resolve(r)));
    off = onInterrupt(() => instance.stop());
  }).finally(() => off?.());
  throwIfInterrupted();
  return result;
}

/**
 * Measures `url` at `connections` concurrent connections for `durationS` seconds after `warmupS`
 * seconds of the same load. Latencies are in milliseconds; `cpu` names the processes whose CPU
 * time is accounted during the measured run (see cpu.js).
 */
async function measure({ url, headers = {}, connections, durationS, warmupS, cpu = {} }) {
  const base = { url, headers, connections, pipelining: 1, timeout: 10 };
  if (warmupS > 0) await run({ ...base, duration: warmupS });
  const accounting = startCpuAccounting(cpu);
  const r = await run({ ...base, duration: durationS });
  const cpuUsed = accounting.stop();
  const failed = r.errors + r.timeouts + r.non2xx;
  return {
    requests: r.requests.total,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    failed,
    cpu: cpuUsed,
    detail: { errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, statusCodeStats: r.statusCodeStats },
  };
}

module.exports = { measure };
