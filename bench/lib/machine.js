'use strict';
/* What the numbers were measured on. */
const os = require('node:os');

function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: (cpus[0]?.model || 'unknown').trim(),
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

module.exports = { machineInfo };
