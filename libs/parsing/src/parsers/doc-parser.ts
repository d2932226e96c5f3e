import * as CFB from 'cfb';
import WordExtractor from 'word-extractor';
import { asParseError, corrupt, encrypted, tooManyNodes } from '../errors';
import type { Position } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { node } from '../support/nodes';

/**
 * Legacy Word (.doc, Word 97-2003 binary) through word-extractor: body text as paragraphs, then text
 * boxes, footnotes and endnotes. The binary format's styles are not read, so there are no headings,
 * lists or tables (a known limitation).
 */
export class DocParser implements Parser {
  readonly family = 'doc' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const stream = wordStream(ctx.bytes);
    const texts = stream.readUInt16LE(0) === WORD6 ? [word6Text(stream)] : await word97Texts(ctx.bytes);
    ctx.checkpoint();
    const root = node('document');
    // PARAGRAPH positions number the paragraphs of the body, then go on through the text boxes,
    // footnotes and endnotes (the libs/parsing README has the exact rule).
    let index = 0;
    for (const text of texts) {
      for (const para of text.split(PARAGRAPH_MARK)) {
        const t = para
          .replace(CONTROL, '')
          .replace(/[ \t]+/g, ' ')
          .trim();
        if (t) root.children.push(node('paragraph', t, [], [paragraphPosition(index, para)]));
        index++;
      }
    }
    if (root.children.length > ctx.limits.maxNodes) throw tooManyNodes(ctx.limits.maxNodes);
    return { root, metadata: {}, warnings: [] };
  }
}

const WORD6 = 0xa5dc;
/** Paragraph marks as word-extractor returns them ("\n"); a CR LF pair counts once. */
const PARAGRAPH_MARK = /\r?\n|\r/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/** The whole paragraph without its leading and trailing white space and control characters. */
function paragraphPosition(index: number, para: string): Position {
  const visible = (c: string) => !/[\s\u0000-\u001f]/.test(c);
  let start = 0;
  let stop = para.length;
  while (start < stop && !visible(para[start])) start++;
  while (stop > start && !visible(para[stop - 1])) stop--;
  return { type: 'PARAGRAPH', paragraph_index: index, column_index_start: start, column_index_stop: stop };
}

/** Body, text boxes, footnotes and endnotes of a Word 97-2003 document. */
async function word97Texts(bytes: Buffer): Promise<string[]> {
  try {
    const doc = await new WordExtractor().extract(bytes);
    return [doc.getBody(), doc.getTextboxes({ includeHeadersAndFooters: false }), doc.getFootnotes(), doc.getEndnotes()];
  } catch (e) {
    throw asParseError(e, 'Word document');
  }
}

/** Reads the File Information Block: refuses encrypted documents and unknown signatures with a clear message. */
function wordStream(bytes: Buffer): Buffer {
  let stream: Buffer | undefined;
  try {
    const cfb = CFB.read(bytes, { type: 'buffer' });
    const entry = CFB.find(cfb, 'WordDocument');
    stream = entry?.content ? Buffer.from(entry.content as Uint8Array) : undefined;
  } catch {
    throw corrupt('the Word document container cannot be read.');
  }
  if (!stream || stream.length < 12) throw corrupt('the Word document has no readable text stream.');
  const ident = stream.readUInt16LE(0);
  const flags = stream.readUInt16LE(0x0a);
  if (flags & 0x0100) throw encrypted('Word document');
  if (ident !== 0xa5ec && ident !== WORD6) throw corrupt('the Word document stream has an unknown signature.');
  return stream;
}

/**
 * Word 6.0/95 keeps the text of a document saved in full as one run of single-byte (Windows-1252)
 * characters between fcMin and fcMac; word-extractor reads only Word 97 and later.
 */
function word6Text(stream: Buffer): string {
  const fcMin = stream.readUInt32LE(0x18);
  const fcMac = stream.readUInt32LE(0x1c);
  if (fcMin >= fcMac || fcMac > stream.length) throw corrupt('the Word 6.0/95 document has no readable text.');
  return new TextDecoder('windows-1252').decode(stream.subarray(fcMin, fcMac)).replace(/\r/g, '\n').replace(/\x07/g, '\t');
}
