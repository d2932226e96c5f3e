'use strict';
const { createServer } = require('node:net');

const portFree = (port) =>
  new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });

/** The first of `count` consecutive free ports (npm start puts the services on consecutive ports). */
async function consecutiveFreePorts(count) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    let ok = true;
    for (let p = base; ok && p < base + count; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

module.exports = { consecutiveFreePorts };
