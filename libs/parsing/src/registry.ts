import { readFile, stat } from 'node:fs/promises';
import { detectFormat } from './detect';
import { ParseError, asParseError, limitExceeded } from './errors';
import { ParseLimits, resolveLimits } from './limits';
import type { FormatFamily, ParsedDocument } from './model';
import type { ParseContext, ParseInput, Parser } from './parser';
import { CsvParser } from './parsers/csv-parser';
import { DocParser } from './parsers/doc-parser';
import { DocxParser } from './parsers/docx-parser';
import { HtmlParser } from './parsers/html-parser';
import { ImageParser } from './parsers/image-parser';
import { JsonParser } from './parsers/json-parser';
import { PdfParser } from './parsers/pdf/pdf-parser';
import { SpreadsheetParser } from './parsers/spreadsheet-parser';
import { TextParser } from './parsers/text-parser';
import { XmlParser } from './parsers/xml-parser';

const FAMILY_NAMES: Record<FormatFamily, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  doc: 'Word document',
  spreadsheet: 'spreadsheet',
  csv: 'CSV file',
  html: 'HTML page',
  xml: 'XML document',
  json: 'JSON document',
  text: 'text file',
  image: 'image',
};

export function defaultParsers(): Parser[] {
  return [
    new PdfParser(),
    new DocxParser(),
    new DocParser(),
    new SpreadsheetParser(),
    new CsvParser(),
    new HtmlParser(),
    new XmlParser(),
    new JsonParser(),
    new TextParser(),
    new ImageParser(),
  ];
}

/**
 * Chooses the parser from the type detected in the content and runs it in the calling thread. The
 * wall-clock limit is checked cooperatively here; ParsePool adds hard limits (time, memory) by
 * running this in worker threads, which is how services should call it.
 */
export class ParserRegistry {
  private readonly parsers = new Map<FormatFamily, Parser>();

  constructor(parsers: Parser[] = defaultParsers()) {
    for (const p of parsers) this.parsers.set(p.family, p);
  }

  async parse(input: ParseInput, overrides?: Partial<ParseLimits>): Promise<ParsedDocument> {
    const limits = resolveLimits(overrides);
    const deadline = Date.now() + limits.timeoutMs;
    const bytes = await readInput(input, limits);
    const format = await detectFormat(bytes, input.fileName, input.mediaType);
    const parser = this.parsers.get(format.family);
    if (!parser) throw new ParseError('UNSUPPORTED_FORMAT', `No parser is available for ${format.extension} files.`);
    const ctx: ParseContext = {
      bytes,
      fileName: input.fileName,
      format,
      limits,
      checkpoint: () => {
        if (Date.now() > deadline) throw timeoutError(limits.timeoutMs);
      },
    };
    try {
      const result = await parser.parse(ctx);
      return { format, metadata: result.metadata, root: result.root, warnings: result.warnings };
    } catch (e) {
      throw asParseError(e, FAMILY_NAMES[format.family]);
    }
  }
}

export function timeoutError(ms: number): ParseError {
  return new ParseError('TIMEOUT', `Reading the document took longer than ${Math.round(ms / 1000)} s and was stopped.`);
}

async function readInput(input: ParseInput, limits: ParseLimits): Promise<Buffer> {
  const tooBig = (n: number) =>
    limitExceeded(`The file is ${(n / 1048576).toFixed(1)} MiB, more than the limit of ${(limits.maxBytes / 1048576).toFixed(0)} MiB.`);
  if (Buffer.isBuffer(input.source)) {
    if (input.source.length > limits.maxBytes) throw tooBig(input.source.length);
    return input.source;
  }
  const { size } = await stat(input.source.path);
  if (size > limits.maxBytes) throw tooBig(size);
  return readFile(input.source.path);
}
