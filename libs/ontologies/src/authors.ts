import { embeddedMetadataLabel } from './metadata-source';
import { isPerson } from './nlp';
import { looseKey, nonEmptyLines, squash } from './text';
import type { Found, OntologyInput } from './types';

const MAX_AUTHORS = 50;

// Names authoring tools put in the Author field by themselves.
const JUNK_AUTHOR =
  /^(administrator|admin|user|owner|unknown|author|anonymous|microsoft office user|windows user|default|guest|root|staff|none|null|n\/a|-)$/i;

const PARTICLES = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'da',
  'di',
  'du',
  'del',
  'della',
  'la',
  'le',
  'dos',
  'das',
  'bin',
  'ibn',
  'al',
  'el',
  'y',
  'ten',
  'ter',
]);

// A capitalised word (Anne, O'Neil, Jean-Pierre, SMITH) or initials (J., J.-P., J.R.R.).
// \p{Sk}: PDF text often carries accents as separate spacing marks ("O˘guz").
const NAME_TOKEN = /^(\p{Lu}[\p{Ll}\p{Lu}\p{M}\p{Sk}'’-]*\.?|(\p{Lu}\.-?)+)$/u;
const INITIAL = /^(\p{Lu}\.-?)+$|^\p{Lu}$/u;

// Words in titles and affiliations that are not parts of names.
const NOT_NAME_WORD =
  /^(university|universit[äéà]t?|institute?|department|dept|laborator(y|ies)|lab|school|college|cent(er|re)|inc|ltd|llc|gmbh|corporation|corp|company|research|faculty|hospital|academy|abstract|introduction|keywords|the|and|for|of|on|in|with|a|an|journal|proceedings|conference|volume|vol|press|report|paper|chapter|section|figure|table)\.?$/i;

const AFFILIATION =
  /(universit|institut|department|dept\.|laborator|school|college|cent(er|re)\b|\binc\b|\bltd\b|gmbh|corporation|research|faculty|hospital|academy|@|\bstreet\b|\bavenue\b|\broad\b)/i;

/** Removes affiliation and footnote markers: superscripts, *, †, ‡, digits glued to names. */
export function stripAffiliationMarkers(line: string): { text: string; hadMarkers: boolean } {
  let text = line.replace(/\S+@\S+/g, ' ');
  const before = text;
  text = text
    // Control characters (glyphs without Unicode, such as an envelope icon) and "(1)", "( )".
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\([^\p{L})]*\)/gu, ' ')
    .replace(/[\u00b9\u00b2\u00b3\u2070-\u2079*∗⋆★†‡§¶‖#✉♮♭♯]+/g, ' ')
    .replace(/(?<=\p{L})\d+(\s*,\s*\d+)*(?![\p{L}\d])/gu, ' ')
    .replace(/(^|\s)\d+(?=\s|,|$)/g, ' ');
  return { text: squash(text.replace(/\s+,/g, ',')), hadMarkers: text.replace(/\s+/g, '') !== before.replace(/\s+/g, '') };
}

/** Splits "A, B and C" / "A; B & C" into names. */
export function splitNames(text: string): string[] {
  return text
    .replace(/^by\s+/i, '')
    .replace(/,?\s+(and|&)\s+/gi, ',')
    .split(/[,;]/)
    .map((s) => squash(s))
    .filter(Boolean);
}

/** True for "Jane Smith", "J. R. Smith", "Ludwig van Beethoven"; false for title-like phrases with section words. */
export function looksLikePersonName(name: string): boolean {
  const tokens = squash(name).split(' ');
  if (tokens.length < 2 || tokens.length > 5) return false;
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (PARTICLES.has(first.toLowerCase()) && first === first.toLowerCase()) return false;
  if (INITIAL.test(last) || last.replace(/[^\p{L}]/gu, '').length < 2) return false;
  // Two capitals without a dot are an acronym ("Facebook AI"), not initials.
  return tokens.every((t) => (PARTICLES.has(t) || NAME_TOKEN.test(t)) && !NOT_NAME_WORD.test(t) && !/^\p{Lu}{2}$/u.test(t));
}

function dedupe(names: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of names) {
    const key = looseKey(n);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out.slice(0, MAX_AUTHORS);
}

/** Cleans the Author field: drops tool-made names, splits "A; B" and "A, B" lists (not "Smith, John"). */
export function cleanEmbeddedAuthors(authors: string[]): string[] {
  const names: string[] = [];
  for (const raw of authors) {
    const entry = squash(raw);
    if (!entry || JUNK_AUTHOR.test(entry) || !/\p{L}/u.test(entry) || /^\S+@\S+$/.test(entry)) continue;
    // Some tools separate authors by two spaces only.
    for (const part of raw.trim().split(/;|\s{2,}/)) {
      const parts = splitNames(part);
      // "Smith, John" has one-word parts: keep it whole.
      const whole = parts.length > 1 && parts.some((p) => !p.includes(' '));
      // A lone acronym ("IEEE") is a template's or an organisation's placeholder, not an author.
      names.push(...(whole ? [squash(part)] : parts).filter((n) => n && !JUNK_AUTHOR.test(n) && !/^\p{Lu}{2,}$/u.test(n)));
    }
  }
  return dedupe(names);
}

function titleLineRange(lines: string[], title: string | undefined): { start: number; end: number } | undefined {
  const key = title ? looseKey(title) : '';
  if (!key) return undefined;
  for (let i = 0; i < lines.length; i++) {
    const lineKey = looseKey(lines[i]);
    if (!lineKey || (!key.startsWith(lineKey) && !lineKey.includes(key))) continue;
    let end = i;
    let covered = lineKey;
    // A title may wrap over several lines.
    while (end + 1 < lines.length && covered.length < key.length) {
      const next = `${covered} ${looseKey(lines[end + 1])}`;
      if (!key.startsWith(next)) break;
      covered = next;
      end++;
    }
    return { start: i, end };
  }
  return undefined;
}

/**
 * Authors from the lines under the title: "Jane Smith¹, John Doe² and Ann Lee*". The byline may run
 * over several lines (one author per line, or a name broken across two lines); marker-only lines
 * between them are skipped; it ends at the first line that is not names (an affiliation, say).
 */
export function authorsFromByline(topText: string, title: string | undefined): string[] | undefined {
  const lines = nonEmptyLines(topText).slice(0, 40);
  const range = titleLineRange(lines, title);
  const from = range ? range.end + 1 : 0;
  let joined = '';
  let hadMarkers = false;
  for (let i = from; i < Math.min(lines.length, from + 12); i++) {
    const line = lines[i];
    if (/^(abstract|summary|keywords|introduction)\b/i.test(line)) break;
    if (!/\p{L}/u.test(line)) {
      // PDF text often puts the superscript markers of a byline on a line of their own ("1 2 3", "1*").
      if (/^[\d\s,*∗†‡§¶]{1,30}$/.test(line)) hadMarkers = true;
      continue;
    }
    const stripped = AFFILIATION.test(line) || line.length > 3000 ? undefined : stripAffiliationMarkers(line);
    const parts = stripped ? splitNames(stripped.text) : [];
    // A line that starts with a lone word ("Lee, Jacob Carlson") ends a name the previous line broke.
    const continues = joined !== '' && parts.length > 1 && !parts[0].includes(' ') && /^\p{Lu}/u.test(parts[0]);
    const shaped = parts.length > 0 && (continues ? parts.slice(1) : parts).every(looksLikePersonName);
    if (!stripped || !shaped) {
      if (joined) break;
      continue;
    }
    joined = joined ? `${joined}${continues ? ' ' : ', '}${stripped.text}` : stripped.text;
    hadMarkers ||= stripped.hadMarkers;
  }
  const names = splitNames(joined);
  if (!names.length || names.length > MAX_AUTHORS || !names.every(looksLikePersonName)) return undefined;
  // Capitalised phrases ("Table Structure Recognition") look like names too: ask for one more sign.
  const confident = hadMarkers || names.length >= 3 || names.some((n) => isPerson(n));
  return confident ? dedupe(names) : undefined;
}

/** Authors: the embedded Author field when it names someone, else the byline under the title. */
export function findAuthors(input: OntologyInput, title: string | undefined): Found<string[]> | undefined {
  const embedded = cleanEmbeddedAuthors(input.embeddedMetadata?.authors ?? []);
  if (embedded.length) return { value: embedded, explanation: `${embeddedMetadataLabel(input.mediaType)} Author` };
  const top = input.firstPageText ?? input.text.slice(0, 4000);
  const byline = authorsFromByline(top, title);
  return byline ? { value: byline, explanation: 'byline under the title on the first page' } : undefined;
}
