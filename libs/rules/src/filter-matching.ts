import type { RuleDecision, RuleFacts, RuleFilter } from '@docintel/contracts';
import { contentPatternMatches } from './content-patterns';

/** "image/*" matches "image/png"; comparison ignores case and parameters (";charset=..."). */
export function mimeMatches(pattern: string, mimeType: string): boolean {
  const p = pattern.toLowerCase().trim();
  const m = mimeType.toLowerCase().split(';')[0].trim();
  if (p === '*/*' || p === '*') return true;
  if (p.endsWith('/*')) return m.startsWith(p.slice(0, -1));
  return p === m;
}

const nonEmpty = (a: string[] | undefined): a is string[] => Array.isArray(a) && a.length > 0;

/**
 * Decides whether a rule's filter lets a trigger run for an operation. Node-level keys
 * (node_types, classifications, content_patterns) match when any node of the operation qualifies;
 * nodeMatches() then picks the nodes to work on.
 */
export function decide(filter: RuleFilter, facts: RuleFacts): RuleDecision {
  const mime = facts.mimeType ?? '';
  if (nonEmpty(filter.mime_types) && !filter.mime_types.some((p) => mimeMatches(p, mime))) {
    return { run: false, reason: `media type ${mime || '(unknown)'} is not among the rule's mime_types (${filter.mime_types.join(', ')})` };
  }
  if (nonEmpty(filter.exclude_mime_types) && filter.exclude_mime_types.some((p) => mimeMatches(p, mime))) {
    return { run: false, reason: `media type ${mime} is excluded by the rule's exclude_mime_types` };
  }
  const size = facts.size;
  if (typeof filter.min_file_size === 'number' && typeof size === 'number' && size < filter.min_file_size) {
    return { run: false, reason: `file size ${size} bytes is below the rule's min_file_size (${filter.min_file_size})` };
  }
  if (typeof filter.max_file_size === 'number' && typeof size === 'number' && size > filter.max_file_size) {
    return { run: false, reason: `file size ${size} bytes is above the rule's max_file_size (${filter.max_file_size})` };
  }
  if (nonEmpty(filter.node_types) && facts.nodeTypes && !facts.nodeTypes.some((t) => filter.node_types!.includes(t))) {
    return { run: false, reason: "no node of the rule's node_types" };
  }
  if (
    nonEmpty(filter.classifications) &&
    facts.classifications &&
    !facts.classifications.some((c) => filter.classifications!.includes(c))
  ) {
    return { run: false, reason: "no node with the rule's classifications" };
  }
  if (nonEmpty(filter.content_patterns) && facts.texts) {
    const patterns = filter.content_patterns;
    if (!facts.texts.some((t) => patterns.some((p) => contentPatternMatches(p, t)))) {
      return { run: false, reason: "no node text matches the rule's content_patterns" };
    }
  }
  return { run: true, filter };
}

/**
 * Whether one node qualifies under the node-level keys of a filter. Content patterns run on RE2
 * against the first FILTER_LIMITS.maxMatchedTextLength characters of the node's text.
 */
export function nodeMatches(filter: RuleFilter, node: { type: string; text?: string | null; classifications?: string[] }): boolean {
  if (nonEmpty(filter.node_types) && !filter.node_types.includes(node.type)) return false;
  if (nonEmpty(filter.classifications) && !(node.classifications ?? []).some((c) => filter.classifications!.includes(c))) return false;
  if (nonEmpty(filter.content_patterns)) {
    const text = node.text ?? '';
    if (!filter.content_patterns.some((p) => contentPatternMatches(p, text))) return false;
  }
  return true;
}
