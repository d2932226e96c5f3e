'use strict';
/* The results section of docs/hardening.md. */

const PREAMBLE = `# Hardening

\`npm run bench -- hardening\` (bench/hardening/) starts the whole stack the way \`npm start\` does —
five processes under the same supervisor, so a service that dies is restarted and counted — on a
private database, NATS prefix, storage root and loopback ports, and attacks it for a few minutes.
It rewrites the results section below (between its markers) on every run; \`--no-write\` only
prints it. Exit code 0: the goal is met; 2: it is not; 1: the run itself failed.

The goal: **no 5xx, no leak, no hang, no crash, no failed check**. Every request has a 15 s deadline
(\`HARDENING_REQUEST_TIMEOUT_MS\`); the fuzzing has a time budget (\`HARDENING_FUZZ_BUDGET_S\`, 150 s),
and cases it did not reach are counted as skipped.

- **fuzz**: every operation of the gateway's OpenAPI document (\`/api/docs-json\`), each path
  parameter, query parameter and body property replaced in turn by hostile values (invalid UUIDs,
  NUL and CR/LF characters, path traversal keys, 8,000–600,000-character strings, paging numbers
  such as \`9223372036854775808\`, \`1e3\`, \`0x10\`, \`-1\`, \`1.5\`), whole bodies of the wrong kind
  (empty with a JSON content type, invalid JSON and UTF-8, 1,500 levels of nesting, 2 MiB, form-urlencoded,
  text, XML), oversized and catastrophic rule filters (600,000-character strings, \`(a+)+$\`), multipart
  abuse of the upload route, tampered LOCAL transfer URLs, hostile headers and raw protocol abuse
  (request smuggling, oversized headers, malformed request lines).
- **tenancy**: namespace globex against namespace acme's provider items (on a provider shared only with
  acme), IndexedFiles, collections, rules, download and upload URLs, and transfer grants with their
  key, namespace, provider, operation, expiry or signature changed. A leak is acme's secret marker or
  ids in an answer to globex, a change by globex that went through, or acme's data changed afterwards.
  "Local storage" is configured as the default provider is (every namespace, each in its own
  directory): globex reading acme's item there counts as a leak.
- **faults**: uploads cut off halfway over a raw socket (multipart and presigned), multipart bodies
  without a closing boundary, clients that go away mid-download (file descriptors counted before and
  after), kill -9 of indexing-service while it parses a file (the file must end SUCCESS or FAILED),
  a catastrophic regular expression in a rule while a file whose text triggers it is indexed, and
  every service ready at the end.
- **jobs**: a hostile but legitimate tenant against the job and agent routes while a quiet tenant
  works: agent \`output_model_schema\`s with catastrophic patterns (\`^(a+)+$\` in \`propertyNames\`,
  \`pattern\` and \`patternProperties\`, a backreference), 2,100 fields with \`max_iterations: 50\`, a
  recursive \`$ref\` and a 349-byte \`$ref\` expansion to 111,111 fields; a lone surrogate and a NUL in
  every text field of every job create (400 expected); a flood of 300 QA jobs (429 with
  \`Retry-After\` allowed) while the quiet tenant asks one question; four large PDFs (one of 400
  pages) indexing while the quiet tenant indexes and asks a small file, and kill -9 of
  indexing-service with that queue busy (every file must still end SUCCESS). Every request of the
  quiet tenant must answer within 5 s, its job within 5 s, the small file within 10 s of its
  SUCCESS, and no service may pass 1 GiB of resident memory during the whole run.

Columns: **no answer** is a connection closed without an HTTP response; **hangs** got nothing within
the deadline; **crashes** are service exits the run did not cause (the supervisor restarts them);
**failed checks** are invariants that did not hold (a partial upload visible, a descriptor leak, a
file that never settled, an answer showing a stack trace, SQL error, path or secret). Requests the
client cuts off on purpose (a fault it injects) count among the cases only; **skipped** cases were
not reached within the fuzzing budget.
`;

const fmt = (n) => n.toLocaleString('en-US');
const md = (s) => String(s).replace(/\|/g, '\\|').replace(/`/g, "'");

function findings(notable) {
  const groups = new Map();
  for (const n of notable) {
    const label = n.request.includes(': ') ? n.request.slice(0, n.request.indexOf(': ')) : n.request;
    const key = `${n.scenario}|${n.kind}|${label}|${n.detail.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')}`;
    if (!groups.has(key)) groups.set(key, { ...n, count: 0 });
    groups.get(key).count += 1;
  }
  return [...groups.values()];
}

function markdown(result, _opts, machine) {
  const cols = (r) =>
    `| ${r.title} | ${fmt(r.cases)} | ${fmt(r.s2xx)} | ${fmt(r.s3xx)} | ${fmt(r.s4xx)} | ${fmt(r.s5xx)} | ${fmt(r.closed)} | ${fmt(r.hangs)} | ${fmt(r.leaks)} | ${fmt(r.crashes)} | ${fmt(r.failedChecks)} | ${fmt(r.skipped)} |`;
  const t = result.total;
  const lines = [
    '## Results',
    '',
    `Command: \`npm run bench -- hardening\`. Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ` +
      `${machine.os}, Node ${machine.node}. Run ${machine.date}, ${result.seconds} s in all` +
      (result.info.fuzz
        ? `; fuzz: ${result.info.fuzz.operations} operations of the OpenAPI document, ${fmt(result.info.fuzz.total)} cases prepared`
        : '') +
      '.',
    '',
    '| scenario | cases | 2xx | 3xx | 4xx | 5xx | no answer | hangs | leaks | crashes | failed checks | skipped |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.rows.map(cols),
    cols({ ...t, title: '**total**' }),
    '',
    `Goal (no 5xx, leak, hang, crash, failed check or unanswered request): ${result.pass ? '**met**' : '**not met**'}` +
      ` — ${fmt(t.s5xx)} 5xx, ${fmt(t.leaks)} leaks, ${fmt(t.hangs)} hangs, ${fmt(t.crashes)} crashes, ${fmt(t.failedChecks)} failed checks, ${fmt(t.closed)} without an answer.`,
  ];
  if (result.info.jobs) {
    const j = result.info.jobs;
    lines.push(
      '',
      '### Jobs and fairness',
      '',
      `- The quiet tenant's requests while the other flooded: ${fmt(j.quiet?.requests ?? 0)}, median ${j.quiet?.p50 ?? '–'} ms, slowest ${j.quiet?.max ?? '–'} ms (limit 5,000 ms).`,
      `- The flood's ${fmt(Object.values(j.flood?.statuses ?? {}).reduce((a, b) => a + b, 0))} QA creates answered ${Object.entries(
        j.flood?.statuses ?? {},
      )
        .map(([s, n]) => `${fmt(n)} × ${s}`)
        .join(', ')}; the quiet tenant's one-question job meanwhile took ${j.flood?.quietJobMs ?? '–'} ms.`,
      `- While four large PDFs (one of 400 pages) indexed: a small file indexed in ${j.smallIndexMs ?? '–'} ms, then answered in ${j.smallAskMs ?? '–'} ms (limit 10,000 ms)` +
        (j.killedDuringBatch ? '; indexing-service was killed once (kill -9) with the batch in progress.' : '.'),
    );
  }
  if (result.info.peakRssMib) {
    lines.push(
      '',
      '| service | peak RSS (MiB) |',
      '|---|---:|',
      ...Object.entries(result.info.peakRssMib).map(([n, mib]) => `| ${n} | ${fmt(mib)} |`),
    );
  }
  const found = findings(result.notable);
  if (found.length) {
    lines.push('', '### What failed', '', 'Grouped by scenario, kind and case; one request shown per group.', '');
    lines.push('| scenario | kind | times | request | answer |', '|---|---|---:|---|---|');
    for (const f of found.slice(0, 80))
      lines.push(`| ${f.scenario} | ${md(f.kind)} | ${f.count} | \`${md(f.request)}\` | ${md(f.detail)} |`);
    if (found.length > 80) lines.push('', `… and ${found.length - 80} more groups in the JSON record under bench/results/.`);
  }
  if (result.crashes.length) {
    lines.push('', '### Crashes', '');
    for (const c of result.crashes) {
      lines.push(
        `- ${c.name} (pid ${c.pid}) exited with ${c.signal ? `signal ${c.signal}` : `code ${c.code}`} during ${c.scenario} at ${c.at}; last lines:`,
      );
      lines.push('', '  ```', ...c.tail.split('\n').map((l) => `  ${l.slice(0, 300)}`), '  ```');
    }
  }
  return lines.join('\n');
}

module.exports = { markdown, PREAMBLE, findings };
