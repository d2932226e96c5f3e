import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { nodeMatches } from '@docintel/rules';
import type { RuleFilter } from '@docintel/contracts';

/**
 * Node types embedded when the rule names no node_types: the units a reader would quote. A table
 * row is embedded as one text (its cells joined with " | "), its cells are not embedded one by one.
 */
export const DEFAULT_EMBEDDED_TYPES = ['heading', 'paragraph', 'list_item', 'formula', 'code', 'figure', 'row'] as const;

export interface EmbeddingCandidate {
  id: string;
  type: string;
  text: string;
}

/**
 * The nodes of a batch to embed under a rule, with the text each is embedded by: a node's own text,
 * or for a container (a row, or a table or section when the rule names those types) the text of
 * the nodes under it in reading order. Nodes without text are left out, and the rule's node-level
 * keys (node_types, classifications, content_patterns) pick among the rest with nodeMatches.
 */
@Injectable()
export class EmbeddingTexts {
  constructor(private readonly ds: DataSource) {}

  async select(fileId: string, generation: number, nodeIds: string[], filter: RuleFilter, maxChars: number): Promise<EmbeddingCandidate[]> {
    const types: readonly string[] = filter.node_types?.length ? filter.node_types : DEFAULT_EMBEDDED_TYPES;
    const rows: Array<{ id: string; type: string; text: string }> = await this.ds.query(
      `SELECT id, type, text FROM nodes WHERE file_id = $1 AND generation = $2 AND id = ANY($3::uuid[]) AND type = ANY($4::text[])`,
      [fileId, generation, nodeIds, types],
    );
    const order = new Map(nodeIds.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const containers = rows.filter((r) => !r.text.trim()).map((r) => r.id);
    const under = containers.length ? await this.textUnder(fileId, generation, containers, maxChars) : new Map<string, string>();
    return rows
      .map((r) => ({ id: r.id, type: r.type, text: (r.text.trim() ? r.text : (under.get(r.id) ?? '')).slice(0, maxChars) }))
      .filter((c) => c.text.trim().length > 0 && nodeMatches(filter, c));
  }

  /** The text below each container, leaves in reading order; cells of a row joined with " | ". */
  private async textUnder(fileId: string, generation: number, ids: string[], maxChars: number): Promise<Map<string, string>> {
    const rows: Array<{ root: string; text: string | null }> = await this.ds.query(
      `WITH RECURSIVE sub AS (
         SELECT n.id AS root, n.type AS root_type, n.id, n.text, ARRAY[]::int[] AS path
           FROM nodes n WHERE n.file_id = $1 AND n.generation = $2 AND n.id = ANY($3::uuid[])
         UNION ALL
         SELECT s.root, s.root_type, c.id, c.text, s.path || c.ordinal
           FROM sub s JOIN nodes c ON c.file_id = $1 AND c.generation = $2 AND c.parent_id = s.id
          WHERE cardinality(s.path) < 64
       )
       SELECT root, left(string_agg(NULLIF(btrim(text), ''), CASE WHEN root_type = 'row' THEN ' | ' ELSE ' ' END ORDER BY path), $4) AS text
         FROM sub GROUP BY root, root_type`,
      [fileId, generation, ids, maxChars],
    );
    return new Map(rows.filter((r) => r.text).map((r) => [r.root, r.text as string]));
  }
}
