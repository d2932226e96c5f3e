import { tooManyNodes } from '../errors';
import type { LinePosition } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { decodeText } from '../support/decode';
import { node } from '../support/nodes';

/** Plain text: paragraphs are runs of non-blank lines; every line keeps its LINE position. */
export class TextParser implements Parser {
  readonly family = 'text' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const text = decodeText(ctx.bytes);
    const lines = text.split(/\r\n|\r|\n/);
    const root = node('document');
    let buffer: { text: string; pos: LinePosition }[] = [];
    const flush = () => {
      if (buffer.length === 0) return;
      root.children.push(
        node(
          'paragraph',
          buffer.map((l) => l.text.trim()).join('\n'),
          [],
          buffer.map((l) => l.pos),
        ),
      );
      buffer = [];
    };
    lines.forEach((line, i) => {
      if (i % 5000 === 0) ctx.checkpoint();
      if (line.trim() === '' || line.includes('\f')) {
        flush();
        if (line.trim() === '') return;
      }
      const start = line.length - line.trimStart().length;
      buffer.push({
        text: line.replace(/\f/g, ''),
        pos: { type: 'LINE', line_number: i + 1, column_index_start: start, column_index_stop: line.trimEnd().length },
      });
    });
    flush();
    if (root.children.length > ctx.limits.maxNodes) throw tooManyNodes(ctx.limits.maxNodes);
    return { root, metadata: {}, warnings: [] };
  }
}
