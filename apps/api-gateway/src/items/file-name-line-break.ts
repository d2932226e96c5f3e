import type { Readable } from 'node:stream';

/** busboy's limit on a part's header block: beyond it the block is cut, and so is this watch. */
const MAX_HEADER_BLOCK = 80 * 1024;

/**
 * `filename="...` whose quoted value is broken by a line break that is not a header folding
 * (CRLF followed by a space or tab, which busboy unfolds into the value).
 */
const BROKEN_FILE_NAME = /\bfilename\s*=\s*"(?:[^"\\\r\n]|\\[^\r\n])*(?:\r\n(?![ \t])|\r(?!\n)|\n)/i;
const FILE_NAME_PARAM = /\bfilename\*?\s*=/i;

export interface FileNameWatch {
  /** True once the header block of the first file part held a line break inside its quoted file name. */
  readonly lineBreakInFileName: boolean;
  stop(): void;
}

/** The boundary parameter of a multipart Content-Type, quoted or not. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Watches a multipart body on its way to the parser for the header block of its first file part.
 *
 * A raw CR LF inside `filename="..."` ends the header line for the parser (busboy): it takes the
 * name up to the line break and drops the rest of the block, so `evil\r\nname.txt` would be stored
 * as `evil`, silently. The parser does not expose the raw header, so this reads the same bytes
 * (a second 'data' listener: the parser's pipe keeps the flow control) until that block has
 * passed, then lets go. It must be attached in the same tick as the parser's pipe, before any
 * byte flows.
 */
export function watchFileNameLineBreak(raw: Readable, contentType: string | undefined): FileNameWatch {
  const boundary = multipartBoundary(contentType);
  const state = { lineBreakInFileName: false, done: !boundary };
  if (!boundary) return { lineBreakInFileName: false, stop: () => undefined };
  const delimiter = `--${boundary}`;
  let pending = '';

  const stop = (): void => {
    state.done = true;
    pending = '';
    raw.off('data', onData);
  };

  /** Looks at every complete header block in `pending`; false when more bytes are needed. */
  const scan = (): void => {
    for (;;) {
      const at = pending.indexOf(delimiter);
      if (at === -1) {
        // Keep what could be the start of a delimiter split across chunks.
        pending = pending.slice(-delimiter.length);
        return;
      }
      const blockStart = at + delimiter.length;
      const end = pending.indexOf('\r\n\r\n', blockStart);
      if (end === -1) {
        pending = pending.slice(at);
        if (pending.length > MAX_HEADER_BLOCK + delimiter.length) stop();
        return;
      }
      const block = pending.slice(blockStart, end + 2);
      pending = pending.slice(end + 4);
      if (FILE_NAME_PARAM.test(block)) {
        state.lineBreakInFileName = BROKEN_FILE_NAME.test(block);
        stop();
        return;
      }
    }
  };

  function onData(chunk: Buffer | string): void {
    if (state.done) return;
    // latin1 keeps one character per byte, so that byte patterns match whatever the encoding.
    pending += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    scan();
  }

  raw.on('data', onData);
  return {
    get lineBreakInFileName() {
      return state.lineBreakInFileName;
    },
    stop,
  };
}
