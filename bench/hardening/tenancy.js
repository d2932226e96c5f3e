'use strict';
/*
 * (ii) Tenancy: namespace "globex" goes after the data of namespace "acme", resource by resource:
 * provider items of a provider shared only with acme, acme's IndexedFiles, collections and rules,
 * acme's download and upload URLs, and transfer grants forged or tampered with. acme's secret
 * marker in any answer, a change that went through, or acme's data changed afterwards is a leak.
 *
 * "Local storage" is configured as the default provider is: every namespace may use it, each in its
 * own directory, so the same key in acme and globex names two different items there too.
 */
const { randomBytes } = require('node:crypto');
const { jsonOf, rawRequest } = require('./http');
const { call, must, runCases, upload } = require('./runner');

const enc = encodeURIComponent;

function grantOf(url) {
  const g = new URL(url).pathname.split('/').pop();
  const [body, sig] = g.split('.');
  return { path: new URL(url).pathname, body, sig, payload: JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) };
}
const signed = (payload, sig) => `/api/storage/transfer/${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;

async function tenancy(stack, tally, { log, deadline, secrets }) {
  const S = 'tenancy';
  const url = stack.url;
  const mark = `ACME-SECRET-${randomBytes(6).toString('hex')}`;
  const sharedMark = `ACME-SHARED-${randomBytes(6).toString('hex')}`;
  const alice = await stack.token('acme', 'alice@acme.test');
  const eve = await stack.token('globex', 'eve@globex.test');
  const providersOf = async (token) => (await must(200, url, 'GET', '/api/core/providers', { token })).data;
  const acmeProviders = await providersOf(alice);
  const globexProviders = await providersOf(eve);
  const idOf = (list, name) => list.find((p) => p.name === name)?.id.id;
  const shared = idOf(acmeProviders, 'Local storage');
  const acmeOnly = idOf(acmeProviders, 'Only acme');
  const globexOnly = idOf(globexProviders, 'Only globex');
  if (!shared || !acmeOnly || !globexOnly || idOf(globexProviders, 'Only acme')) {
    throw new Error(
      `unexpected providers: acme sees ${acmeProviders.map((p) => p.name)}, globex sees ${globexProviders.map((p) => p.name)}`,
    );
  }

  // acme's data.
  for (const [p, key, content] of [
    [acmeOnly, 'secret/a.txt', `${mark} contract text`],
    [acmeOnly, 'secret/b.txt', `${mark} second`],
    [shared, 'acme-area/a.txt', `${sharedMark} shared text`],
  ]) {
    const res = await upload(url, alice, p, key, content);
    if (res.status !== 201) throw new Error(`set-up upload ${key}: ${res.status} ${res.text}`);
  }
  const fA = (await must(201, url, 'POST', '/api/core/files', { token: alice, body: { providerId: acmeOnly, key: 'secret/a.txt' } })).id.id;
  const fS = (await must(201, url, 'POST', '/api/core/files', { token: alice, body: { providerId: shared, key: 'acme-area/a.txt' } })).id
    .id;
  const cA = (await must(201, url, 'POST', '/api/core/collections', { token: alice, body: { name: mark, description: mark } })).id.id;
  for (const fileId of [fA, fS]) await must(201, url, 'POST', `/api/core/collections/${cA}/files`, { token: alice, body: { fileId } });
  const acmeMime = `text/x-${mark.toLowerCase()}`;
  const put = await call(url, 'PUT', '/v1/rules/node_embedding', { token: alice, body: { filter: { mime_types: [acmeMime] } } });
  if (put.status >= 300) throw new Error(`set-up rule: ${put.status} ${put.text}`);
  const dlA = (await must(200, url, 'GET', `/api/core/providers/${acmeOnly}/items/download-url?key=secret%2Fa.txt`, { token: alice })).url;
  const ulA = (
    await must(200, url, 'POST', `/api/core/providers/${acmeOnly}/items/upload-url`, { token: alice, body: { key: 'secret/up.txt' } })
  ).url;
  const cursor = (await must(200, url, 'GET', `/api/core/providers/${acmeOnly}/items?key=secret%2F&limit=1`, { token: alice })).nextCursor;

  // globex's own data, to reach for acme's with.
  await upload(url, eve, shared, 'globex-area/e.txt', 'globex text');
  const fE = (await must(201, url, 'POST', '/api/core/files', { token: eve, body: { providerId: shared, key: 'globex-area/e.txt' } })).id
    .id;
  const cE = (await must(201, url, 'POST', '/api/core/collections', { token: eve, body: { name: 'globex collection' } })).id.id;
  const dlE = (await must(200, url, 'GET', `/api/core/providers/${shared}/items/download-url?key=globex-area%2Fe.txt`, { token: eve })).url;
  log(`tenancy: acme's data in place (files ${fA}, ${fS}, collection ${cA}); globex attacks`);

  const acmeIds = [fA, fS, cA];
  /** A leak: acme's marker or ids in the answer, or (for a change) any 2xx. */
  const verdict =
    ({ change = false, ids = acmeIds } = {}) =>
    (res) => {
      if (res.outcome !== 'response') return {};
      const text = res.body.toString('utf8');
      if (text.includes(mark) || text.includes(acmeMime)) return { leak: `answer ${res.status} shows acme's data: ${text.slice(0, 160)}` };
      const id = ids.find((i) => text.includes(i));
      if (id && res.status < 300) return { leak: `answer ${res.status} names acme's ${id}` };
      if (change && res.status < 300) return { leak: `globex's change went through (${res.status})` };
      return {};
    };
  const as = (token, extra = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  const json = (token, extra = {}) => as(token, { 'content-type': 'application/json', ...extra });
  const req = (label, method, path, { body, change = false, headers, check } = {}) => ({
    label,
    method,
    path,
    headers: headers ?? (body !== undefined ? json(eve) : as(eve)),
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    check: check ?? verdict({ change }),
  });
  const P = `/api/core/providers/${acmeOnly}`;
  const mp = (key) =>
    `--B\r\nContent-Disposition: form-data; name="file"; filename="${key}"\r\nContent-Type: text/plain\r\n\r\nfrom globex\r\n--B--\r\n`;

  /** A download URL issued to globex for acme's provider: a leak when it gives acme's bytes, else still wrong. */
  const issuedUrl = async (res) => {
    const v = verdict()(res);
    if (v.leak || res.outcome !== 'response' || res.status >= 300) return v;
    const body = jsonOf(res);
    if (!body?.url) return { fail: `answer ${res.status} without a URL` };
    const got = await rawRequest(stack.gatewayPort, { path: new URL(body.url).pathname, timeoutMs: 15_000 });
    if (got.outcome === 'response' && got.body.toString('utf8').includes(mark))
      return { leak: "the URL issued to globex downloads acme's file" };
    return { fail: `globex was given a URL (${res.status}) for a provider not shared with it` };
  };

  const A = grantOf(dlA);
  const U = grantOf(ulA);
  const E = grantOf(dlE);
  const cases = [
    // Provider items of a provider shared only with acme.
    req('provider of acme only', 'GET', P),
    req('list its root', 'GET', `${P}/items?key=`),
    req('list secret/', 'GET', `${P}/items?key=secret%2F`),
    req("list with acme's cursor", 'GET', `${P}/items?key=secret%2F&cursor=${enc(cursor ?? '')}`),
    req('content', 'GET', `${P}/items/content?key=secret%2Fa.txt`),
    req('content, Range', 'GET', `${P}/items/content?key=secret%2Fa.txt`, { headers: as(eve, { range: 'bytes=0-10' }) }),
    req('download-url', 'GET', `${P}/items/download-url?key=secret%2Fa.txt`, { check: issuedUrl }),
    req('upload-url', 'POST', `${P}/items/upload-url`, { body: { key: 'secret/evil.txt' }, change: true }),
    req('confirm', 'POST', `${P}/items/confirm`, { body: { key: 'secret/a.txt' }, change: true }),
    req('rename', 'PATCH', `${P}/items?newName=pwned.txt`, { body: { key: 'secret/a.txt' }, change: true }),
    req('delete', 'DELETE', `${P}/items`, { body: { key: 'secret/a.txt' }, change: true }),
    req('create folder', 'POST', `${P}/items`, { body: { key: 'secret/globex/' }, change: true }),
    req('multipart upload', 'POST', `${P}/items?key=secret%2F`, {
      headers: as(eve, { 'content-type': 'multipart/form-data; boundary=B' }),
      body: mp('a.txt'),
      change: true,
    }),
    req("index acme's item", 'POST', '/api/core/files', { body: { providerId: acmeOnly, key: 'secret/a.txt' }, change: true }),
    req("list files of acme's provider", 'GET', `/api/core/files?providerId=${acmeOnly}&page=0&pageSize=1000`),
    // Selecting acme with X-Namespace.
    req('X-Namespace acme: a file', 'GET', `/api/core/files/${fA}`, { headers: as(eve, { 'x-namespace': 'acme' }) }),
    req('X-Namespace acme: collections', 'GET', '/api/core/collections', { headers: as(eve, { 'x-namespace': 'acme' }) }),
    req('X-Namespace acme: rules', 'GET', '/v1/rules', { headers: as(eve, { 'x-namespace': 'acme' }) }),
    req('X-Namespace ACME (case)', 'GET', '/v1/rules', { headers: as(eve, { 'x-namespace': 'ACME' }) }),
    req('X-Namespace " acme"', 'GET', '/v1/rules', { headers: as(eve, { 'x-namespace': ' acme' }) }),
    // acme's IndexedFiles.
    ...[fA, fS].flatMap((f) => [
      req('a file', 'GET', `/api/core/files/${f}`),
      req('its ontologies', 'GET', `/api/core/files/${f}/ontologies`),
      req('its document (markdown)', 'GET', `/api/core/files/${f}/document?format=markdown`),
      req('its document (json)', 'GET', `/api/core/files/${f}/document?format=json`),
      req('its document (text)', 'GET', `/api/core/files/${f}/document?format=text`),
      req('reindex', 'POST', `/api/core/files/${f}/reindex?reparse=true`, { change: true }),
      req('recompute ontologies', 'POST', `/api/core/files/${f}/recompute-ontologies`, { change: true }),
      req("add to globex's collection", 'POST', `/api/core/collections/${cE}/files`, { body: { fileId: f }, change: true }),
      req('delete', 'DELETE', `/api/core/files/${f}`, { change: true }),
    ]),
    req('list files of the shared provider', 'GET', `/api/core/files?providerId=${shared}&page=0&pageSize=1000`),
    req('list files, sorted by path', 'GET', `/api/core/files?providerId=${shared}&page=0&pageSize=1000&sortProperty=path&sortOrder=DESC`),
    // acme's collection.
    req('a collection', 'GET', `/api/core/collections/${cA}`),
    req('its files', 'GET', `/api/core/collections/${cA}/files`),
    req('rename it', 'PATCH', `/api/core/collections/${cA}`, { body: { name: 'pwned' }, change: true }),
    req("add globex's file", 'POST', `/api/core/collections/${cA}/files`, { body: { fileId: fE }, change: true }),
    req('take a file out', 'DELETE', `/api/core/collections/${cA}/files/${fS}`, { change: true }),
    req('delete it', 'DELETE', `/api/core/collections/${cA}`, { change: true }),
    req('list collections', 'GET', '/api/core/collections?pageSize=1000'),
    req('search collections for the marker', 'GET', `/api/core/collections?q=${enc(mark)}`),
    req('search collection names', 'GET', '/api/core/collections?q=ACME'),
    // Rules: globex's own changes stay in globex.
    req('list rules', 'GET', '/v1/rules'),
    req('get a rule', 'GET', '/v1/rules/node_embedding'),
    req('replace its own rule', 'PUT', '/v1/rules/node_embedding', { body: { filter: {} }, check: verdict() }),
    req('delete its own rule', 'DELETE', '/v1/rules/node_embedding', { check: verdict() }),
    req('create its own rule', 'POST', '/v1/rules', {
      body: { trigger_id: 'node_embedding', filter: { mime_types: ['text/plain'] } },
      check: verdict(),
    }),
    // acme's presigned URLs and transfer grants, tampered with (no token: the URL is the credential).
    ...[
      ['key changed', 'GET', signed({ ...A.payload, k: 'secret/b.txt' }, A.sig)],
      ['namespace changed', 'GET', signed({ ...A.payload, n: 'globex' }, A.sig)],
      ['provider changed', 'GET', signed({ ...A.payload, p: globexOnly }, A.sig)],
      ['expiry extended', 'GET', signed({ ...A.payload, e: A.payload.e + 10_000_000 }, A.sig)],
      ['purpose changed', 'GET', signed({ ...A.payload, u: A.payload.u === 'p' ? 'r' : 'p' }, A.sig)],
      ['operation changed to put', 'PUT', signed({ ...A.payload, o: 'put' }, A.sig)],
      ['download URL used to upload', 'PUT', A.path],
      ['upload URL used to download', 'GET', U.path],
      ['upload URL for another key', 'PUT', signed({ ...U.payload, k: 'secret/a.txt' }, U.sig)],
      ['upload URL with a bigger limit', 'PUT', signed({ ...U.payload, m: 10 ** 12 }, U.sig)],
      ["acme's payload, globex's signature", 'GET', `/api/storage/transfer/${A.body}.${E.sig}`],
      ["globex's grant pointed at acme's file", 'GET', signed({ ...E.payload, p: acmeOnly, k: 'secret/a.txt' }, E.sig)],
      ["globex's grant, namespace acme", 'GET', signed({ ...E.payload, n: 'acme', p: acmeOnly, k: 'secret/a.txt' }, E.sig)],
      ['no signature', 'GET', `/api/storage/transfer/${A.body}.`],
      ['signature only', 'GET', `/api/storage/transfer/.${A.sig}`],
      ['two signatures', 'GET', `/api/storage/transfer/${A.body}.${A.sig}.${A.sig}`],
      ['truncated signature', 'GET', `/api/storage/transfer/${A.body}.${A.sig.slice(0, 20)}`],
      ['payload with an extra field', 'GET', signed({ ...A.payload, admin: true }, A.sig)],
      ['unsigned JSON payload', 'GET', signed({ p: acmeOnly, n: 'acme', k: 'secret/a.txt', o: 'get', u: 'p', e: 4102444800 }, 'AAAA')],
    ].map(([label, method, path]) => ({
      label: `grant: ${label}`,
      method,
      path,
      ...(method === 'PUT' ? { headers: { 'content-type': 'text/plain' }, body: 'globex was here' } : {}),
      check: verdict({ change: true }),
    })),
  ];
  await runCases(tally, S, cases, { port: stack.gatewayPort, concurrency: 4, deadline, secrets });

  // acme's data after the attack: every change that went through is a leak too.
  const content = await call(url, 'GET', `/api/core/providers/${acmeOnly}/items/content?key=secret%2Fa.txt`, { token: alice });
  tally.check(
    S,
    "acme's secret/a.txt unchanged",
    content.status === 200 && content.text === `${mark} contract text`,
    `${content.status}: ${content.text.slice(0, 100)}`,
    { leak: true },
  );
  const listing = await call(url, 'GET', `/api/core/providers/${acmeOnly}/items?key=secret%2F`, { token: alice });
  const keys = (listing.json?.items ?? []).map((i) => i.key).sort();
  tally.check(
    S,
    "acme's secret/ holds only acme's items",
    JSON.stringify(keys) === JSON.stringify(['secret/a.txt', 'secret/b.txt']),
    `listing: ${keys.join(', ')}`,
    { leak: true },
  );
  for (const f of [fA, fS]) {
    const res = await call(url, 'GET', `/api/core/files/${f}`, { token: alice });
    tally.check(S, `acme's file ${f} still there`, res.status === 200, `${res.status}`, { leak: true });
  }
  const coll = await call(url, 'GET', `/api/core/collections/${cA}`, { token: alice });
  tally.check(
    S,
    "acme's collection unchanged",
    coll.status === 200 && coll.json?.name === mark && coll.json?.filesCount === 2,
    `${coll.status}: ${coll.text.slice(0, 200)}`,
    { leak: true },
  );
  const rule = await call(url, 'GET', '/v1/rules/node_embedding', { token: alice });
  tally.check(
    S,
    "acme's rule unchanged",
    rule.status === 200 && rule.text.includes(acmeMime),
    `${rule.status}: ${rule.text.slice(0, 200)}`,
    { leak: true },
  );

  // The provider every namespace uses: acme's item there is not globex's to read.
  const sharedRead = await call(url, 'GET', `/api/core/providers/${shared}/items/content?key=acme-area%2Fa.txt`, { token: eve });
  tally.check(
    S,
    "acme's item on the provider every namespace uses is not readable by globex",
    !(sharedRead.status === 200 && sharedRead.text.includes(sharedMark)),
    `${sharedRead.status}: ${sharedRead.text.slice(0, 200)}`,
    { leak: true },
  );
  return {};
}

module.exports = { tenancy, grantOf, signed };
