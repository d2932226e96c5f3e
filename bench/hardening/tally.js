'use strict';
/*
 * Counts per scenario what the hostile requests got back, and keeps every case worth a look
 * (a 5xx, a hang, a connection closed without an answer, a leak, a failed check) with the
 * request that caused it, so the report can list them.
 */

const COLUMNS = ['cases', 's2xx', 's3xx', 's4xx', 's5xx', 'closed', 'hangs', 'leaks', 'crashes', 'failedChecks'];

/** A short, printable description of a request: control characters escaped, long parts cut. */
function describe({ method = 'GET', path = '/', body, raw, label } = {}) {
  const show = (s, max) => {
    const text = Buffer.isBuffer(s) ? s.toString('latin1') : String(s);
    const escaped = JSON.stringify(text.length > max ? text.slice(0, max) : text).slice(1, -1);
    return text.length > max ? `${escaped}… (${text.length} chars)` : escaped;
  };
  if (raw !== undefined) return `${label ? `${label}: ` : ''}raw ${show(raw, 120)}`;
  const parts = [`${method} ${show(path, 160)}`];
  if (body !== undefined) parts.push(`body ${show(body, 100)}`);
  return `${label ? `${label}: ` : ''}${parts.join(' ')}`;
}

class Tally {
  constructor() {
    /** id -> row */
    this.rows = new Map();
    this.notable = [];
  }

  row(id, title = id) {
    if (!this.rows.has(id)) this.rows.set(id, { id, title, ...Object.fromEntries(COLUMNS.map((c) => [c, 0])), skipped: 0 });
    return this.rows.get(id);
  }

  note(scenario, kind, request, detail) {
    this.notable.push({ scenario, kind, request: typeof request === 'string' ? request : describe(request), detail });
  }

  /**
   * One case: the request sent, what came back (rawRequest's answer, or { outcome: 'cut' } when the
   * client broke the exchange off on purpose) and the verdict of its checks ({ leak, fail }).
   */
  record(scenario, request, res, verdict = {}) {
    const row = this.row(scenario);
    row.cases += 1;
    if (res.outcome === 'response') {
      const cls = Math.floor(res.status / 100);
      if (cls === 2) row.s2xx += 1;
      else if (cls === 3) row.s3xx += 1;
      else if (cls === 4) row.s4xx += 1;
      else if (cls === 5) {
        row.s5xx += 1;
        this.note(scenario, `${res.status}`, request, responseSummary(res));
      }
    } else if (res.outcome === 'hang') {
      row.hangs += 1;
      this.note(scenario, 'hang', request, `no answer within ${res.ms} ms`);
    } else if (res.outcome === 'closed') {
      row.closed += 1;
      this.note(scenario, 'no answer', request, `connection closed: ${res.error}`);
    }
    if (verdict.leak) {
      row.leaks += 1;
      this.note(scenario, 'leak', request, verdict.leak);
    }
    if (verdict.fail) {
      row.failedChecks += 1;
      this.note(scenario, 'check', request, verdict.fail);
    }
  }

  /** A check that is not one request (state after a series, a file's final status). */
  check(scenario, what, ok, detail, { leak = false } = {}) {
    const row = this.row(scenario);
    row.cases += 1;
    if (ok) return;
    if (leak) row.leaks += 1;
    else row.failedChecks += 1;
    this.note(scenario, leak ? 'leak' : 'check', what, detail);
  }

  skipped(scenario, n) {
    this.row(scenario).skipped += n;
  }

  crashes(scenario, n) {
    this.row(scenario).crashes += n;
  }

  totals() {
    const total = { id: 'total', title: 'total', ...Object.fromEntries(COLUMNS.map((c) => [c, 0])), skipped: 0 };
    for (const row of this.rows.values()) for (const c of [...COLUMNS, 'skipped']) total[c] += row[c];
    return total;
  }

  /** The goal: no 5xx, no leak, no hang, no crash, no failed check. */
  pass() {
    const t = this.totals();
    return t.s5xx === 0 && t.leaks === 0 && t.hangs === 0 && t.crashes === 0 && t.failedChecks === 0 && t.closed === 0;
  }
}

function responseSummary(res) {
  const text = res.body?.toString('utf8') ?? '';
  try {
    const body = JSON.parse(text);
    const summary = [body.code, body.message, body.errorId && `errorId ${body.errorId}`].filter(Boolean).join(': ');
    return (summary || text).slice(0, 300);
  } catch {
    return text.slice(0, 200);
  }
}

module.exports = { Tally, describe, COLUMNS };
