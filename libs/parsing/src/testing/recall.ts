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
  const parts = diffArrays(gt, ex, { timeout: 60_000 });
  if (!parts) return bagRecall(gt, ex, total);
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
  return matched / total;
}

/** Fallback when the alignment is too costly: multiset overlap of words, weighted by length. */
function bagRecall(gt: string[], ex: string[], total: number): number {
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
  return matched / total;
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
