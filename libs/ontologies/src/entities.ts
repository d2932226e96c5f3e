import type { EntityMention } from './nlp';
import { ENTITY_TYPES, type EntityType, type NamedEntity } from './types';

const HONORIFIC = /^(dr|mr|mrs|ms|prof|sir|dame|lord|lady|st)\.?\s+/i;

/** The mention as a name: no surrounding punctuation, honorific or possessive. */
export function cleanEntityText(text: string): string {
  let name = text
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '')
    .replace(/['’]s$/u, '')
    .replace(HONORIFIC, '')
    .trim();
  if (name.endsWith(')') && !name.includes('(')) name = name.slice(0, -1).replace(/[^\p{L}\p{N}.]+$/u, '');
  // Keep the period of an initial or "Inc.", drop a sentence's.
  const keepDot = /\b\p{Lu}\.$/u.test(name) || /\b(inc|ltd|co|corp)\.$/i.test(name);
  return name.endsWith('.') && !keepDot ? name.slice(0, -1) : name;
}

const LOWER_CASE_NAME_WORDS = new Set([
  'of',
  'and',
  'the',
  'for',
  'de',
  'la',
  'le',
  'du',
  'van',
  'von',
  'der',
  'den',
  'da',
  'di',
  'del',
  'y',
  'on',
  'in',
  'at',
  '&',
]);

/** Names are capitalised word by word ("AI systems" is not one) and have no slashes ("MT/ST"). */
function plausible(name: string, type: EntityType): boolean {
  if (name.length < 2 || name.length > 80 || !/\p{L}{2}/u.test(name) || /[/\\|@#]/.test(name)) return false;
  const words = name.split(' ');
  if (!words.every((w) => /^[\p{Lu}\p{N}]/u.test(w) || LOWER_CASE_NAME_WORDS.has(w))) return false;
  if ((name.match(/\(/g)?.length ?? 0) !== (name.match(/\)/g)?.length ?? 0)) return false;
  // A person needs a first and a last name: lone surnames are mostly citations ("Chen et al."), and
  // people's names are not written in capitals only (MS-DOS).
  return type !== 'PERSON' || (words.length >= 2 && /\p{Ll}/u.test(name));
}

interface Group {
  text: string;
  surfaces: Map<string, number>;
  types: Map<EntityType, number>;
  occurrences: number;
  firstOffset: number;
}

/**
 * Groups mentions by name (case-insensitive), gives each the type most of its mentions have, and
 * keeps the `max` most mentioned (ties: first seen).
 */
export function groupEntities(mentions: EntityMention[], max: number): NamedEntity[] {
  const groups = new Map<string, Group>();
  for (const m of mentions) {
    const text = cleanEntityText(m.text);
    if (!plausible(text, m.type)) continue;
    const key = text.toLowerCase();
    const g = groups.get(key) ?? { text, surfaces: new Map(), types: new Map(), occurrences: 0, firstOffset: m.start };
    g.surfaces.set(text, (g.surfaces.get(text) ?? 0) + 1);
    g.types.set(m.type, (g.types.get(m.type) ?? 0) + 1);
    g.occurrences++;
    g.firstOffset = Math.min(g.firstOffset, m.start);
    groups.set(key, g);
  }
  const ranked = [...groups.values()].sort((a, b) => b.occurrences - a.occurrences || a.firstOffset - b.firstOffset);
  return ranked.slice(0, max).map((g) => {
    const type = [...g.types.entries()].sort((a, b) => b[1] - a[1] || ENTITY_TYPES.indexOf(a[0]) - ENTITY_TYPES.indexOf(b[0]))[0][0];
    const text = [...g.surfaces.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    return {
      text,
      type,
      occurrences: g.occurrences,
      firstOffset: g.firstOffset,
      explanation: `named entity (${type.toLowerCase()}) recognised by compromise, ${g.occurrences} occurrence${g.occurrences === 1 ? '' : 's'}, first at offset ${g.firstOffset}`,
    };
  });
}
