import type { Rule, Trigger } from '@docintel/api-client';
import { statusOf, unwrap, type Api } from '../../api/client';

export type { Rule, Trigger };

/** `corpus_parsing` -> `Corpus parsing`: a trigger's id as a title. */
export const triggerTitle = (id: string): string => {
  const words = id.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A trigger's rule in the namespace, or null when it has none (the trigger is off there). */
export async function loadRule(api: Api, triggerId: string, signal?: AbortSignal): Promise<Rule | null> {
  try {
    return await unwrap(api.GET('/v1/rules/{trigger_id}', { params: { path: { trigger_id: triggerId } }, signal }));
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

/** A filter on one line, for the list of triggers. */
export function filterSummary(filter: Record<string, unknown>): string {
  return Object.keys(filter).length ? JSON.stringify(filter) : '{} (matches everything)';
}

/** A JSON Schema of a filter key in a few words: "array of strings, at most 100", "integer ≥ 0". */
export function describeKeySchema(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const s = schema as Record<string, unknown>;
  const type = Array.isArray(s.type) ? s.type.join(' or ') : typeof s.type === 'string' ? s.type : '';
  if (type === 'array') {
    const items = describeKeySchema(s.items);
    const max = typeof s.maxItems === 'number' ? `, at most ${s.maxItems}` : '';
    return `array${items ? ` of ${items.replace(/^(\w+)/, '$1s')}` : ''}${max}${s.uniqueItems ? ', no repeats' : ''}`;
  }
  const bounds = [
    typeof s.minimum === 'number' ? `≥ ${s.minimum}` : '',
    typeof s.maximum === 'number' ? `≤ ${s.maximum}` : '',
    Array.isArray(s.enum) ? `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}` : '',
  ].filter(Boolean);
  return [type, ...bounds].filter(Boolean).join(' ');
}
