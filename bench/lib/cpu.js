'use strict';
/*
 * Where the CPU goes during a measurement (Linux /proc): CPU time of each benchmark process, of
 * the Postgres and NATS servers, of kernel interrupts and of every other process, between two
 * snapshots. On a machine with a few cores, throughput is roughly cores / (CPU time per request), so the
 * per-request split shows which hop to make cheaper. Elsewhere it reports nothing.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { cpus } = require('node:os');

const TICK_MS = 10; // USER_HZ is 100 on every Linux the project targets

function procStat(pid) {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = raw.lastIndexOf(')');
    const comm = raw.slice(raw.indexOf('(') + 1, close);
    const f = raw.slice(close + 2).split(' ');
    return { comm, ms: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return null;
  }
}

function machineBusyMs() {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user.
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busy: (total - idle - iowait) * TICK_MS, total: total * TICK_MS, interrupts: (irq + softirq) * TICK_MS };
}

/** CPU ms per process, keyed by pid, for every process on the machine. */
function snapshotAll() {
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = procStat(entry);
    if (s) all.set(Number(entry), s);
  }
  return all;
}

/**
 * Starts measuring. `groups` maps a label to a pid (one of our children) or to a process name
 * (`comm`, e.g. "postgres", "nats-server"). stop() resolves with CPU ms per group and for the rest.
 */
function startCpuAccounting(groups) {
  if (process.platform !== 'linux') return { stop: () => null };
  const before = snapshotAll();
  const machineBefore = machineBusyMs();
  const selfBefore = process.cpuUsage();
  const t0 = Date.now();
  return {
    stop() {
      const after = snapshotAll();
      const machine = machineBusyMs();
      const self = process.cpuUsage(selfBefore);
      const used = new Map();
      for (const [pid, s] of after) {
        const b = before.get(pid);
        used.set(pid, { comm: s.comm, ms: s.ms - (b && b.comm === s.comm ? b.ms : 0) });
      }
      const result = { wallMs: Date.now() - t0, cores: cpus().length, groups: {} };
      const claimed = new Set([process.pid]);
      result.groups['load generator (bench process)'] = (self.user + self.system) / 1000;
      for (const [label, who] of Object.entries(groups)) {
        let ms = 0;
        for (const [pid, u] of used) {
          if (claimed.has(pid)) continue;
          if (typeof who === 'number' ? pid === who : u.comm === who) {
            ms += u.ms;
            claimed.add(pid);
          }
        }
        result.groups[label] = ms;
      }
      const accounted = Object.values(result.groups).reduce((a, b) => a + b, 0);
      result.machineBusyMs = machine.busy - machineBefore.busy;
      // Interrupt time is mostly the loopback network stack working for the processes above.
      const interrupts = machine.interrupts - machineBefore.interrupts;
      result.groups['kernel interrupts (network)'] = interrupts;
      result.groups['other processes'] = Math.max(0, result.machineBusyMs - accounted - interrupts);
      result.machineCapacityMs = machine.total - machineBefore.total;
      return result;
    },
  };
}

/** Share of the machine's CPU in use over the next `ms` milliseconds (null off Linux). */
async function machineBusyShare(ms = 2000) {
  if (process.platform !== 'linux') return null;
  const a = machineBusyMs();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineBusyMs();
  return (b.busy - a.busy) / (b.total - a.total);
}

module.exports = { startCpuAccounting, machineBusyShare };
