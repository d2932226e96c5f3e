'use strict';
/*
 * (i) Malformed, oversized and adversarial input for every operation of the gateway's OpenAPI
 * document (/api/docs-json): each path parameter, query parameter and body property replaced in
 * turn by hostile values, whole bodies of the wrong kind, hostile headers, and raw protocol abuse.
 * Every answer must be a 2xx or a 4xx: a 5xx, a hang or a closed connection is a finding.
 */
const { randomUUID } = require('node:crypto');

const UUID = '3f0c9c1e-6a36-4d55-8a53-0b2f1c4d5e6f';

/** Path segments, already as they go on the wire (percent-encoded where needed). */
const PATH_VALUES = [
  'not-a-uuid',
  '0',
  '-1',
  '1.5',
  '00000000-0000-0000-0000-000000000000',
  UUID.toUpperCase(),
  `${UUID}%00`,
  `${UUID}x`,
  `{${UUID}}`,
  '%00',
  '%0d%0aX-Injected:%201',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  'a'.repeat(5000),
  "1'%20OR%20'1'%3D'1",
  '%F0%9F%98%80',
  '%ff%fe',
  '%',
  'null',
  '__proto__',
  'constructor',
  'toString',
];

/** Query values, percent-encoded when sent. */
const QUERY_VALUES = [
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '+5',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  '1'.repeat(400),
  'NaN',
  'Infinity',
  'true',
  'null',
  '[]',
  '{"$gt":""}',
  '\u0000',
  'a\u0000b',
  'a\r\nX-Injected: 1',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/',
  '//',
  '.',
  '..',
  'a/../../b/',
  '%2e%2e%2f',
  '.docintel-staging/',
  'fuzz/../../',
  'x'.repeat(8000),
  'ñ€😀',
  '\u202e',
  "' OR 1=1 --",
  '$(reboot)',
  '<script>alert(1)</script>',
];

/** Whole query strings that break the usual shape. */
const RAW_QUERIES = [
  (p) => `${p}=1&${p}=2`,
  (p) => `${p}[]=1`,
  (p) => `${p}[$gt]=1`,
  (p) => `${p}[a][b][c]=1`,
  () => '__proto__[polluted]=1',
  () => 'constructor[prototype][polluted]=1',
  (p) => `${p}=%`,
  (p) => `${p}=%E0%A4%A`,
  (p) => `${p}=%C0%AF`,
  (p) => `${p}`,
  () => `${'a'.repeat(20_000)}=1`,
];

/** Values of one body property. */
const BODY_VALUES = [
  123,
  -1,
  1.5,
  true,
  null,
  [],
  {},
  [1, 2],
  { $ne: null },
  'x'.repeat(100_000),
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'a\r\nb',
  '../../../etc/passwd',
  '/',
  '😀'.repeat(1000),
  '\u202e',
  '__proto__',
];

/** Rule filters: oversized strings and lists, catastrophic and invalid regular expressions, wrong types. */
const FILTERS = [
  { mime_types: ['a'.repeat(600_000)] },
  { content_patterns: ['a'.repeat(600_000)] },
  { content_patterns: ['(a+)+$'] },
  { content_patterns: ['(a|a)*$', '(.*a){20}', '^(([a-z])+.)+[A-Z]([a-z])+$'] },
  { content_patterns: ['(('] },
  { content_patterns: ['(?<x>a)\\k<x>', '\\p{L}+', '(?i)abc'] },
  { content_patterns: Array.from({ length: 10_000 }, (_, i) => `a${i}`) },
  { mime_types: Array.from({ length: 50_000 }, (_, i) => `x/y${i}`) },
  { mime_types: 'text/plain' },
  { mime_types: [null] },
  { mime_types: [['text/plain']] },
  { mime_types: [''] },
  { mime_types: ['\u0000'] },
  { mime_types: ['text/plain', 'text/plain'] },
  { min_file_size: -1 },
  { min_file_size: 1.5 },
  { max_file_size: '10' },
  { unknown_key: 1 },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { node_types: [''] },
  { classifications: Array.from({ length: 1000 }, () => 'c'.repeat(1000)) },
  [],
  'all',
  null,
];

/** Bodies that are not what a JSON operation expects. */
function bodyCases() {
  const deepArray = `${'['.repeat(1500)}${']'.repeat(1500)}`;
  const deepObject = `${'{"a":'.repeat(1500)}1${'}'.repeat(1500)}`;
  return [
    { label: 'empty JSON body', ct: 'application/json', body: '' },
    { label: 'blank JSON body', ct: 'application/json', body: '   \n' },
    { label: '{}', ct: 'application/json', body: '{}' },
    { label: 'null', ct: 'application/json', body: 'null' },
    { label: 'array', ct: 'application/json', body: '[]' },
    { label: 'string', ct: 'application/json', body: '"x"' },
    { label: 'number', ct: 'application/json', body: '123' },
    { label: 'truncated JSON', ct: 'application/json', body: '{"a":' },
    { label: 'invalid JSON', ct: 'application/json', body: '{a:1}' },
    { label: 'trailing garbage', ct: 'application/json', body: '{"a":1}}' },
    { label: 'invalid UTF-8', ct: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    { label: 'BOM', ct: 'application/json', body: '\ufeff{}' },
    { label: 'nested 1,500 arrays', ct: 'application/json', body: deepArray },
    { label: 'nested 1,500 objects', ct: 'application/json', body: deepObject },
    { label: '2 MiB JSON', ct: 'application/json', body: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }) },
    {
      label: '10,000 properties',
      ct: 'application/json',
      body: JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
    },
    { label: 'huge number', ct: 'application/json', body: '{"size":1e400,"page":9223372036854775808}' },
    { label: 'form-urlencoded', ct: 'application/x-www-form-urlencoded', body: 'key=fuzz%2Fa.txt&name=x&fileId=1' },
    { label: 'text/plain', ct: 'text/plain', body: 'hello' },
    { label: 'no content type', ct: undefined, body: '{"key":"fuzz/a.txt"}' },
    { label: 'JSON charset utf-16', ct: 'application/json; charset=utf-16', body: '{}' },
    { label: 'vendor JSON', ct: 'application/vnd.api+json', body: '{}' },
    {
      label: 'multipart on a JSON route',
      ct: 'multipart/form-data; boundary=b',
      body: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
    },
    { label: 'XML', ct: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' },
    { label: 'duplicate keys', ct: 'application/json', body: '{"key":"fuzz/a.txt","key":"../../x"}' },
  ];
}

function resolve(doc, node) {
  let n = node;
  for (let i = 0; n && n.$ref && i < 20; i++)
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((acc, k) => acc?.[k], doc);
  return n ?? {};
}

/** A plausible valid body of an operation: per known route, else from the schema's required properties and examples. */
function baselineBody(doc, method, path, op, fx) {
  const known = {
    'POST /v1/rules': { trigger_id: 'formula_augmentation', filter: {} },
    'PUT /v1/rules/{trigger_id}': { filter: { mime_types: ['text/plain'] } },
    'POST /api/core/files': { providerId: fx.providerId, key: fx.fileKey },
    'POST /api/core/collections': { name: 'fuzz collection' },
    'PATCH /api/core/collections/{id}': { description: 'fuzzed' },
    'POST /api/core/collections/{id}/files': { fileId: fx.fileId },
    'POST /api/core/providers/{providerId}/items': { key: 'fuzz/folder/' },
    'DELETE /api/core/providers/{providerId}/items': { key: 'fuzz/delete-me.txt' },
    'PATCH /api/core/providers/{providerId}/items': { key: 'fuzz/rename-me.txt' },
    'POST /api/core/providers/{providerId}/items/upload-url': { key: 'fuzz/presigned.txt', size: 10, mediaType: 'text/plain' },
    'POST /api/core/providers/{providerId}/items/confirm': { key: fx.fileKey },
  }[`${method} ${path}`];
  if (known) return known;
  const content = op.requestBody?.content?.['application/json'];
  if (!content) return undefined;
  const schema = resolve(doc, content.schema);
  const body = {};
  for (const name of schema.required ?? []) {
    const prop = resolve(doc, schema.properties?.[name]);
    body[name] =
      prop.example ??
      (prop.type === 'integer' || prop.type === 'number' ? 1 : prop.type === 'boolean' ? true : prop.type === 'object' ? {} : 'x');
  }
  return body;
}

/** The valid value of a parameter in this operation. */
function baselineParam(path, param, fx) {
  const { name } = param;
  if (name === 'id') {
    if (path.startsWith('/api/core/files')) return fx.fileId;
    if (path.startsWith('/api/core/collections')) return fx.collectionId;
    return fx.providerId;
  }
  const byName = {
    providerId: fx.providerId,
    fileId: fx.fileId,
    trigger_id: 'node_embedding',
    key: path.endsWith('/content') || path.endsWith('/download-url') ? fx.fileKey : 'fuzz/',
    newName: 'renamed.txt',
    page: '0',
    pageSize: '20',
    limit: '10',
    expirationMinutes: '15',
    format: 'markdown',
    reparse: 'false',
    sortOrder: 'asc',
    sortBy: 'name',
    sortProperty: 'name',
    q: 'a',
  };
  return byName[name];
}

/**
 * For a value an integer or enumerated parameter must refuse (anything but plain decimal digits
 * within the schema's bounds, or a value outside the enum): a check that fails on a 2xx.
 */
function mustRefuse(schema, value) {
  let valid = true;
  if (schema.type === 'integer') {
    valid =
      /^(0|[1-9][0-9]*)$/.test(value) &&
      (schema.minimum === undefined || Number(value) >= schema.minimum) &&
      (schema.maximum === undefined || Number(value) <= schema.maximum);
  } else if (Array.isArray(schema.enum)) {
    valid = schema.enum.includes(value);
  }
  if (valid) return undefined;
  return (res) => (res.outcome === 'response' && res.status < 300 ? { fail: `accepted ${JSON.stringify(value)} (${res.status})` } : {});
}

const enc = (v) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return escape(v);
  }
};

/** Every case for one operation. */
function operationCases(doc, method, path, op, fx) {
  const M = method.toUpperCase();
  const params = (op.parameters ?? []).map((p) => resolve(doc, p));
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const baseQuery = Object.fromEntries(
    queryParams.filter((p) => p.required || ['key'].includes(p.name)).map((p) => [p.name, baselineParam(path, p, fx)]),
  );
  const basePath = Object.fromEntries(pathParams.map((p) => [p.name, baselineParam(path, p, fx)]));
  const url = (pathValues, query, rawQuery) => {
    const p = path.replace(/\{([^}]+)\}/g, (_, n) => pathValues[n]);
    const qs = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${enc(k)}=${enc(v)}`);
    if (rawQuery) qs.push(rawQuery);
    return qs.length ? `${p}?${qs.join('&')}` : p;
  };
  const auth = { authorization: `Bearer ${fx.token}` };
  const base = baselineBody(doc, M, path, op, fx);
  const request = (overrides) => ({
    method: M,
    path: url(basePath, baseQuery),
    headers: base !== undefined ? { ...auth, 'content-type': 'application/json' } : auth,
    ...(base !== undefined ? { body: JSON.stringify(base) } : {}),
    ...overrides,
  });
  const cases = [
    request({ label: 'valid' }),
    request({ label: 'no token', headers: base !== undefined ? { 'content-type': 'application/json' } : {} }),
  ];

  for (const p of pathParams) {
    const values = [...PATH_VALUES, randomUUID()];
    for (const v of values) cases.push(request({ label: `path ${p.name}`, path: url({ ...basePath, [p.name]: v }, baseQuery) }));
  }
  for (const p of queryParams) {
    for (const v of QUERY_VALUES) {
      const refused = mustRefuse(p.schema ? resolve(doc, p.schema) : {}, v);
      cases.push(
        request({ label: `query ${p.name}`, path: url(basePath, { ...baseQuery, [p.name]: v }), ...(refused ? { check: refused } : {}) }),
      );
    }
    const rest = { ...baseQuery };
    delete rest[p.name];
    for (const raw of RAW_QUERIES) cases.push(request({ label: `query ${p.name} (shape)`, path: url(basePath, rest, raw(p.name)) }));
  }
  cases.push(request({ label: 'unknown query parameter', path: url(basePath, { ...baseQuery, unknown: 'x'.repeat(4000) }) }));

  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(M)) {
    for (const b of bodyCases()) {
      cases.push(request({ label: `body ${b.label}`, headers: { ...auth, ...(b.ct ? { 'content-type': b.ct } : {}) }, body: b.body }));
    }
  }
  if (base !== undefined && typeof base === 'object') {
    const content = op.requestBody?.content?.['application/json'];
    const schema = content ? resolve(doc, content.schema) : {};
    const props = new Set([...Object.keys(base), ...Object.keys(schema.properties ?? {})]);
    for (const prop of props) {
      for (const v of BODY_VALUES) cases.push(request({ label: `body ${prop}`, body: JSON.stringify({ ...base, [prop]: v }) }));
      cases.push(request({ label: `body without ${prop}`, body: JSON.stringify({ ...base, [prop]: undefined }) }));
    }
    cases.push(request({ label: 'body __proto__', body: `{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}` }));
    cases.push(
      request({ label: 'body constructor.prototype', body: JSON.stringify({ ...base, constructor: { prototype: { polluted: true } } }) }),
    );
    if ('filter' in base) {
      for (const f of FILTERS) cases.push(request({ label: 'rule filter', body: JSON.stringify({ ...base, filter: f }) }));
    }
    if ('trigger_id' in base) {
      for (const t of [
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'a'.repeat(10_000),
        '../corpus_parsing',
        'CORPUS_PARSING',
        ' corpus_parsing',
      ]) {
        cases.push(request({ label: 'rule trigger_id', body: JSON.stringify({ ...base, trigger_id: t }) }));
      }
    }
  }
  return cases;
}

/** Multipart abuse of the upload route. */
function uploadCases(fx) {
  const auth = { authorization: `Bearer ${fx.token}` };
  const path = `/api/core/providers/${fx.providerId}/items?key=fuzz%2Fuploads%2F`;
  const part = (headers, content) => `--B\r\n${headers.join('\r\n')}\r\n\r\n${content}\r\n`;
  const file = (filename, content = 'hello') =>
    part([`Content-Disposition: form-data; name="file"; filename="${filename}"`, 'Content-Type: text/plain'], content);
  const mp = (label, body, ct = 'multipart/form-data; boundary=B') => ({
    label: `multipart ${label}`,
    method: 'POST',
    path,
    headers: { ...auth, 'content-type': ct },
    body,
  });
  return [
    mp('valid', `${file('ok.txt')}--B--\r\n`),
    mp('no boundary parameter', `${file('a.txt')}--B--\r\n`, 'multipart/form-data'),
    mp('wrong boundary', `${file('a.txt')}--B--\r\n`, 'multipart/form-data; boundary=C'),
    mp('empty boundary', `${file('a.txt')}--B--\r\n`, 'multipart/form-data; boundary='),
    mp('huge boundary', `${file('a.txt')}--B--\r\n`, `multipart/form-data; boundary=${'B'.repeat(5000)}`),
    mp('no parts', '--B--\r\n'),
    mp('empty body', ''),
    mp('part not named file', `${part(['Content-Disposition: form-data; name="other"; filename="a.txt"'], 'x')}--B--\r\n`),
    mp('field only', `${part(['Content-Disposition: form-data; name="key"'], 'x')}--B--\r\n`),
    mp('two file parts', `${file('a.txt')}${file('b.txt')}--B--\r\n`),
    mp(
      '30 parts',
      `${Array.from({ length: 30 }, (_, i) => part([`Content-Disposition: form-data; name="f${i}"`], 'x')).join('')}${file('a.txt')}--B--\r\n`,
    ),
    mp('filename ../../etc/passwd', `${file('../../etc/passwd')}--B--\r\n`),
    mp('filename ..', `${file('..')}--B--\r\n`),
    mp('filename .', `${file('.')}--B--\r\n`),
    mp('filename empty', `${file('')}--B--\r\n`),
    mp('filename with NUL', `${file('a\u0000b.txt')}--B--\r\n`),
    mp('filename with backslashes', `${file('..\\..\\a.txt')}--B--\r\n`),
    mp('filename a/b.txt', `${file('a/b.txt')}--B--\r\n`),
    mp('filename of 5,000 chars', `${file(`${'n'.repeat(5000)}.txt`)}--B--\r\n`),
    mp('filename .docintel-staging', `${file('.docintel-staging')}--B--\r\n`),
    mp('filename with unicode', `${file('räksmörgås-😀.txt')}--B--\r\n`),
    mp('no Content-Disposition', `${part(['Content-Type: text/plain'], 'x')}--B--\r\n`),
    mp(
      'part header of 20 KB',
      `${part([`Content-Disposition: form-data; name="file"; filename="a.txt"`, `X-Pad: ${'p'.repeat(20_000)}`], 'x')}--B--\r\n`,
    ),
    mp('field of 2 MiB', `${part(['Content-Disposition: form-data; name="pad"'], 'p'.repeat(2 * 1024 * 1024))}${file('a.txt')}--B--\r\n`),
    { ...mp('key ../', `${file('a.txt')}--B--\r\n`), path: `/api/core/providers/${fx.providerId}/items?key=..%2F` },
    { ...mp('key /etc/', `${file('a.txt')}--B--\r\n`), path: `/api/core/providers/${fx.providerId}/items?key=%2Fetc%2F` },
    {
      ...mp('key .docintel-staging/', `${file('a.txt')}--B--\r\n`),
      path: `/api/core/providers/${fx.providerId}/items?key=.docintel-staging%2F`,
    },
    { ...mp('key without slash', `${file('a.txt')}--B--\r\n`), path: `/api/core/providers/${fx.providerId}/items?key=fuzz` },
  ];
}

/** The LOCAL presigned-URL route, which is not in the OpenAPI document. */
function transferCases() {
  const grants = [
    'x',
    'a.b',
    '.',
    '..',
    'e30.',
    'e30.AAAA',
    `${'A'.repeat(9000)}.B`,
    '%00',
    '..%2F..%2Fetc%2Fpasswd',
    'eyJwIjoiMSJ9.sig',
    `${'a'.repeat(100)}.${'b'.repeat(43)}`,
  ];
  return grants.flatMap((g) => [
    { label: 'transfer grant GET', method: 'GET', path: `/api/storage/transfer/${g}` },
    {
      label: 'transfer grant PUT',
      method: 'PUT',
      path: `/api/storage/transfer/${g}`,
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    },
  ]);
}

/** Hostile headers and raw protocol abuse against a few routes. */
function protocolCases(fx) {
  const token = fx.token;
  const h = (label, headers, path = '/api/core/providers') => ({ label, method: 'GET', path, headers });
  const raw = (label, text) => ({ label, raw: text });
  return [
    h('no Authorization', {}),
    h('empty Authorization', { authorization: '' }),
    h('Bearer only', { authorization: 'Bearer' }),
    h('Bearer and a space', { authorization: 'Bearer ' }),
    h('Bearer garbage', { authorization: 'Bearer x' }),
    h('well-formed unknown token', { authorization: `Bearer dit_${'0'.repeat(32)}_${'a'.repeat(43)}` }),
    h('token id of another shape', { authorization: `Bearer dit_${'g'.repeat(32)}_${'a'.repeat(43)}` }),
    h('Basic', { authorization: 'Basic YTpi' }),
    h('token of 10,000 chars', { authorization: `Bearer ${'a'.repeat(10_000)}` }),
    h('lower-case bearer', { authorization: `bearer ${token}` }),
    h('token and more', { authorization: `Bearer ${token} extra` }),
    h('token with a character changed', { authorization: `Bearer ${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}` }),
    h('X-Namespace of a namespace not joined', { authorization: `Bearer ${token}`, 'x-namespace': 'globex' }),
    h('X-Namespace empty', { authorization: `Bearer ${token}`, 'x-namespace': '' }),
    h('X-Namespace of 5,000 chars', { authorization: `Bearer ${token}`, 'x-namespace': 'n'.repeat(5000) }),
    h('X-Namespace ../', { authorization: `Bearer ${token}`, 'x-namespace': '../' }),
    h("X-Namespace ' OR 1=1", { authorization: `Bearer ${token}`, 'x-namespace': "' OR 1=1 --" }),
    h('X-Request-Id of 10,000 chars', { authorization: `Bearer ${token}`, 'x-request-id': 'r'.repeat(10_000) }),
    h('X-Request-Id with markup', { authorization: `Bearer ${token}`, 'x-request-id': '<script>x</script>' }),
    h('X-Forwarded-For spoofed', { authorization: `Bearer ${token}`, 'x-forwarded-for': '1.2.3.4, <x>' }),
    h('Accept odd', { authorization: `Bearer ${token}`, accept: 'application/xml;q=2, */*;q=-1' }),
    h('Range on JSON', { authorization: `Bearer ${token}`, range: 'bytes=0-1,5-6' }),
    h('unknown route', { authorization: `Bearer ${token}` }, '/api/core/does-not-exist'),
    h('docs path traversal', {}, '/api/docs/../../etc/passwd'),
    h('double slash', { authorization: `Bearer ${token}` }, '//api//core//providers'),
    h('encoded slash', { authorization: `Bearer ${token}` }, '/api%2Fcore%2Fproviders'),
    raw('NUL in the request line', 'GET /api/core/providers\u0000 HTTP/1.1\r\nHost: x\r\n\r\n'),
    raw('space in the path', 'GET /api/core/ providers HTTP/1.1\r\nHost: x\r\n\r\n'),
    raw('header without colon', 'GET /api/core/providers HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n'),
    raw('CR/LF in a header value', `GET /api/core/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\rX-Evil: 1\r\n\r\n`),
    raw(
      'two Authorization headers',
      `GET /api/core/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer x\r\nConnection: close\r\n\r\n`,
    ),
    raw(
      'absolute URI',
      `GET http://evil.example/api/core/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    ),
    raw('unknown method', 'FOO /api/core/providers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    raw('asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    raw('HTTP/1.0 without Host', 'GET /health/live HTTP/1.0\r\n\r\n'),
    raw('HTTP/0.9', 'GET /\r\n\r\n'),
    raw('HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    raw('URL of 70 KB', `GET /api/core/providers?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    raw('header of 20 KB', `GET /api/core/providers HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\nConnection: close\r\n\r\n`),
    raw(
      '300 headers',
      `GET /api/core/providers HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')}Connection: close\r\n\r\n`,
    ),
    raw(
      'Content-Length and Transfer-Encoding (smuggling)',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\nGET /api/core/providers HTTP/1.1\r\nHost: x\r\n\r\n`,
    ),
    raw('negative Content-Length', `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n`),
    raw(
      'two Content-Lengths',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}`,
    ),
    raw(
      'bad chunk size',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ),
    raw(
      'chunked JSON body',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n6\r\n{"name\r\n9\r\n":"fuzz"}\r\n0\r\n\r\n`,
    ),
    raw(
      'Expect: 100-continue',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{"name":"fuzz"}`,
    ),
    raw('Expect: something else', `GET /api/core/providers HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`),
    raw(
      'gzip-encoded body that is not gzip',
      `POST /api/core/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{"name":"fuzz"}`,
    ),
  ];
}

/**
 * All cases: the operations of the document, the non-DELETE ones first (a DELETE with a valid
 * id removes the fixture the others use), then uploads, transfer URLs and protocol abuse.
 */
function fuzzCases(doc, fx) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) ops.push({ method, path, op });
    }
  }
  const rank = ({ method, path }) => (method !== 'delete' ? 0 : /\{id\}$/.test(path) ? 2 : 1);
  ops.sort((a, b) => rank(a) - rank(b));
  const groups = ops.map(({ method, path, op }) => ({
    name: `${method.toUpperCase()} ${path}`,
    cases: operationCases(doc, method, path, op, fx),
  }));
  groups.splice(
    groups.findIndex((g) => g.name.startsWith('DELETE')),
    0,
    { name: 'multipart uploads', cases: uploadCases(fx) },
  );
  groups.push({ name: 'LOCAL transfer URLs', cases: transferCases() }, { name: 'headers and protocol', cases: protocolCases(fx) });
  return { groups, operations: ops.length };
}

module.exports = { fuzzCases, operationCases, mustRefuse, PATH_VALUES, QUERY_VALUES, FILTERS };
