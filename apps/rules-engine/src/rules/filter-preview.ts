import type { RuleFilter } from '@docintel/contracts';
import { FILTER_LIMITS, filterBytes } from '@docintel/rules';

/**
 * A stored filter as it can be shown: unchanged when it is within the size limit, otherwise
 * shortened to fit it (each string cut to the string limit, lists cut to the item limit, and items
 * dropped from the end once the budget is spent). Only a filter written before the limits existed
 * can be that big; showing it whole could make a reply larger than NATS carries.
 */
export function filterPreview(filter: RuleFilter): { filter: RuleFilter; truncated: boolean } {
  if (filter === null || typeof filter !== 'object' || filterBytes(filter) <= FILTER_LIMITS.maxFilterBytes) {
    return { filter, truncated: false };
  }
  const cut = (s: string) => s.slice(0, FILTER_LIMITS.maxStringLength);
  const shown = (v: unknown) => (typeof v === 'string' ? cut(v) : typeof v === 'object' && v !== null ? null : v);
  const preview: Record<string, unknown> = {};
  let size = 2; // {}
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    // "key":[] plus the comma before it; items add their JSON and a comma each.
    const entry = filterBytes(cut(key)) + (Array.isArray(value) ? 3 : 1 + filterBytes(shown(value))) + 1;
    if (size + entry > FILTER_LIMITS.maxFilterBytes) break;
    size += entry;
    if (!Array.isArray(value)) {
      preview[cut(key)] = shown(value);
      continue;
    }
    const items: unknown[] = [];
    preview[cut(key)] = items;
    for (const item of value.slice(0, FILTER_LIMITS.maxItems)) {
      const bytes = filterBytes(shown(item)) + 1;
      if (size + bytes > FILTER_LIMITS.maxFilterBytes) break;
      size += bytes;
      items.push(shown(item));
    }
  }
  return { filter: preview as RuleFilter, truncated: true };
}
