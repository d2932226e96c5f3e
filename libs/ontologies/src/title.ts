import { embeddedMetadataLabel } from './metadata-source';
import { letterRatio, nonEmptyLines, squash } from './text';
import type { Found, HeadingInput, OntologyInput } from './types';

const MAX_TITLE = 300;

// Titles that authoring tools write by themselves rather than the author.
const JUNK_TITLE_PATTERNS = [
  /^microsoft\s+(office\s+)?(word|powerpoint|excel)\b/i,
  /^(word|powerpoint|excel)\s+-\s+/i,
  /\.(docx?|pdf|rtf|odt|ods|tex|dvi|e?ps|indd|xlsx?|pptx?|txt|html?|qxd|pages|key|jpe?g|png|tiff?)\s*$/i,
  /^(untitled|title|no title|none|null|unknown|draft|template|default|new document|document\s*\d*|presentation\s*\d*|slide\s*\d+|book\s*\d*|sheet\s*\d*)$/i,
  /^([a-z]:\\|\/|~\/)/i,
  // Unfilled templates: "Paper Title (use style: paper title)", "Insert title here".
  /\(use style:|^(paper title|insert (your )?title|title of (the )?paper|your title)\b/i,
];

/** False for empty, implausibly long or tool-generated titles ("Microsoft Word - foo.docx", "Untitled"). */
export function isPlausibleTitle(title: string): boolean {
  const t = squash(title);
  if (t.length < 2 || t.length > MAX_TITLE) return false;
  if ((t.match(/\p{L}/gu)?.length ?? 0) < 2) return false;
  // Needs a real word: "] L C . s c [" (a rotated arXiv stamp) has none.
  if (!/\p{L}{3}|[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(t)) return false;
  if (JUNK_TITLE_PATTERNS.some((re) => re.test(t))) return false;
  // One token with underscores or long digit runs is a file or system name ("paper_final_v2", "scan0001").
  if (!/\s/.test(t) && (/_/.test(t) || /\d{3,}/.test(t))) return false;
  return true;
}

// Section headings that are never the document's title.
const SECTION_HEADING =
  /^((chapter|part|book|volume)\s+([ivxlc]+|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b.*|(abstract|summary|contents|table of contents|introduction|preface|foreword|acknowledge?ments?|references|bibliography|index|appendix|keywords|index terms|conclusions?)\b.*|(\d+(\.\d+)*\.|\d+(\.\d+)+|[IVX]+\.)\s.*|\d+\s+(introduction|background|overview|related work|conclusions?))$/i;

function isTitleHeading(h: HeadingInput): boolean {
  const text = squash(h.text);
  return isPlausibleTitle(text) && !SECTION_HEADING.test(text);
}

/** The first level-1 heading (or the largest one) among the first page's headings. */
export function titleFromHeadings(headings: HeadingInput[]): Found<string> | undefined {
  const paged = headings.filter((h) => h.page !== undefined);
  let pool: HeadingInput[];
  let where: string;
  if (paged.length) {
    // A heading further on names a section, not the document.
    pool = paged.filter((h) => h.page === 1);
    where = ' on page 1';
  } else {
    pool = headings.slice(0, 5);
    where = '';
  }
  const candidates = pool.filter(isTitleHeading);
  if (!candidates.length) return undefined;
  const top = candidates.reduce((min, h) => Math.min(min, h.level), Infinity);
  const heading = candidates.find((h) => h.level === top) as HeadingInput;
  const explanation = top === 1 ? `first level-1 heading${where}` : `largest heading (level ${top})${where}`;
  return { value: squash(heading.text), explanation };
}

// URLs, page numbers, rules, list items and table rows.
const NOT_A_TITLE_LINE = /^(https?:\/\/|www\.|arxiv:|doi:|page\s+\d+|\d+$|[-=_*#~.]+$|[-*•▪◦]\s|\|)/i;

// Tables and JSON have no title of their own: their headings are sheet and property names.
function isTabularOrJson(mediaType: string): boolean {
  return /(csv|json|spreadsheet|ms-excel|tab-separated)/.test(mediaType.toLowerCase());
}

// Nor do they (or XML) have a prose first line worth calling a title.
function isDataFormat(mediaType: string): boolean {
  return isTabularOrJson(mediaType) || /xml/.test(mediaType.toLowerCase());
}

// A line that starts in lower case or is a long sentence continues a text rather than naming it.
// So does a line of dialogue, or one that a hard wrap ended on "the", "of", "and".
function isSentenceLike(line: string): boolean {
  return (
    /^[\p{Ll}"“‘'«—–]/u.test(line) ||
    /\s(the|a|an|of|and|or|to|in|for|with|on|by)$/i.test(line) ||
    (/[.!?]$/.test(line) && line.split(/\s+/).length > 12)
  );
}

export function titleFromFirstLine(text: string): Found<string> | undefined {
  const lines = nonEmptyLines(text.slice(0, 5000)).slice(0, 20);
  const line = lines.find(
    (l) =>
      l.length <= 200 &&
      !NOT_A_TITLE_LINE.test(l) &&
      !SECTION_HEADING.test(l) &&
      letterRatio(l) >= 0.5 &&
      !isSentenceLike(l) &&
      isPlausibleTitle(l),
  );
  return line ? { value: squash(line), explanation: 'first non-empty line of the text' } : undefined;
}

export function titleFromFileName(fileName: string): Found<string> {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const stem = base.replace(/\.[^.]+$/, '') || base;
  return { value: stem, explanation: 'file name' };
}

/** Title: embedded metadata when plausible, else a heading, else the first line, else the file name. */
export function findTitle(input: OntologyInput): Found<string> {
  const embedded = input.embeddedMetadata?.title;
  if (embedded && isPlausibleTitle(embedded)) {
    return { value: squash(embedded), explanation: `${embeddedMetadataLabel(input.mediaType)} Title` };
  }
  return (
    (isTabularOrJson(input.mediaType) ? undefined : titleFromHeadings(input.headings)) ??
    (isDataFormat(input.mediaType) ? undefined : titleFromFirstLine(input.firstPageText ?? input.text)) ??
    titleFromFileName(input.fileName)
  );
}
