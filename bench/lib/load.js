'use strict';
/* Fixed-duration HTTP load with autocannon: a warm-up run (discarded), then the measured run. */
const autocannon = require('autocannon');
const { startCpuAccounting } = require('./cpu');

function run(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    // Ctrl-C during a run stops the load and lets the caller clean up.
    const stop = () => instance.stop();
    process.once('SIGINT', stop);
    instance.once('done', () => process.removeListener('SIGINT', stop));
  });
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
