import { foldLabel } from './text';
import { porterStem } from '@docintel/retrieval';

const TRUE_WORDS = new Set([
  'yes',
  'y',
  'true',
  't',
  '1',
  'correct',
  'right',
  'affirmative',
  'agreed',
  'present',
  'included',
  'applicable',
  'oui',
  'ja',
  'si',
  'x',
  '✓',
  '✔',
]);
const FALSE_WORDS = new Set([
  'no',
  'n',
  'false',
  'f',
  '0',
  'incorrect',
  'wrong',
  'negative',
  'none',
  'absent',
  'excluded',
  'not applicable',
  'n a',
  'non',
  'nein',
  '✗',
  '✘',
]);

/** A yes/no word as written ("Yes", "FALSE", "n/a" → false), or null when the text is not one. */
export function parseBoolean(raw: string): boolean | null {
  const trimmed = raw.trim();
  if (trimmed === '✓' || trimmed === '✔') return true;
  if (trimmed === '✗' || trimmed === '✘') return false;
  const folded = foldLabel(trimmed).replace(/^(answer|response)\s+/, '');
  if (TRUE_WORDS.has(folded)) return true;
  if (FALSE_WORDS.has(folded)) return false;
  const first = folded.split(' ')[0];
  if (first === 'yes' || first === 'true') return true;
  if (first === 'no' || first === 'false') return false;
  return null;
}

/**
 * Words that flip a statement. "no" and "none" are included: "no penalty applies" denies the
 * penalty. "nor" pairs with "neither" and is not counted again.
 */
export const NEGATION_WORDS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'without',
  'none',
  'neither',
  'nobody',
  'nothing',
  'nowhere',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'wont',
  'wouldnt',
  'shouldnt',
  'couldnt',
  'hasnt',
  'havent',
  'hadnt',
  'mustnt',
  'neednt',
  'lacks',
  'lack',
  'lacking',
  'absent',
  'excluded',
  'excludes',
  'prohibited',
  'forbidden',
  'fails',
  'failed',
  'unable',
  'nor',
]);

/** Words that are negation in form but close a negative question or double negation ("not only"). */
const NOT_NEGATING_AFTER: Record<string, string> = { not: 'only', no: 'longer' };

export interface Polarity {
  /** True when the statement affirms, false when a negation governs the matched words. */
  affirmative: boolean;
  /** The negation words counted, as written, with their offsets. */
  cues: { word: string; start: number; end: number }[];
}

/**
 * Whether a sentence affirms or denies. Only negations in the same clause as a focus word (a word
 * the question asked about) and at most `window` words before it, or two after, count, since "the
 * deposit, which is not refundable, is due" does not deny the deposit is due; with no focus words
 * every negation in the sentence counts. An even count cancels out ("not without reason").
 */
export function statementPolarity(sentence: string, focus?: (word: string) => boolean, window = 6): Polarity {
  const words: { raw: string; word: string; start: number; end: number; clause: number }[] = [];
  let clause = 0;
  for (const m of sentence.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[,;:()\u2013\u2014]/gu)) {
    if (!/[\p{L}\p{N}]/u.test(m[0])) {
      clause++;
      continue;
    }
    words.push({ raw: m[0], word: m[0].toLowerCase().replace(/['’]/g, ''), start: m.index, end: m.index + m[0].length, clause });
  }
  const negations = words
    .map((w, i) => ({ ...w, i }))
    .filter((w, i) => NEGATION_WORDS.has(w.word) && w.word !== 'nor' && words[i + 1]?.word !== NOT_NEGATING_AFTER[w.word])
    // "whether or not material" says the condition does not matter; it denies nothing.
    .filter((w) => !(w.word === 'not' && words[w.i - 1]?.word === 'or' && words[w.i - 2]?.word === 'whether'));
  const focusAt = focus ? words.flatMap((w, i) => (focus(w.word) ? [i] : [])) : [];
  // "without" negates only what follows it: "can be reused without impairing it" affirms the reuse.
  const governs = (n: { i: number; clause: number; word: string }, f: number) =>
    words[f].clause === n.clause && ((f >= n.i && f - n.i <= window) || (n.i > f && n.i - f <= 2 && n.word !== 'without'));
  const counted = focusAt.length ? negations.filter((n) => focusAt.some((f) => governs(n, f))) : negations;
  return {
    affirmative: counted.length % 2 === 0,
    cues: counted.map((n) => ({ word: n.raw, start: n.start, end: n.end })),
  };
}

/**
 * Pairs of contraries: saying one of a thing denies the other ("the slot is wider than the key"
 * denies that it is narrower). Only words whose everyday sense is the contrary are listed; words
 * with a second common sense ("last", "fair", "present", "light") are left out, as are pairs that
 * are not exclusive ("before"/"after" an event may both hold of a period).
 */
const CONTRARY_PAIRS: readonly [string, string][] = [
  ['wide', 'narrow'],
  ['broad', 'narrow'],
  ['large', 'small'],
  ['big', 'small'],
  ['high', 'low'],
  ['long', 'short'],
  ['thick', 'thin'],
  ['deep', 'shallow'],
  ['fast', 'slow'],
  ['strong', 'weak'],
  ['hot', 'cold'],
  ['early', 'late'],
  ['cheap', 'expensive'],
  ['increase', 'decrease'],
  ['rise', 'decline'],
  ['include', 'exclude'],
  ['inclusive', 'exclusive'],
  ['allow', 'prohibit'],
  ['allow', 'forbid'],
  ['permit', 'prohibit'],
  ['permit', 'forbid'],
  ['mandatory', 'optional'],
  ['mandatory', 'voluntary'],
  ['compulsory', 'optional'],
  ['compulsory', 'voluntary'],
  ['required', 'optional'],
  ['public', 'private'],
  ['internal', 'external'],
  ['domestic', 'foreign'],
  ['minimum', 'maximum'],
  ['accept', 'reject'],
  ['approve', 'reject'],
  ['same', 'different'],
  ['identical', 'different'],
  ['true', 'false'],
  ['success', 'failure'],
  ['succeed', 'fail'],
  ['profit', 'loss'],
  ['alive', 'dead'],
  ['safe', 'dangerous'],
  ['temporary', 'permanent'],
  ['essential', 'dispensable'],
  ['necessary', 'dispensable'],
  // Advice against a thing denies that it is recommended.
  ...['recommend', 'advise', 'advisable', 'encourage', 'optimal'].flatMap((a) =>
    ['discourage', 'inadvisable', 'suboptimal', 'sub-optimal', 'unwise'].map((b): [string, string] => [a, b]),
  ),
];

/**
 * Words of one sense: a sentence saying "essential" speaks of a question's "indispensable". Kept to
 * the words whose senses coincide in rules, reports and manuals.
 */
const SAME_SENSE_GROUPS: readonly string[][] = [
  ['essential', 'indispensable', 'vital'],
  ['mandatory', 'compulsory', 'obligatory', 'required', 'obliged'],
  ['allowed', 'permitted'],
  ['prohibited', 'forbidden', 'banned'],
  ['possible', 'feasible'],
  ['refund', 'reimburse'],
];

/** The base of a comparative or superlative ("wider" → "wide", "bigger" → "big", "earliest" → "early"). */
function comparativeBases(word: string): string[] {
  const m = /^(\p{L}{2,}?)(ier|iest|er|est)$/u.exec(word);
  if (!m) return [];
  const [, root, suffix] = m;
  if (suffix.startsWith('i')) return [`${root}y`];
  const bases = [root, `${root}e`];
  if (/(\p{L})\1$/u.test(root)) bases.push(root.slice(0, -1));
  return bases;
}

const CONTRARY = new Map<string, Set<string>>();
for (const [a, b] of CONTRARY_PAIRS) {
  const [sa, sb] = [porterStem(a), porterStem(b)];
  (CONTRARY.get(sa) ?? CONTRARY.set(sa, new Set()).get(sa)!).add(sb);
  (CONTRARY.get(sb) ?? CONTRARY.set(sb, new Set()).get(sb)!).add(sa);
}

const SAME_SENSE = new Map<string, number>();
SAME_SENSE_GROUPS.forEach((group, k) => group.forEach((w) => SAME_SENSE.set(porterStem(w), k)));

/** Whether two words, as written, have one sense ("essential" and "indispensable"), or one stem. */
export function sameSense(a: string, b: string): boolean {
  const [sa, sb] = [porterStem(a.toLowerCase()), porterStem(b.toLowerCase())];
  return sa === sb || (SAME_SENSE.has(sa) && SAME_SENSE.get(sa) === SAME_SENSE.get(sb));
}

/** The stems a word may stand for: its own, and for a comparative of a listed word, its base's. */
function senseStems(word: string): string[] {
  const lower = word.toLowerCase();
  const own = porterStem(lower);
  const bases = comparativeBases(lower)
    .map((b) => porterStem(b))
    .filter((s) => CONTRARY.has(s));
  return [own, ...bases];
}

/**
 * Prefixes and suffixes that make a word its own negation: "non-refundable", "unavailable",
 * "invalid", "harmless". The Latin prefixes (in-, im-, il-, ir-) only before an adjective ending,
 * since "inform", "intend" or "impose" are not negations of "form", "tend" or "pose"; "dis-" is left
 * out for the same reason ("discover", "discharge").
 */
function affixBases(word: string): string[] {
  const lower = word.toLowerCase();
  const out: string[] = [];
  const non = /^non-?(\p{L}{3,}.*)$/u.exec(lower);
  if (non) out.push(non[1]);
  const un = /^un(\p{L}{4,})$/u.exec(lower);
  if (un) out.push(un[1]);
  const latin = /^(?:in|im|il|ir)(\p{L}{4,})$/u.exec(lower);
  if (latin && /(?:able|ible|al|ent|ant|ate|ive|ete|ect|ure|id|ic|ar)$/.test(latin[1])) out.push(latin[1]);
  const less = /^(\p{L}{3,})less$/u.exec(lower);
  if (less) out.push(less[1]);
  return out.map((b) => porterStem(b));
}

/**
 * Whether `said` (a word of a sentence) denies `asked` (a word of a question) by its sense alone:
 * a listed contrary ("wider" for "narrower"), or one being the other with a negating affix
 * ("non-refundable" for "refunded", "dispensable" for "indispensable").
 */
export function deniesWord(asked: string, said: string): boolean {
  const own = senseStems(asked);
  const group = SAME_SENSE.get(own[0]);
  const a = group === undefined ? own : [...own, ...SAME_SENSE_GROUPS[group].map((w) => porterStem(w))];
  const s = senseStems(said);
  if (a.some((x) => s.some((y) => CONTRARY.get(x)?.has(y)))) return true;
  if (a.some((x) => s.includes(x))) return false;
  const sBases = affixBases(said);
  const aBases = affixBases(asked);
  return a.some((x) => sBases.includes(x)) || s.some((y) => aBases.includes(y));
}
