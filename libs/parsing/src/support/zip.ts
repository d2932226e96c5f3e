import { unzipSync } from 'fflate';
import { limitExceeded, truncated } from '../errors';

/**
 * Reads the named entries of a ZIP container (docx, xlsx, ods). Declared sizes are checked before
 * inflating so that a ZIP bomb is refused instead of exhausting memory.
 */
export function readZipEntries(bytes: Buffer, wanted: (name: string) => boolean, maxBytes: number, what: string): Map<string, Buffer> {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (!wanted(f.name)) return false;
        total += f.originalSize;
        if (total > maxBytes)
          throw limitExceeded(`The ${what} expands to more than ${Math.round(maxBytes / 1048576)} MiB, which is over the limit.`);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof Error && e.name === 'ParseError') throw e;
    throw truncated(`the ${what} is not a complete ZIP package (${e instanceof Error ? e.message : String(e)}).`);
  }
  return new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v.buffer, v.byteOffset, v.byteLength)]));
}
