import type { IncomingMessage } from 'node:http';
import { verifySigV4 } from './sigv4';

// The presigned GET example from the AWS Signature Version 4 documentation for S3.
const ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const QUERY =
  'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
  '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host';
const SIGNATURE = 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404';

function requestOf(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return { method: 'GET', url, headers: { host: 'examplebucket.s3.amazonaws.com', ...headers } } as unknown as IncomingMessage;
}

const options = (now: string) => ({
  secretFor: (k: string) => (k === ACCESS_KEY ? SECRET : undefined),
  region: 'us-east-1',
  now: new Date(now),
});

describe('verifySigV4', () => {
  it('accepts the documented presigned URL while it is valid', () => {
    expect(verifySigV4(requestOf(`/test.txt?${QUERY}&X-Amz-Signature=${SIGNATURE}`), options('2013-05-24T10:00:00Z'))).toEqual({
      ok: true,
    });
  });

  it('refuses it once expired', () => {
    expect(verifySigV4(requestOf(`/test.txt?${QUERY}&X-Amz-Signature=${SIGNATURE}`), options('2013-05-25T00:00:01Z'))).toMatchObject({
      ok: false,
      code: 'AccessDenied',
    });
  });

  it('refuses another key, another host, another signature or another region', () => {
    const now = '2013-05-24T10:00:00Z';
    expect(verifySigV4(requestOf(`/other.txt?${QUERY}&X-Amz-Signature=${SIGNATURE}`), options(now))).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(verifySigV4(requestOf(`/test.txt?${QUERY}&X-Amz-Signature=${SIGNATURE}`, { host: 'evil.example' }), options(now))).toMatchObject(
      { code: 'SignatureDoesNotMatch' },
    );
    expect(verifySigV4(requestOf(`/test.txt?${QUERY}&X-Amz-Signature=${'0'.repeat(64)}`), options(now))).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(
      verifySigV4(requestOf(`/test.txt?${QUERY}&X-Amz-Signature=${SIGNATURE}`), { ...options(now), region: 'eu-west-1' }),
    ).toMatchObject({ ok: false });
  });

  it('refuses an unsigned request', () => {
    expect(verifySigV4(requestOf('/test.txt'), options('2013-05-24T10:00:00Z'))).toMatchObject({
      ok: false,
      status: 403,
      code: 'AccessDenied',
    });
  });
});
