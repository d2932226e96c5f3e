import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { DomainError, ErrorCode } from '@docintel/contracts';

export function tooLarge(maxBytes: number): DomainError {
  return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than the upload limit of ${maxBytes} bytes (MAX_UPLOAD_BYTES)`);
}

/**
 * Passes a multipart file stream through, failing it (instead of ending it cleanly) once it is
 * larger than the limit. The multipart parser only truncates an oversized file and ends the
 * stream normally; a truncated file must never be stored, so the end is turned into an error.
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
  source.once('limit', () => guard.destroy(tooLarge(maxBytes)));
  source.on('error', (err) => guard.destroy(err));
  // A stream the parser closes before its end (the client went away) must fail the upload, not end it.
  source.once('close', () => {
    if (!source.readableEnded)
      guard.destroy(new DomainError(ErrorCode.VALIDATION_FAILED, 'The upload broke off before the end of the file'));
  });
  source.pipe(guard);
  return guard;
}
