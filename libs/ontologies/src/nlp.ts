import nlp from 'compromise';
import type { EntityType } from './types';

/**
 * The one NLP library of the engine: compromise (English, rule- and lexicon-based, offline,
 * deterministic). It tags parts of speech for keyphrase candidates and recognises people,
 * places and organisations.
 */

export interface Term {
  text: string;
  /** Lower case; nouns in the singular. */
  key: string;
  tags: ReadonlySet<string>;
  start: number;
  length: number;
  pre: string;
  post: string;
}

export interface EntityMention {
  text: string;
  type: EntityType;
  start: number;
}

export interface Analysis {
  sentences: Term[][];
  mentions: EntityMention[];
}

interface JsonTerm {
  text: string;
  normal?: string;
  root?: string;
  tags?: string[];
  pre?: string;
  post?: string;
  offset?: { start: number; length: number };
}

interface JsonMatch {
  text: string;
  offset?: { start: number; length: number };
  terms?: JsonTerm[];
}

export function isPerson(name: string): boolean {
  return nlp(name).has('#Person');
}

type Doc = ReturnType<typeof nlp>;
interface View {
  json(options: object): unknown;
}

const ENTITY_VIEWS: Array<[EntityType, (doc: Doc) => View]> = [
  ['PERSON', (d) => d.people()],
  ['ORGANIZATION', (d) => d.organizations()],
  ['PLACE', (d) => d.places()],
];

export function analyse(text: string): Analysis {
  const doc = nlp(text);
  doc.compute('root');
  // `root` (the singular of nouns) is computed above but missing from compromise's option types.
  const jsonOptions: object = { offset: true, terms: { normal: true, root: true, tags: true, offset: true } };
  const json = doc.json(jsonOptions) as JsonMatch[];
  const sentences = json.map((s) =>
    (s.terms ?? []).map((t): Term => ({
      text: t.text,
      key: (t.root || t.normal || t.text).toLowerCase(),
      tags: new Set(t.tags ?? []),
      start: t.offset?.start ?? 0,
      length: t.offset?.length ?? t.text.length,
      pre: t.pre ?? '',
      post: t.post ?? '',
    })),
  );
  const mentions: EntityMention[] = [];
  for (const [type, view] of ENTITY_VIEWS) {
    for (const m of view(doc).json({ offset: true }) as JsonMatch[]) {
      mentions.push({ text: m.text, type, start: m.offset?.start ?? 0 });
    }
  }
  mentions.sort((a, b) => a.start - b.start || a.type.localeCompare(b.type));
  return { sentences, mentions };
}
