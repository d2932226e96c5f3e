'use strict';
/*
 * Closed-loop NATS request/reply load: `concurrency` callers each send a request, wait for the
 * reply and send the next, for a fixed time. Used to time the service hop without the gateway.
 */
const { connect, headers: natsHeaders } = require('nats');
const { startCpuAccounting } = require('./cpu');
const { isInterrupted, throwIfInterrupted } = require('./interrupt');

const RPC_STATUS_HEADER = 'x-rpc-status';

function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function loop(nc, { subject, payload, headers, concurrency, durationS, record }) {
  const deadline = Date.now() + durationS * 1000;
  const data = Buffer.from(JSON.stringify(payload));
  let failed = 0;
  const worker = async () => {
    while (Date.now() < deadline && !isInterrupted()) {
      const h = natsHeaders();
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
      const t0 = process.hrtime.bigint();
      try {
        const msg = await nc.request(subject, data, { timeout: 10_000, headers: h });
        // An RpcServer says in a header whether the body is data or an error (libs/messaging/src/rpc-reply.ts).
        if (msg.headers?.get(RPC_STATUS_HEADER) !== 'ok') failed++;
      } catch {
        failed++;
      }
      record?.(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}

async function measureNats({ natsUrl, subject, payload, headers = {}, concurrency, durationS, warmupS, cpu = {} }) {
  const nc = await connect({ servers: natsUrl.split(','), name: 'docintel-bench' });
  try {
    if (warmupS > 0) await loop(nc, { subject, payload, headers, concurrency, durationS: warmupS });
    const latencies = [];
    const accounting = startCpuAccounting(cpu);
    const started = process.hrtime.bigint();
    const failed = await loop(nc, { subject, payload, headers, concurrency, durationS, record: (ms) => latencies.push(ms) });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuUsed = accounting.stop();
    throwIfInterrupted();
    latencies.sort((a, b) => a - b);
    const round = (x) => Math.round(x * 100) / 100;
    return {
      requests: latencies.length,
      rps: latencies.length / seconds,
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? 0),
      failed,
      cpu: cpuUsed,
    };
  } finally {
    await nc.close();
  }
}

module.exports = { measureNats };
