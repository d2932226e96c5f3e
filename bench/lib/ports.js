'use strict';
const { createServer } = require('node:net');
const { readFileSync } = require('node:fs');

const portFree = (port) =>
  new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });

/**
 * The lowest port the kernel hands to outgoing connections. Ports are chosen below it: the services
 * bind seconds after the choice, and meanwhile their own connections to Postgres and NATS take
 * ephemeral local ports, which would make a chosen port in that range fail with EADDRINUSE.
 */
function ephemeralLow() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** The first of `count` consecutive free ports (npm start puts the services on consecutive ports). */
async function consecutiveFreePorts(count) {
  const low = 10_000;
  const span = ephemeralLow() - low - count;
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = low + Math.floor(Math.random() * span);
    let ok = true;
    for (let p = base; ok && p < base + count; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

module.exports = { consecutiveFreePorts };
