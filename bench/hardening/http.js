'use strict';
/*
 * A raw HTTP/1.1 client over a TCP socket: it sends exactly the bytes it is given (NUL, CR/LF,
 * malformed request lines, truncated bodies), which fetch and http.request refuse to, and every
 * request has a deadline. Answers one of:
 *   { outcome: 'response', status, headers, body, ms }
 *   { outcome: 'hang', ms }      nothing complete within the deadline
 *   { outcome: 'closed', error } the connection ended (or failed) before a complete response
 */
const { connect } = require('node:net');

const HEADER_END = Buffer.from('\r\n\r\n');

/** Parses what arrived so far: the response when it is complete, else null. */
function parseResponse(buf, { method = 'GET', ended = false } = {}) {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd === -1) return null;
  const head = buf.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/\d\.\d (\d{3})/.exec(head[0]);
  if (!statusLine) throw new Error(`not an HTTP response: ${JSON.stringify(head[0].slice(0, 100))}`);
  const status = Number(statusLine[1]);
  const headers = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  // An interim 100 Continue precedes the real response.
  if (status === 100) return parseResponse(buf.subarray(headerEnd + 4), { method, ended });
  let rest = buf.subarray(headerEnd + 4);
  if (method === 'HEAD' || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const parts = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd === -1) return null;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (size === 0) return { status, headers, body: Buffer.concat(parts) };
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  }
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : null;
  }
  return ended ? { status, headers, body: rest } : null;
}

/** The bytes of a request: `Connection: close` and Content-Length are added unless given. */
function buildRequest({ method = 'GET', path = '/', headers = {}, body, host = '127.0.0.1' }) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'utf8');
  const lines = [`${method} ${path} HTTP/1.1`];
  if (!('host' in lower)) lines.push(`Host: ${host}`);
  if (!('connection' in lower)) lines.push('Connection: close');
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== null) lines.push(`${k}: ${v}`);
  if (payload !== undefined && !('content-length' in lower) && !('transfer-encoding' in lower))
    lines.push(`Content-Length: ${payload.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return payload === undefined ? head : Buffer.concat([head, payload]);
}

/** Sends a request (or `raw` bytes) to 127.0.0.1:port; `timeoutMs` bounds the whole exchange. */
function rawRequest(port, { method = 'GET', path = '/', headers = {}, body, raw, timeoutMs = 15_000 } = {}) {
  const bytes =
    raw !== undefined ? (Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'latin1')) : buildRequest({ method, path, headers, body });
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks = [];
    let settled = false;
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...result, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish({ outcome: 'hang' }), timeoutMs);
    const tryParse = (ended) => {
      try {
        const res = parseResponse(Buffer.concat(chunks), { method, ended });
        if (res) finish({ outcome: 'response', ...res });
        else if (ended) finish({ outcome: 'closed', error: chunks.length ? 'incomplete response' : 'no response' });
      } catch (err) {
        finish({ outcome: 'closed', error: err.message });
      }
    };
    // The bytes go out in slices, and stop once an answer has begun: a server may answer early
    // (413 to an oversized body) and close, which must not turn into a write error that hides the
    // answer. After the first slice the client waits a moment for such an early answer, as a
    // client sending `Expect: 100-continue` would.
    const SLICE = 64 * 1024;
    const send = (offset) => {
      while (offset < bytes.length && !settled && chunks.length === 0) {
        const slice = bytes.subarray(offset, offset + SLICE);
        offset += slice.length;
        if (!socket.write(slice)) {
          socket.once('drain', () => send(offset));
          return;
        }
        if (offset === SLICE && offset < bytes.length) {
          setTimeout(() => send(offset), 200);
          return;
        }
      }
    };
    socket.on('connect', () => send(0));
    socket.on('data', (c) => {
      chunks.push(c);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (err) => {
      // A reset after a complete answer is still that answer.
      if (chunks.length) tryParse(true);
      finish({ outcome: 'closed', error: err.code || err.message });
    });
  });
}

/** The JSON body of a response, or undefined. */
function jsonOf(res) {
  if (res.outcome !== 'response' || !res.body?.length) return undefined;
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

module.exports = { rawRequest, buildRequest, parseResponse, jsonOf };
