import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Verifies AWS Signature Version 4 on an incoming S3 request, in the Authorization header or in
 * the query (presigned URLs), the way S3 does, except that the payload hash the client declares
 * is trusted rather than recomputed. The npm S3 server used when no Docker engine exists accepts
 * any v4 signature; this check in front of it makes a wrong or tampered signature fail as on S3.
 */
export type SigV4Result = { ok: true } | { ok: false; status: number; code: string; message: string };

const ALGORITHM = 'AWS4-HMAC-SHA256';

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function parseQuery(raw: string): [string, string][] {
  if (!raw) return [];
  return raw.split('&').map((pair) => {
    const i = pair.indexOf('=');
    return i < 0 ? [safeDecode(pair), ''] : [safeDecode(pair.slice(0, i)), safeDecode(pair.slice(i + 1))];
  });
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
}

function denied(code: string, message: string): SigV4Result {
  return { ok: false, status: 403, code, message };
}

export interface SigV4Options {
  secretFor: (accessKey: string) => string | undefined;
  /** The server's region: a signature scoped to another region is refused, as S3 does. */
  region: string;
  now?: Date;
}

export function verifySigV4(req: IncomingMessage, { secretFor, region: serverRegion, now = new Date() }: SigV4Options): SigV4Result {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = parseQuery(q < 0 ? '' : url.slice(q + 1));
  const queryMap = new Map(query);
  const authorization = header(req, 'authorization');
  const presigned = queryMap.has('X-Amz-Signature');

  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let amzDate: string;
  let payloadHash: string;
  if (presigned) {
    if (queryMap.get('X-Amz-Algorithm') !== ALGORITHM)
      return denied('AuthorizationQueryParametersError', 'X-Amz-Algorithm must be AWS4-HMAC-SHA256');
    credential = queryMap.get('X-Amz-Credential') ?? '';
    signedHeaders = queryMap.get('X-Amz-SignedHeaders') ?? '';
    signature = queryMap.get('X-Amz-Signature') ?? '';
    amzDate = queryMap.get('X-Amz-Date') ?? '';
    payloadHash = queryMap.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(queryMap.get('X-Amz-Expires'));
    const signedAt = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (!Number.isFinite(expires) || !Number.isFinite(signedAt))
      return denied('AuthorizationQueryParametersError', 'X-Amz-Date and X-Amz-Expires are required');
    if (now.getTime() > signedAt + expires * 1000) return denied('AccessDenied', 'Request has expired');
  } else if (authorization.startsWith(`${ALGORITHM} `)) {
    const parts = new Map(
      authorization
        .slice(ALGORITHM.length + 1)
        .split(',')
        .map((p) => p.trim().split('=') as [string, string]),
    );
    credential = parts.get('Credential') ?? '';
    signedHeaders = parts.get('SignedHeaders') ?? '';
    signature = parts.get('Signature') ?? '';
    amzDate = header(req, 'x-amz-date');
    payloadHash = header(req, 'x-amz-content-sha256');
    if (!payloadHash) return denied('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  } else {
    return denied('AccessDenied', 'Access Denied');
  }

  const [accessKey, date, region, service, terminator] = credential.split('/');
  const secret = secretFor(accessKey);
  if (!secret) return denied('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (!date || !region || service !== 's3' || terminator !== 'aws4_request' || !amzDate.startsWith(date)) {
    return denied('AuthorizationHeaderMalformed', 'The credential scope is malformed');
  }
  if (region !== serverRegion)
    return denied('AuthorizationHeaderMalformed', `The region '${region}' is wrong; expecting '${serverRegion}'`);

  const canonicalUri = rawPath
    .split('/')
    .map((segment) => rfc3986(safeDecode(segment)))
    .join('/');
  const canonicalQuery = query
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headerNames = signedHeaders.split(';').filter(Boolean);
  if (!headerNames.includes('host')) return denied('AccessDenied', 'The host header must be signed');
  const canonicalHeaders = headerNames.map((name) => `${name}:${header(req, name)}\n`).join('');
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, createHash('sha256').update(canonicalRequest, 'utf8').digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = hmac(signingKey, stringToSign).toString('hex');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected, 'utf8'))) {
    return denied('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
  return { ok: true };
}
