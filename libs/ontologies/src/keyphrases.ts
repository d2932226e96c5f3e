import type { Term } from './nlp';
import type { Keyphrase } from './types';

/**
 * TextRank (Mihalcea & Tarau, 2004) over compromise's part-of-speech tags: nouns and adjectives
 * are the graph's vertices, linked when they occur within WINDOW candidates of each other in a
 * sentence; PageRank scores the words; a keyphrase is a run of adjacent candidates ending in a noun,
 * scored from its words' scores and how often it occurs (phraseScore). compromise tags but does
 * not rank, hence this module.
 */

const WINDOW = 3;
const DAMPING = 0.85;
const MAX_ITERATIONS = 50;
const TOLERANCE = 1e-6;
const MAX_PHRASE_WORDS = 4;

// Function words (in case the tagger calls one a noun) and words that say nothing about the content.
const STOP_KEYS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each either few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself neither no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they ' +
    'this those through to too under until up very via was we were what when where which while who whom why will with would you ' +
    'your yours yourself yourselves like unlike per thus hence however therefore wherein whereby thereof therein herein hereby said ' +
    'et al fig figs eq pp paper ref refs e.g i.e etc vol no doi http https www amp nbsp ' +
    'arxiv pmid example way thing lot kind number part case use time much many several various new first second third last next ' +
    'previous different able possible due other others another overall total'
  ).split(' '),
);

// Never part of a keyphrase, whatever else the tagger says about the word.
const EXCLUDED_TAGS = ['Pronoun', 'Determiner', 'Value', 'Date', 'Url', 'Email', 'AtMention', 'HashTag'];
// Words tagged both adjective and verb or adverb ("scanned", "fast") are kept only when they are nouns.
const NOT_ADJECTIVE_TAGS = ['Verb', 'Adverb', 'Possessive'];

function isNoun(t: Term): boolean {
  return t.tags.has('Noun') || t.tags.has('Acronym') || t.tags.has('ProperNoun');
}

function isCandidate(t: Term): boolean {
  if (EXCLUDED_TAGS.some((x) => t.tags.has(x))) return false;
  if (!isNoun(t) && (!t.tags.has('Adjective') || NOT_ADJECTIVE_TAGS.some((x) => t.tags.has(x)))) return false;
  const key = cleanKey(t.key);
  // Identifiers (element_id, camelCase keys with underscores) are not words.
  return key.length >= 2 && /\p{L}{2}/u.test(key) && !key.includes('_') && !STOP_KEYS.has(key);
}

// "Table 2", "Figure 3a", "Section 4.1": references to parts of the document, not its subject.
const PART_NAMES = new Set(['table', 'figure', 'section', 'equation', 'page', 'chapter', 'appendix', 'algorithm', 'listing', 'step']);

/** Candidate flags of a sentence's terms: nouns and adjectives, minus references to numbered parts. */
function candidateFlags(sentence: Term[]): boolean[] {
  return sentence.map((t, i) => {
    if (!isCandidate(t)) return false;
    const next = sentence[i + 1];
    return !(PART_NAMES.has(cleanKey(t.key)) && next && /^\p{N}/u.test(next.text));
  });
}

function cleanKey(key: string): string {
  return key.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

// Punctuation between two words breaks a phrase ("networks, layout" is not one phrase).
function breaksAfter(t: Term): boolean {
  return /[^\s'’-]/.test(t.post);
}

function breaksBefore(t: Term): boolean {
  return /[^\s'’-]/.test(t.pre);
}

/** How a word is shown: acronyms and proper nouns as written, other words in lower case. */
function display(t: Term): string {
  const text = t.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return t.tags.has('Acronym') || t.tags.has('ProperNoun') || /\p{Lu}.*\p{Lu}/u.test(text) ? text : text.toLowerCase();
}

/** PageRank on an undirected weighted graph given as adjacency maps, iterating in a fixed order. */
export function pageRank(graph: Map<string, Map<string, number>>): Map<string, number> {
  const nodes = [...graph.keys()].sort();
  const n = nodes.length;
  const scores = new Map(nodes.map((k) => [k, 1 / Math.max(n, 1)]));
  const outWeight = new Map(nodes.map((k) => [k, [...(graph.get(k) as Map<string, number>).values()].reduce((a, b) => a + b, 0)]));
  // Neighbours in a fixed order, so that sums add up in the same order on every run.
  const neighbours = new Map(
    nodes.map((k) => [k, [...(graph.get(k) as Map<string, number>).entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))]),
  );
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let delta = 0;
    const next = new Map<string, number>();
    for (const node of nodes) {
      let sum = 0;
      for (const [other, weight] of neighbours.get(node) as Array<[string, number]>) {
        sum += (weight / (outWeight.get(other) as number)) * (scores.get(other) as number);
      }
      const value = (1 - DAMPING) / n + DAMPING * sum;
      delta = Math.max(delta, Math.abs(value - (scores.get(node) as number)));
      next.set(node, value);
    }
    for (const [k, v] of next) scores.set(k, v);
    if (delta < TOLERANCE) break;
  }
  return scores;
}

/**
 * Sum of the words' scores divided by √length (long one-off phrases do not win by length alone),
 * times 1 + ln(occurrences) (a phrase the document repeats is more key than one said once).
 */
export function phraseScore(wordScores: number[], occurrences: number): number {
  const sum = wordScores.reduce((a, b) => a + b, 0);
  return (sum / Math.sqrt(wordScores.length)) * (1 + Math.log(occurrences));
}

interface PhraseStats {
  words: string[];
  surfaces: Map<string, number>;
  occurrences: number;
  firstOffset: number;
}

export function extractKeyphrases(sentences: Term[][], max: number): Keyphrase[] {
  const graph = new Map<string, Map<string, number>>();
  const link = (a: string, b: string) => {
    if (a === b) return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ]) {
      const edges = graph.get(x) as Map<string, number>;
      edges.set(y, (edges.get(y) ?? 0) + 1);
    }
  };
  const phrases = new Map<string, PhraseStats>();

  for (const sentence of sentences) {
    const flags = candidateFlags(sentence);
    const candidates = sentence.filter((_, i) => flags[i]);
    for (const t of candidates) if (!graph.has(cleanKey(t.key))) graph.set(cleanKey(t.key), new Map());
    for (let i = 0; i < candidates.length; i++) {
      for (let j = i + 1; j < Math.min(candidates.length, i + WINDOW); j++) link(cleanKey(candidates[i].key), cleanKey(candidates[j].key));
    }
    // Runs of adjacent candidates are the phrases; every multi-word part of a run that ends in a noun
    // counts as an occurrence too, so that "table structure" is counted inside "table structure
    // recognition". Single words count only where they stand alone, or every phrase would feed them.
    let run: Term[] = [];
    const count = (words: Term[]) => {
      const key = words.map((w) => cleanKey(w.key)).join(' ');
      const stats = phrases.get(key) ?? {
        words: words.map((w) => cleanKey(w.key)),
        surfaces: new Map(),
        occurrences: 0,
        firstOffset: words[0].start,
      };
      const surface = words.map(display).join(' ');
      stats.surfaces.set(surface, (stats.surfaces.get(surface) ?? 0) + 1);
      stats.occurrences++;
      phrases.set(key, stats);
    };
    const flush = () => {
      for (let end = 0; end < run.length; end++) {
        if (!isNoun(run[end])) continue;
        for (let start = Math.max(0, end - MAX_PHRASE_WORDS + 1); start <= end; start++) {
          if (start < end || run.length === 1) count(run.slice(start, end + 1));
        }
      }
      run = [];
    };
    sentence.forEach((t, i) => {
      if (flags[i] && !(run.length && breaksBefore(t))) run.push(t);
      else {
        flush();
        if (flags[i]) run.push(t);
      }
      if (breaksAfter(t)) flush();
    });
    flush();
  }
  if (!phrases.size) return [];

  const wordScores = pageRank(graph);
  const scored = [...phrases.entries()].map(([key, stats]) => ({
    key,
    stats,
    score: phraseScore(
      stats.words.map((w) => wordScores.get(w) ?? 0),
      stats.occurrences,
    ),
  }));
  scored.sort((a, b) => b.score - a.score || b.stats.occurrences - a.stats.occurrences || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const chosen: typeof scored = [];
  for (const candidate of scored) {
    if (chosen.length >= max) break;
    // A phrase inside a better one ("network" under "neural network") adds nothing.
    const padded = ` ${candidate.key} `;
    if (chosen.some((c) => ` ${c.key} `.includes(padded) || padded.includes(` ${c.key} `))) continue;
    chosen.push(candidate);
  }
  const best = chosen[0]?.score || 1;
  return chosen.map(({ stats, score }, rank) => {
    const relative = Math.round((score / best) * 100) / 100;
    const text = [...stats.surfaces.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    return {
      text,
      score: relative,
      occurrences: stats.occurrences,
      firstOffset: stats.firstOffset,
      explanation: `TextRank keyphrase, score ${relative.toFixed(2)} (rank ${rank + 1}), ${stats.occurrences} occurrence${stats.occurrences === 1 ? '' : 's'}, first at offset ${stats.firstOffset}`,
    };
  });
}
