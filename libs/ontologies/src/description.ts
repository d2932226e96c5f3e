import { letterRatio, looseKey, splitBlocks, squash, truncateAtSentence, type Block } from './text';
import type { Found, OntologyInput } from './types';

export const MAX_DESCRIPTION = 500;

const ABSTRACT_HEADING = /^(abstract|summary|executive summary|résumé|zusammenfassung|resumen)\s*[.:]?$/i;
const ABSTRACT_INLINE = /^(abstract|summary)\s*[.:—–-]\s*(?=\S)/i;
/** Fewer characters than this is a caption, a byline or a heading, not a paragraph. */
const MIN_PARAGRAPH = 120;
const MIN_WORDS = 15;

// A block whose lines are mostly list items or table rows is not prose.
function isListOrTable(block: string): boolean {
  const lines = block.split('\n').filter((l) => l.trim());
  const marked = lines.filter((l) => /^\s*([-*•▪◦|]|\d+(\.\d+)*[.)]?\s)/.test(l)).length;
  return marked * 2 > lines.length;
}

function isSubstantial(block: string): boolean {
  if (isListOrTable(block)) return false;
  const text = squash(block);
  return text.length >= MIN_PARAGRAPH && text.split(' ').length >= MIN_WORDS && letterRatio(text) >= 0.6 && /[.!?;:]/.test(text);
}

/** The abstract's text when the document has one, from the blocks after its heading or its inline label. */
function abstractText(blocks: Block[], headingKeys: Set<string>): { text: string; offset: number } | undefined {
  for (let i = 0; i < blocks.length; i++) {
    const block = squash(blocks[i].text);
    const inline = ABSTRACT_INLINE.exec(block);
    let text = '';
    let j = i + 1;
    if (inline) text = block.slice(inline[0].length);
    else if (!ABSTRACT_HEADING.test(block)) continue;
    // Follow on until the next heading or enough text.
    while (text.length < MAX_DESCRIPTION && j < blocks.length && !headingKeys.has(looseKey(blocks[j].text))) {
      const next = squash(blocks[j].text);
      if (!/\p{L}/u.test(next)) break;
      text = text ? `${text} ${next}` : next;
      j++;
    }
    if (text.length >= 40) return { text, offset: blocks[i].offset };
  }
  return undefined;
}

/** The abstract when there is one, else the first substantial paragraph; cut at a sentence to ~500 characters. */
export function findDescription(input: OntologyInput, text: string, title: string | undefined): Found<string> | undefined {
  const blocks = splitBlocks(text);
  const headingKeys = new Set(input.headings.map((h) => looseKey(h.text)));
  const abstract = abstractText(blocks, headingKeys);
  if (abstract) {
    return { value: truncateAtSentence(abstract.text, MAX_DESCRIPTION), explanation: `abstract section at offset ${abstract.offset}` };
  }
  const titleKey = title ? looseKey(title) : '';
  const paragraph = blocks.find((b) => isSubstantial(b.text) && !headingKeys.has(looseKey(b.text)) && looseKey(b.text) !== titleKey);
  if (!paragraph) return undefined;
  return {
    value: truncateAtSentence(paragraph.text, MAX_DESCRIPTION),
    explanation: `first substantial paragraph, at offset ${paragraph.offset}`,
  };
}
