import { Node as JsonNode, parseTree } from 'jsonc-parser';
import { asParseError, corrupt, limitExceeded, tooManyNodes } from '../errors';
import type { DocumentNode, Position } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { decodeText } from '../support/decode';
import { LineIndex, heading, node } from '../support/nodes';

/**
 * JSON: the structure is kept. Objects become sections headed by their key, scalar properties
 * paragraphs ("key: value"), arrays of flat records tables, other arrays lists. Strictness comes
 * from JSON.parse; positions come from a position-aware parse of the same text.
 */
export class JsonParser implements Parser {
  readonly family = 'json' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const text = decodeText(ctx.bytes);
    try {
      JSON.parse(text);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      const at = /position (\d+)/.exec(detail);
      const atEnd = at ? Number(at[1]) >= text.trimEnd().length : false;
      if (atEnd || /end of (json )?input|unterminated|unexpected end/i.test(detail)) {
        throw corrupt(`the JSON ends before its structure is closed (${detail}).`);
      }
      throw corrupt(`the JSON is not valid (${detail}).`);
    }
    ctx.checkpoint();
    let tree: JsonNode | undefined;
    try {
      tree = parseTree(text, [], { allowTrailingComma: false, disallowComments: true });
    } catch (e) {
      throw asParseError(e, 'JSON document');
    }
    const builder = new JsonTreeBuilder(new LineIndex(text), ctx);
    const root = node('document');
    if (tree) root.children.push(...builder.value(tree, 1));
    return { root, metadata: {}, warnings: [] };
  }
}

class JsonTreeBuilder {
  private count = 0;

  constructor(
    private readonly lines: LineIndex,
    private readonly ctx: ParseContext,
  ) {}

  /** Nodes for a JSON value at a given depth (1 = top level). */
  value(v: JsonNode, depth: number): DocumentNode[] {
    if (depth > this.ctx.limits.maxDepth) {
      throw limitExceeded(`The JSON is nested more than ${this.ctx.limits.maxDepth} levels deep, which is over the limit.`);
    }
    if (++this.count > this.ctx.limits.maxNodes) throw tooManyNodes(this.ctx.limits.maxNodes);
    if (this.count % 10000 === 0) this.ctx.checkpoint();
    switch (v.type) {
      case 'object':
        return (v.children ?? []).map((p) => this.property(p, depth));
      case 'array':
        return [this.array(v, depth)];
      default:
        return [node('paragraph', scalar(v), [], this.pos(v))];
    }
  }

  private property(p: JsonNode, depth: number): DocumentNode {
    const [key, val] = p.children ?? [];
    const name = String(key?.value ?? '');
    if (!val || (val.type !== 'object' && val.type !== 'array')) {
      return node('paragraph', `${name}: ${val ? scalar(val) : ''}`, [], this.pos(p), { name });
    }
    const section = node('section', '', [heading(name, Math.min(depth, 6), this.pos(key))], [], { name });
    section.children.push(...this.value(val, depth + 1));
    return section;
  }

  private array(a: JsonNode, depth: number): DocumentNode {
    const items = a.children ?? [];
    const records =
      items.length > 0 && items.every((i) => i.type === 'object' && (i.children ?? []).every((p) => isScalar(p.children?.[1])));
    if (records) return this.table(items);
    const list = node('list', '', [], this.pos(a), { ordered: true });
    for (const item of items) {
      if (isScalar(item)) list.children.push(node('list_item', scalar(item), [], this.pos(item)));
      else list.children.push(node('list_item', '', this.value(item, depth + 1), this.pos(item)));
    }
    return list;
  }

  private table(items: JsonNode[]): DocumentNode {
    // A column's header cell is placed at the key where it is first written.
    const firstKey = new Map<string, JsonNode>();
    for (const item of items) {
      for (const p of item.children ?? []) {
        const key = p.children?.[0];
        const k = String(key?.value ?? '');
        if (key && !firstKey.has(k)) firstKey.set(k, key);
      }
    }
    const columns = [...firstKey.keys()];
    const header = node(
      'row',
      '',
      columns.map((c) => node('cell', c, [], this.pos(firstKey.get(c)), { header: true })),
    );
    const rows = items.map((item) => {
      this.count += columns.length + 1;
      const byKey = new Map((item.children ?? []).map((p) => [String(p.children?.[0]?.value ?? ''), p] as const));
      return node(
        'row',
        '',
        columns.map((c) => {
          const p = byKey.get(c);
          return node('cell', p?.children?.[1] ? scalar(p.children[1]) : '', [], p?.children?.[1] ? this.pos(p.children[1]) : []);
        }),
        this.pos(item).slice(0, 1),
      );
    });
    if (this.count > this.ctx.limits.maxNodes) throw tooManyNodes(this.ctx.limits.maxNodes);
    return node('table', '', [header, ...rows]);
  }

  private pos(n: JsonNode | undefined): Position[] {
    if (!n) return [];
    const all = this.lines.positions(n.offset, n.offset + n.length);
    // A multi-line value is located by its first and last line; the lines between add nothing.
    return all.length > 2 ? [all[0], all[all.length - 1]] : all;
  }
}

function isScalar(n: JsonNode | undefined): boolean {
  return !!n && n.type !== 'object' && n.type !== 'array';
}

function scalar(n: JsonNode): string {
  return n.type === 'null' ? 'null' : String(n.value);
}
