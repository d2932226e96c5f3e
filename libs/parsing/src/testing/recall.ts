import { diffArrays, diffChars } from 'diff';

/**
 * Character-level recall of a ground truth in an extracted text: the share of the ground truth's
 * non-space characters that an alignment (word-level LCS via jsdiff, refined by a character diff
 * inside each changed region) finds in the extraction. Markup of Markdown/HTML ground truths is
 * stripped and whitespace, quotes, dashes and Unicode forms are normalised on both sides.
 */
export function characterRecall(groundTruth: string, extracted: string): number {
  const gt = tokens(groundTruth);
  const ex = tokens(extracted);
  const total = gt.reduce((n, t) => n + t.length, 0);
  if (total === 0) return 1;
  // A ground truth of the whole document is split by runs of ANCHOR words found once on each side,
  // in the same order, into small stretches (as patience diff does): milliseconds instead of tens of
  // seconds, and no timeout whose firing would depend on the machine's load. A ground truth of part
  // of a document (one page of fifty) is aligned whole: its runs are often found once elsewhere too.
  if (gt.length < ex.length / 2 || ex.length < gt.length / 2) return stretchMatched(gt, ex) / total;
  let matched = 0;
  let gi = 0;
  let ei = 0;
  for (const [ga, ea] of uniqueAnchors(gt, ex)) {
    if (ga < gi || ea < ei) continue;
    matched += stretchMatched(gt.slice(gi, ga), ex.slice(ei, ea));
    for (let k = 0; k < ANCHOR; k++) matched += gt[ga + k].length;
    gi = ga + ANCHOR;
    ei = ea + ANCHOR;
  }
  return (matched + stretchMatched(gt.slice(gi), ex.slice(ei))) / total;
}

/** Words in an anchor: single words found once on both sides are often the same word in another place. */
const ANCHOR = 3;

/** Non-space characters of `gt` that a word-level LCS, refined by a character diff inside each changed region, finds in `ex`. */
function stretchMatched(gt: string[], ex: string[]): number {
  if (gt.length === 0 || ex.length === 0) return 0;
  const parts = gt.length * ex.length > 4e8 ? undefined : diffArrays(gt, ex);
  if (!parts) return bagMatched(gt, ex);
  let matched = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (!p.added && !p.removed) {
      matched += p.value.reduce((n, t) => n + t.length, 0);
      continue;
    }
    if (p.removed) {
      const next = parts[i + 1];
      const prev = parts[i - 1];
      const other = next?.added ? next : prev?.added ? prev : undefined;
      if (!other) continue;
      const a = p.value.join(' ');
      const b = other.value.join(' ');
      if (a.length * b.length > 4e7) continue;
      for (const c of diffChars(a, b)) if (!c.added && !c.removed) matched += c.value.replace(/\s/g, '').length;
    }
  }
  return matched;
}

/** Start pairs of ANCHOR-word runs that occur exactly once in each sequence, longest chain in increasing order on both sides. */
function uniqueAnchors(gt: string[], ex: string[]): [number, number][] {
  const once = (words: string[]) => {
    const at = new Map<string, number>();
    for (let i = 0; i + ANCHOR <= words.length; i++) {
      const run = words.slice(i, i + ANCHOR).join(' ');
      at.set(run, at.has(run) ? -1 : i);
    }
    return at;
  };
  const inGt = once(gt);
  const inEx = once(ex);
  const pairs: [number, number][] = [];
  for (const [w, i] of inGt) {
    const j = inEx.get(w);
    if (i >= 0 && j !== undefined && j >= 0) pairs.push([i, j]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  // Longest increasing subsequence of the extraction indices (patience sorting).
  const tails: number[] = [];
  const back = new Array<number>(pairs.length);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < j) lo = mid + 1;
      else hi = mid;
    }
    back[k] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = k;
  });
  const chain: [number, number][] = [];
  for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = back[k]) chain.push(pairs[k]);
  return chain.reverse();
}

/** Fallback when a stretch is too large to align: multiset overlap of words, weighted by length. */
function bagMatched(gt: string[], ex: string[]): number {
  const bag = new Map<string, number>();
  for (const t of ex) bag.set(t, (bag.get(t) ?? 0) + 1);
  let matched = 0;
  for (const t of gt) {
    const n = bag.get(t) ?? 0;
    if (n > 0) {
      matched += t.length;
      bag.set(t, n - 1);
    }
  }
  return matched;
}

export function tokens(s: string): string[] {
  return normalise(s).split(' ').filter(Boolean);
}

export function normalise(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[a-zA-Z][^<>\n]*>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|[\s|:-]*-[\s|:-]*$/gm, ' ')
    .replace(/^\s*-{3,}\s*$/gm, ' ')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/gm, '')
    .replace(/\*\*|__|`+|\$\$?|\\\|/g, ' ')
    .replace(/[|]/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u00ad\u200b-\u200f\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
