import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { DomainError, ErrorCode } from '@docintel/contracts';

export function tooLarge(maxBytes: number): DomainError {
  return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than the upload limit of ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

/** The file part ended before its closing boundary: the body was cut short, or the client went away. */
export function brokeOff(): DomainError {
  return DomainError.invalid(
    [{ field: 'file', problem: 'ended before the multipart body was complete (no closing boundary): the upload broke off' }],
    'The upload broke off before the end of the file',
  );
}

/** Anything the parser reports on the file stream is a malformed body: the client's doing, so 400. */
function asClientError(err: Error): DomainError {
  if (err instanceof DomainError) return err;
  return DomainError.invalid(
    [{ field: 'file', problem: `is not readable as multipart/form-data (${err.message})` }],
    `The multipart body is malformed: ${err.message}`,
  );
}

/**
 * Passes a multipart file stream through, failing it (instead of ending it cleanly) once it is
 * larger than the limit, when the parser reports the body malformed or cut short, or when the
 * stream is closed before its end. The multipart parser only truncates an oversized file and ends
 * the stream normally, and it closes (rather than fails) the file of a body that ends without its
 * closing boundary; a truncated file must never be stored, so each of these becomes an error.
 *
 * Call it as soon as the part arrives, before any await: the parser's events are not repeated
 * for a listener that comes late, so a stream that was already closed is checked here too.
 */
export function guardSize(source: Readable & { truncated?: boolean }, maxBytes: number): Transform {
  let seen = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
    flush(done: TransformCallback) {
      done(source.truncated ? tooLarge(maxBytes) : null);
    },
  });
  // Until a consumer attaches its own, a failure must not go unhandled.
  guard.on('error', () => undefined);
  if (source.destroyed && !source.readableEnded) {
    guard.destroy(source.errored ? asClientError(source.errored) : brokeOff());
    return guard;
  }
  source.once('limit', () => guard.destroy(tooLarge(maxBytes)));
  source.on('error', (err) => guard.destroy(asClientError(err)));
  // A stream the parser closes before its end (the client went away, the body was cut) must fail the upload, not end it.
  source.once('close', () => {
    if (!source.readableEnded) guard.destroy(brokeOff());
  });
  source.pipe(guard);
  return guard;
}
