'use strict';
/*
 * (iii) Faults: uploads cut off halfway (multipart and presigned, over a raw socket), multipart
 * bodies without their closing boundary, clients that go away mid-download, kill -9 of the
 * indexing service while it parses, and a catastrophic regular expression in a rule while a file
 * whose text triggers it is indexed. What must hold afterwards: no partial file visible or left in
 * staging, no file descriptors leaking, every indexation ending SUCCESS or FAILED, and every
 * service answering.
 */
const { createHash, randomBytes } = require('node:crypto');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { connect } = require('node:net');
const { join } = require('node:path');
const { REPO_ROOT } = require('../lib/processes');
const { buildRequest, rawRequest } = require('./http');
const { call, must, poll, runCases, sleep, upload } = require('./runner');

const TERMINAL = ['SUCCESS', 'FAILED', 'ABORTED'];
const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');

/**
 * Sends `bytes` but only the first `sendBytes` of them, then cuts the connection (after reading the
 * first `readBytes` of the answer, when given). Resolves with what the client saw.
 */
function cutConnection(port, bytes, { sendBytes = bytes.length, readBytes, end = false, timeoutMs = 15_000 } = {}) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = 0;
    let done = false;
    const finish = (outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ outcome, received });
    };
    const timer = setTimeout(() => finish(readBytes !== undefined ? 'hang' : 'cut'), timeoutMs);
    socket.on('connect', () => {
      socket.write(bytes.subarray(0, sendBytes), () => {
        if (end) socket.end();
        else if (readBytes === undefined) setTimeout(() => finish('cut'), 50);
      });
    });
    socket.on('data', (c) => {
      received += c.length;
      if (readBytes !== undefined && received >= readBytes) finish('cut');
    });
    socket.on('error', () => finish('cut'));
    socket.on('close', () => finish(readBytes !== undefined && received < readBytes ? 'closed' : 'cut'));
  });
}

function multipart(filename, content, { close = true } = {}) {
  const head = Buffer.from(
    `--B\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return Buffer.concat([head, content, Buffer.from(close ? '\r\n--B--\r\n' : '\r\n')]);
}

async function faults(stack, tally, { log, secrets }) {
  const S = 'faults';
  const url = stack.url;
  const port = stack.gatewayPort;
  const token = await stack.token('faults', 'ops@faults.test');
  const auth = { authorization: `Bearer ${token}` };
  const providers = (await must(200, url, 'GET', '/api/core/providers', { token })).data;
  const providerId = providers.find((p) => p.name === 'Local storage').id.id;
  const itemsPath = `/api/core/providers/${providerId}/items`;
  const stagingDir = join(stack.dir, 'storage', 'shared', '.docintel-staging');
  const listKeys = async (dir) =>
    ((await call(url, 'GET', `${itemsPath}?key=${encodeURIComponent(dir)}&limit=1000`, { token })).json?.items ?? []).map((i) => i.key);

  // 1. Uploads cut off halfway: nothing may appear, nothing may stay in staging.
  const big = randomBytes(4 * 1024 * 1024);
  for (let i = 0; i < 5; i++) {
    const body = multipart(`cut-${i}.bin`, big);
    const bytes = buildRequest({
      method: 'POST',
      path: `${itemsPath}?key=faults%2Fcut%2F`,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=B' },
      body,
    });
    const res = await cutConnection(port, bytes, { sendBytes: Math.floor(bytes.length / 2) });
    tally.record(
      S,
      {
        label: 'multipart upload cut off halfway',
        method: 'POST',
        path: `${itemsPath}?key=faults/cut/`,
        body: `(${body.length} bytes, half sent)`,
      },
      res,
    );
  }
  const presignedKeys = [];
  for (let i = 0; i < 3; i++) {
    const key = `faults/cut/presigned-${i}.bin`;
    presignedKeys.push(key);
    const { url: target } = await must(200, url, 'POST', `${itemsPath}/upload-url`, { token, body: { key, size: big.length } });
    const bytes = buildRequest({
      method: 'PUT',
      path: new URL(target).pathname,
      headers: { 'content-type': 'application/octet-stream' },
      body: big,
    });
    const res = await cutConnection(port, bytes, { sendBytes: Math.floor(bytes.length / 2) });
    tally.record(
      S,
      {
        label: 'presigned PUT cut off halfway',
        method: 'PUT',
        path: '/api/storage/transfer/<grant>',
        body: `(${big.length} bytes, half sent)`,
      },
      res,
    );
  }
  // The same, but the client half-closes (FIN) instead of resetting.
  {
    const bytes = buildRequest({
      method: 'POST',
      path: `${itemsPath}?key=faults%2Fcut%2F`,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=B' },
      body: multipart('cut-fin.bin', big),
    });
    const res = await cutConnection(port, bytes, { sendBytes: Math.floor(bytes.length / 2), end: true });
    tally.record(S, { label: 'multipart upload half-closed halfway', method: 'POST', path: `${itemsPath}?key=faults/cut/` }, res);
  }

  // 2. Multipart bodies whose closing boundary never comes: a 4xx, not a hang or a 5xx.
  const truncated = [];
  for (let i = 0; i < 3; i++) {
    truncated.push({
      label: 'multipart without closing boundary',
      method: 'POST',
      path: `${itemsPath}?key=faults%2Ftrunc%2F`,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=B' },
      body: multipart(`trunc-${i}.txt`, Buffer.from('x'.repeat(1000 * (i + 1))), { close: false }),
    });
  }
  const chunkedNoBoundary = (name) => {
    const body = multipart(name, Buffer.from('chunked body'), { close: false });
    const head = `POST ${itemsPath}?key=faults%2Ftrunc%2F HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nContent-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  };
  truncated.push({ label: 'chunked multipart without closing boundary', raw: chunkedNoBoundary('trunc-chunked.txt') });
  truncated.push({
    label: 'multipart cut inside the part headers',
    method: 'POST',
    path: `${itemsPath}?key=faults%2Ftrunc%2F`,
    headers: { ...auth, 'content-type': 'multipart/form-data; boundary=B' },
    body: '--B\r\nContent-Disposition: form-data; name="file"; filen',
  });
  await runCases(
    tally,
    S,
    truncated.map((c) => ({
      ...c,
      check: (res) => (res.outcome === 'response' && res.status < 300 ? { fail: `accepted (${res.status})` } : {}),
    })),
    {
      port,
      concurrency: 2,
      secrets,
    },
  );

  await sleep(1500);
  const cutLeft = [...(await listKeys('faults/cut/')), ...(await listKeys('faults/trunc/'))];
  tally.check(S, 'no partial upload is listed', cutLeft.length === 0, `listed: ${cutLeft.join(', ')}`);
  const staging = await poll(
    async () => (existsSync(stagingDir) ? readdirSync(stagingDir, { recursive: true }).filter((f) => !f.endsWith('/')) : []),
    (files) => files.length === 0,
    10_000,
    500,
  );
  tally.check(S, 'no partial upload left in staging', staging.ready, `left in .docintel-staging: ${staging.value.slice(0, 5).join(', ')}`);

  // 3. Clients that go away mid-download: no descriptor leak, the next download whole.
  const payload = randomBytes(16 * 1024 * 1024);
  const up = await upload(url, token, providerId, 'faults/big.bin', payload);
  if (up.status !== 201) throw new Error(`set-up upload of faults/big.bin: ${up.status} ${up.text}`);
  const { url: dl } = await must(200, url, 'GET', `${itemsPath}/download-url?key=faults%2Fbig.bin`, { token });
  await sleep(500);
  const fdsBefore = { gateway: stack.fdCount('api-gateway'), storage: stack.fdCount('storage-service') };
  const downloads = [
    ...Array.from({ length: 10 }, () => ({
      label: 'content download abandoned',
      path: `${itemsPath}/content?key=faults%2Fbig.bin`,
      headers: auth,
    })),
    ...Array.from({ length: 5 }, () => ({ label: 'presigned download abandoned', path: new URL(dl).pathname, headers: {} })),
    ...Array.from({ length: 5 }, () => ({
      label: 'range download abandoned',
      path: `${itemsPath}/content?key=faults%2Fbig.bin`,
      headers: { ...auth, range: 'bytes=1000-' },
    })),
  ];
  for (const d of downloads) {
    const res = await cutConnection(port, buildRequest({ method: 'GET', ...d }), { readBytes: 256 * 1024 });
    tally.record(S, { ...d, method: 'GET' }, res);
  }
  const settled = await poll(
    async () => ({ gateway: stack.fdCount('api-gateway'), storage: stack.fdCount('storage-service') }),
    (fds) => fds.gateway !== null && fds.storage !== null && fds.gateway - fdsBefore.gateway <= 5 && fds.storage - fdsBefore.storage <= 5,
    10_000,
    500,
  );
  tally.check(
    S,
    'no file descriptors left open by abandoned downloads',
    settled.ready || fdsBefore.gateway === null,
    `open descriptors before/after: gateway ${fdsBefore.gateway}/${settled.value.gateway}, storage ${fdsBefore.storage}/${settled.value.storage}`,
  );
  const whole = await rawRequest(port, { path: `${itemsPath}/content?key=faults%2Fbig.bin`, headers: auth, timeoutMs: 30_000 });
  const same =
    whole.outcome === 'response' &&
    createHash('sha256').update(whole.body).digest('hex') === createHash('sha256').update(payload).digest('hex');
  tally.record(
    S,
    { label: 'download after the abandoned ones', method: 'GET', path: `${itemsPath}/content?key=faults/big.bin` },
    whole,
    same ? {} : { fail: 'the bytes differ from what was uploaded' },
  );

  // 4. kill -9 of indexing-service while it parses: the file still ends SUCCESS or FAILED.
  const tiff = readFileSync(join(CORPUS, 'images', 'docling_2206.01062.tiff'));
  const killed = [];
  for (let round = 0; round < 2; round++) {
    const key = `faults/kill-${round}.tiff`;
    const res = await upload(url, token, providerId, key, tiff);
    if (res.status !== 201) throw new Error(`set-up upload of ${key}: ${res.status}`);
    const file = await must(201, url, 'POST', '/api/core/files', { token, body: { providerId, key } });
    const fileId = file.id.id;
    const status = async () => (await call(url, 'GET', `/api/core/files/${fileId}`, { token })).json?.lastIndexationInfos?.status;
    const running = await poll(status, (s) => s === 'RUNNING' || TERMINAL.includes(s), 60_000, 100);
    if (running.value !== 'RUNNING') {
      tally.check(
        S,
        `kill -9 of indexing-service while it parses ${key}`,
        false,
        `the file was ${running.value} before it could be killed`,
      );
      continue;
    }
    const pid = stack.kill('indexing-service');
    killed.push(pid);
    log(`faults: killed indexing-service (pid ${pid}) while it parsed ${key}`);
    // Meanwhile the gateway keeps answering (on routes that do not need indexing).
    const probe = await rawRequest(port, { path: '/api/core/providers', headers: auth });
    tally.record(S, { label: 'gateway while indexing-service is down', method: 'GET', path: '/api/core/providers' }, probe);
    await stack.whenReady('indexing-service', 90_000).catch(() => {});
    const end = await poll(status, (s) => TERMINAL.includes(s), 120_000, 500);
    tally.check(
      S,
      `kill -9 of indexing-service while it parses ${key}: the file ends SUCCESS or FAILED`,
      ['SUCCESS', 'FAILED'].includes(end.value),
      `status ${end.value}`,
    );
    log(`faults: ${key} ended ${end.value}`);
  }

  // 5. A catastrophic regular expression in a rule, and text that would make it backtrack forever.
  const redos = await stack.token('redos', 'ops@redos.test');
  const rule = await call(url, 'PUT', '/v1/rules/node_embedding', {
    token: redos,
    body: { filter: { content_patterns: ['(a+)+$', '^(a|a)*$'] } },
  });
  tally.record(
    S,
    {
      label: 'rule with catastrophic content_patterns',
      method: 'PUT',
      path: '/v1/rules/node_embedding',
      body: '{"filter":{"content_patterns":["(a+)+$","^(a|a)*$"]}}',
    },
    {
      outcome: 'response',
      status: rule.status,
      body: Buffer.from(rule.text),
    },
  );
  log(`faults: a rule with catastrophic content_patterns answered ${rule.status}`);
  if (rule.status < 300) {
    // Short paragraphs: a node's text is cut to a length before it is matched, and a cut that
    // drops the final "!" would let the pattern match at once.
    const text = Array.from({ length: 20 }, (_, i) => `${'a'.repeat(40 + i)}!`).join('\n\n');
    const res = await upload(url, redos, providerId, 'faults/redos.txt', text);
    if (res.status !== 201) throw new Error(`set-up upload of faults/redos.txt: ${res.status}`);
    const fileId = (await must(201, url, 'POST', '/api/core/files', { token: redos, body: { providerId, key: 'faults/redos.txt' } })).id.id;
    const started = Date.now();
    const read = async () =>
      (await call(url, 'GET', `/api/core/files/${fileId}`, { token: redos, timeoutMs: 15_000 }).catch(() => null))?.json;
    const finished = (f) =>
      TERMINAL.includes(f?.lastIndexationInfos?.status) &&
      ['SUCCESS', 'SKIPPED', 'FAILED'].includes(f?.additionalInfos?.node_embedding?.status);
    // Meanwhile every service keeps answering: a regular expression that backtracks for ever
    // blocks the process that runs it.
    let processing = true;
    const probes = (async () => {
      while (processing) {
        await Promise.all(
          ['indexing-service', 'rules-engine'].map(async (name) => {
            const probe = await rawRequest(stack.port(name), { path: '/health/live' });
            tally.record(S, { label: `${name} while a catastrophic pattern is matched`, method: 'GET', path: '/health/live' }, probe);
          }),
        );
        await sleep(2000);
      }
    })();
    const done = await poll(read, finished, 60_000, 1000);
    processing = false;
    await probes;
    log(
      `faults: the file under that rule: ${done.value?.lastIndexationInfos?.status}, node_embedding ${done.value?.additionalInfos?.node_embedding?.status}`,
    );
    tally.check(
      S,
      'a file under a catastrophic content_patterns rule is processed within 60 s',
      done.ready,
      `after ${Math.round((Date.now() - started) / 1000)} s: indexation ${done.value?.lastIndexationInfos?.status}, node_embedding ${done.value?.additionalInfos?.node_embedding?.status}`,
    );
  }

  // Everything answers afterwards.
  for (const name of stack.names()) {
    const res = await rawRequest(stack.port(name), { path: '/health/ready', timeoutMs: 15_000 });
    tally.record(
      S,
      { label: `${name} ready after the faults`, method: 'GET', path: '/health/ready' },
      res,
      res.status === 200 ? {} : { fail: `${name} not ready (${res.status ?? res.outcome})` },
    );
  }
  return { killedIndexingPids: killed };
}

module.exports = { faults, cutConnection, multipart };
