'use strict';
/* The hardening harness itself: its raw HTTP client, the case generator, the tally and the report. */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { createServer: createHttpServer } = require('node:http');
const { createServer } = require('node:net');
const { rawRequest, parseResponse, buildRequest } = require('../hardening/http');
const { fuzzCases, mustRefuse, operationCases } = require('../hardening/fuzz');
const { Tally, describe } = require('../hardening/tally');
const { exposesInternals } = require('../hardening/runner');
const { markdown, findings } = require('../hardening/report');
const { grantOf, signed } = require('../hardening/tenancy');

/** A TCP server on a free port; `onConnection(socket)` decides what it does. */
async function serve(t, onConnection) {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    onConnection(socket);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise((r) => server.close(r));
  });
  return server.address().port;
}

test('parses content-length, chunked, interim and body-less responses, and waits for incomplete ones', () => {
  const r = (s) => Buffer.from(s, 'latin1');
  assert.deepEqual(parseResponse(r('HTTP/1.1 201 Created\r\nContent-Length: 2\r\nX-A: b\r\n\r\nok')), {
    status: 201,
    headers: { 'content-length': '2', 'x-a': 'b' },
    body: r('ok'),
  });
  assert.equal(parseResponse(r('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok')), null);
  assert.equal(parseResponse(r('HTTP/1.1 200 OK\r\nContent-Le')), null);
  const chunked = parseResponse(r('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'));
  assert.equal(chunked.body.toString(), 'abcde');
  assert.equal(parseResponse(r('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n')), null);
  assert.equal(parseResponse(r('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n')).status, 413);
  assert.equal(parseResponse(r('HTTP/1.1 204 No Content\r\n\r\n')).body.length, 0);
  assert.equal(parseResponse(r('HTTP/1.1 200 OK\r\n\r\nuntil close'), { ended: true }).body.toString(), 'until close');
  assert.throws(() => parseResponse(r('SSH-2.0-OpenSSH\r\n\r\n')), /not an HTTP response/);
});

test('sends exactly the bytes given, NUL and CR/LF included', async (t) => {
  let seen;
  const port = await serve(t, (socket) =>
    socket.once('data', (d) => {
      seen = d;
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbad');
    }),
  );
  const raw = 'GET /a\u0000b HTTP/1.1\r\nX: 1\rY: 2\r\n\r\n';
  const res = await rawRequest(port, { raw, timeoutMs: 2000 });
  assert.equal(seen.toString('latin1'), raw);
  assert.deepEqual([res.outcome, res.status, res.body.toString()], ['response', 400, 'bad']);
  const built = buildRequest({ method: 'POST', path: '/x', headers: { 'content-type': 'text/plain' }, body: 'héllo' }).toString('latin1');
  assert.match(
    built,
    /^POST \/x HTTP\/1\.1\r\nHost: 127\.0\.0\.1\r\nConnection: close\r\ncontent-type: text\/plain\r\nContent-Length: 6\r\n\r\n/,
  );
});

test('a server that never answers is a hang, one that hangs up is no answer', async (t) => {
  const silent = await serve(t, () => {});
  const hang = await rawRequest(silent, { path: '/', timeoutMs: 300 });
  assert.equal(hang.outcome, 'hang');
  assert.ok(hang.ms >= 290 && hang.ms < 2000);
  const rude = await serve(t, (socket) => socket.once('data', () => socket.destroy()));
  assert.equal((await rawRequest(rude, { path: '/', timeoutMs: 2000 })).outcome, 'closed');
  const half = await serve(t, (socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc')));
  assert.deepEqual((await rawRequest(half, { path: '/', timeoutMs: 2000 })).error, 'incomplete response');
});

test('an early answer to a large body is read, not lost to a write error', async (t) => {
  const server = createHttpServer((req, res) => {
    res.writeHead(413, { connection: 'close', 'content-length': 2 });
    res.end('no');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const res = await rawRequest(server.address().port, {
    method: 'POST',
    path: '/',
    body: Buffer.alloc(8 * 1024 * 1024, 97),
    timeoutMs: 5000,
  });
  assert.deepEqual([res.outcome, res.status], ['response', 413]);
});

const DOC = {
  paths: {
    '/api/core/things/{id}': {
      get: {
        parameters: [
          { name: 'id', in: 'path', required: true },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0 } },
        ],
      },
      delete: { parameters: [{ name: 'id', in: 'path', required: true }] },
      patch: {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Patch' } } } },
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true } },
    schemas: { Patch: { type: 'object', properties: { name: { type: 'string', example: 'n' } }, required: ['name'] } },
  },
};
const FX = { token: 'dit_t', providerId: 'p', fileId: 'f', collectionId: 'c', fileKey: 'k/a.txt' };

test('every operation of an OpenAPI document gets hostile path, query, body and header cases, deletes last', () => {
  const { groups, operations } = fuzzCases(DOC, FX);
  assert.equal(operations, 3);
  const names = groups.map((g) => g.name);
  assert.deepEqual(names.slice(0, 2), ['GET /api/core/things/{id}', 'PATCH /api/core/things/{id}']);
  assert.ok(names.indexOf('multipart uploads') < names.indexOf('DELETE /api/core/things/{id}'));
  assert.deepEqual(names.slice(-2), ['LOCAL transfer URLs', 'headers and protocol']);

  const get = operationCases(DOC, 'get', '/api/core/things/{id}', DOC.paths['/api/core/things/{id}'].get, FX);
  const paths = get.map((c) => c.path);
  assert.ok(paths.includes('/api/core/things/..%2F..%2Fetc%2Fpasswd'));
  assert.ok(paths.includes('/api/core/things/p?page=9223372036854775808'));
  assert.ok(paths.includes('/api/core/things/p?page=1e3') && paths.includes('/api/core/things/p?page=0x10'));
  assert.ok(paths.includes('/api/core/things/p?page=a%0D%0AX-Injected%3A%201'));
  assert.ok(get.some((c) => c.label === 'no token' && !c.headers.authorization));
  assert.ok(get.every((c) => c.body === undefined));
  const hex = get.find((c) => c.path.endsWith('page=0x10'));
  assert.match(hex.check({ outcome: 'response', status: 200 }).fail, /accepted "0x10"/);

  const patch = operationCases(DOC, 'patch', '/api/core/things/{id}', DOC.paths['/api/core/things/{id}'].patch, FX);
  const valid = patch.find((c) => c.label === 'valid');
  assert.deepEqual([valid.path, valid.body, valid.headers['content-type']], ['/api/core/things/p', '{"name":"n"}', 'application/json']);
  assert.ok(patch.some((c) => c.label === 'body nested 1,500 arrays' && c.body.startsWith('['.repeat(1500))));
  assert.ok(patch.some((c) => c.label === 'body empty JSON body' && c.body === ''));
  assert.ok(patch.some((c) => c.label === 'body form-urlencoded' && c.headers['content-type'] === 'application/x-www-form-urlencoded'));
  assert.ok(patch.some((c) => c.label === 'body name' && c.body === JSON.stringify({ name: '\u0000' })));
  assert.ok(patch.some((c) => c.label === 'body without name' && c.body === '{}'));
});

test('integer and enumerated query parameters must refuse what is not theirs', () => {
  const ok = { outcome: 'response', status: 200 };
  const int = { type: 'integer', minimum: 1, maximum: 1000 };
  assert.equal(mustRefuse(int, '20'), undefined);
  for (const v of ['1e3', '0x10', '+5', '1.5', '0', '1001', '', '007']) assert.match(mustRefuse(int, v)(ok).fail, /^accepted/);
  assert.deepEqual(mustRefuse(int, '1e3')({ outcome: 'response', status: 400 }), {});
  assert.match(mustRefuse({ type: 'string', enum: ['json', 'text'] }, 'xml')(ok).fail, /accepted "xml" \(200\)/);
  assert.equal(mustRefuse({ type: 'string' }, '\u0000'), undefined);
});

test('the tally counts answers by class and keeps the failures with their request', () => {
  const tally = new Tally();
  const res = (status, body = '') => ({ outcome: 'response', status, body: Buffer.from(body) });
  tally.record('fuzz', { method: 'GET', path: '/ok' }, res(200));
  tally.record('fuzz', { method: 'GET', path: '/bad' }, res(400));
  tally.record(
    'fuzz',
    { label: 'page', method: 'GET', path: '/x?page=1e3' },
    res(500, '{"code":"INTERNAL","message":"boom","errorId":"e1"}'),
  );
  tally.record('fuzz', { method: 'GET', path: '/slow' }, { outcome: 'hang', ms: 15000 });
  tally.record('tenancy', { method: 'GET', path: '/theirs' }, res(200), { leak: 'shows acme' });
  tally.record('faults', { method: 'POST', path: '/cut' }, { outcome: 'cut' });
  tally.check('faults', 'staging empty', false, '1 file left');
  tally.crashes('faults', 1);
  const fuzz = tally.row('fuzz');
  assert.deepEqual([fuzz.cases, fuzz.s2xx, fuzz.s4xx, fuzz.s5xx, fuzz.hangs], [4, 1, 1, 1, 1]);
  assert.deepEqual(tally.totals(), {
    ...tally.totals(),
    cases: 7,
    s2xx: 2,
    s5xx: 1,
    hangs: 1,
    leaks: 1,
    crashes: 1,
    failedChecks: 1,
  });
  assert.equal(tally.pass(), false);
  assert.deepEqual(
    tally.notable.map((n) => [n.scenario, n.kind]),
    [
      ['fuzz', '500'],
      ['fuzz', 'hang'],
      ['tenancy', 'leak'],
      ['faults', 'check'],
    ],
  );
  assert.equal(tally.notable[0].request, 'page: GET /x?page=1e3');
  assert.equal(tally.notable[0].detail, 'INTERNAL: boom: errorId e1');
  const clean = new Tally();
  clean.record('fuzz', { path: '/' }, res(404));
  assert.equal(clean.pass(), true);
});

test('requests are described printably, long parts cut', () => {
  assert.equal(describe({ method: 'GET', path: '/a\u0000\r\n' }), 'GET /a\\u0000\\r\\n');
  assert.match(describe({ method: 'POST', path: '/p', body: 'x'.repeat(500) }), /^POST \/p body x{100}… \(500 chars\)$/);
  assert.match(describe({ label: 'smuggling', raw: 'GET / HTTP/1.1\r\n\r\n' }), /^smuggling: raw GET \/ HTTP\/1\.1\\r\\n\\r\\n$/);
});

test('answers that show a stack trace, a database error or a secret are caught', () => {
  const res = (body) => ({ outcome: 'response', status: 500, body: Buffer.from(body) });
  assert.match(exposesInternals(res('Error: x\n    at Object.<anonymous> (/app/main.js:1:1)')), /stack trace/);
  assert.match(exposesInternals(res('QueryFailedError: syntax error at or near "x"')), /database error/);
  assert.match(
    exposesInternals(res('{"message":"/tmp/docintel-hardening-abc/storage"}'), ['/tmp/docintel-hardening-abc']),
    /secret or path/,
  );
  assert.equal(exposesInternals(res('{"code":"INTERNAL","message":"Internal server error"}'), ['s3cr3t']), undefined);
});

test('the report has one row per scenario, a total, the goal and the grouped failures', () => {
  const tally = new Tally();
  tally.row('fuzz', 'Fuzzing');
  tally.record(
    'fuzz',
    { label: 'query page', method: 'GET', path: '/x?page=1e3' },
    { outcome: 'response', status: 500, body: Buffer.from('{}') },
  );
  tally.record(
    'fuzz',
    { label: 'query page', method: 'GET', path: '/x?page=0x10' },
    { outcome: 'response', status: 500, body: Buffer.from('{}') },
  );
  const result = {
    rows: [...tally.rows.values()],
    total: tally.totals(),
    notable: tally.notable,
    crashes: [],
    info: {},
    seconds: 42,
    pass: tally.pass(),
  };
  const machine = { cpu: 'CPU', cores: 2, memoryGiB: 4, os: 'Linux', node: 'v20', date: '2026-01-01T00:00:00Z' };
  const text = markdown(result, {}, machine);
  assert.match(text, /\| Fuzzing \| 2 \| 0 \| 0 \| 0 \| 2 \| 0 \| 0 \| 0 \| 0 \| 0 \| 0 \|/);
  assert.match(text, /\| \*\*total\*\* \| 2 \|/);
  assert.match(text, /\*\*not met\*\*/);
  assert.match(text, /\| fuzz \| 500 \| 2 \| `query page: GET \/x\?page=1e3` \| \{\} \|/);
  assert.equal(findings(tally.notable).length, 1);
});

test('grants are read and re-signed the way the tenancy scenario tampers with them', () => {
  const payload = { p: 'prov', n: 'acme', k: 'a.txt', o: 'get', u: 'p', e: 1 };
  const path = signed(payload, 'SIG');
  const g = grantOf(`http://127.0.0.1:1${path}`);
  assert.deepEqual([g.payload, g.sig, g.path], [payload, 'SIG', path]);
});
