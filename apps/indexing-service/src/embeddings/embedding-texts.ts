import { Injectable } from '@nestjs/common';
import { nodeMatches } from '@docintel/rules';
import type { RuleFilter } from '@docintel/contracts';
import { NodeStoreRepository } from '../nodes/node-store.repository';

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
  constructor(private readonly nodes: NodeStoreRepository) {}

  async select(fileId: string, generation: number, nodeIds: string[], filter: RuleFilter, maxChars: number): Promise<EmbeddingCandidate[]> {
    const types: readonly string[] = filter.node_types?.length ? filter.node_types : DEFAULT_EMBEDDED_TYPES;
    const rows = await this.nodes.readNodes(fileId, generation, nodeIds, types);
    const order = new Map(nodeIds.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const containers = rows.filter((r) => !r.text.trim()).map((r) => r.id);
    const under = containers.length ? await this.nodes.textUnder(fileId, generation, containers, maxChars) : new Map<string, string>();
    return rows
      .map((r) => ({ id: r.id, type: r.type, text: (r.text.trim() ? r.text : (under.get(r.id) ?? '')).slice(0, maxChars) }))
      .filter((c) => c.text.trim().length > 0 && nodeMatches(filter, c));
  }
}
