import * as chardet from 'chardet';

/**
 * Decodes text bytes: BOM first, then valid UTF-8, then the declared charset (HTML/XML), then a
 * statistical guess. Returns the text without BOM.
 */
export function decodeText(bytes: Buffer, declared?: string): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return utf8(bytes.subarray(3));
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeAs('utf-16le', bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeAs('utf-16be', bytes.subarray(2));
  const utf16 = sniffUtf16(bytes);
  if (utf16) return decodeAs(utf16, bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // not UTF-8: fall through to the declared or guessed charset
  }
  for (const enc of [declared, chardet.detect(bytes.subarray(0, 64 * 1024)) ?? undefined, 'windows-1252']) {
    if (!enc) continue;
    try {
      return decodeAs(enc, bytes);
    } catch {
      // unknown label: try the next candidate
    }
  }
  return utf8(bytes);
}

/** Looks for a charset declaration in the first bytes of HTML/XML. */
export function declaredCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 2048).toString('latin1');
  const m = /<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(head) ?? /<meta[^>]*charset=["']?([\w.:-]+)/i.exec(head);
  return m?.[1];
}

/** True when the bytes look like text rather than binary data. */
export function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  if (sniffUtf16(bytes) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control / sample.length < 0.02;
}

function sniffUtf16(bytes: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length, 512) & ~1;
  if (n < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros / pairs > 0.4 && evenZeros / pairs < 0.05) return 'utf-16le';
  if (evenZeros / pairs > 0.4 && oddZeros / pairs < 0.05) return 'utf-16be';
  return undefined;
}

function decodeAs(encoding: string, bytes: Buffer): string {
  return new TextDecoder(encoding.toLowerCase()).decode(bytes);
}

function utf8(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes);
}
