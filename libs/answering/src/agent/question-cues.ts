/**
 * What a question asks about a document as a whole, read from its words: a bibliographic field
 * the indexing pipeline already found (title, authors, date), or a fact papers state in a section
 * of their own (funding in the acknowledgements, affiliations under the authors, the abstract, the
 * conclusion). Both QA and the agent use it: the first to answer from the document's metadata, the
 * second to search and read the right section.
 */

/** The "Document metadata" fields a question can ask for. */
export type BibliographicField = 'title' | 'authors' | 'publicationDate';

/** Words that name the document itself rather than something it mentions. */
const DOCUMENT_WORDS =
  '(?:paper|document|article|report|study|work|book|thesis|publication|manuscript|file|text|agreement|contract|letter|memo|chapter|preprint|it|this|that)';
const DOCUMENT_REF = new RegExp(`^(?:(?:this|the|that|our|your|these)\\s+)?${DOCUMENT_WORDS}$`, 'i');

const TITLE = [
  /\b(?:what|which)\s+(?:is|was)\s+(?:the\s+)?(?:full\s+)?title\b/i,
  /\btitle\s+of\s+(?:this|the|that)\b/i,
  /\bwhat\s+is\s+(?:this|the)\s+\w+\s+(?:called|titled|entitled)\b/i,
  /\bwhat\s+is\s+the\s+name\s+of\s+(?:this|the)\s+(?:paper|document|article|report|study|book|thesis)\b/i,
];
const AUTHORS = [
  /\bwho\s+(?:are|is|were|was)\s+(?:the\s+|its\s+|their\s+)?(?:authors?|writers?)\b/i,
  /\b(?:name|list)\s+(?:of\s+)?(?:the\s+)?authors?\b/i,
  /\bauthors?\s+of\s+(?:this|the|that)\b/i,
  /\bwhat\s+are\s+the\s+authors?\b/i,
];
/** "Who wrote X?": X must name the document (a pronoun, "the paper", or words of its title). */
const WHO_WROTE = /\bwho\s+(?:wrote|authored|has\s+written|co-?authored)\s+(.+?)\s*\??$/i;
const WRITTEN_BY = /\b(.+?)\s+(?:was|is)\s+written\s+by\s+whom\b|\bby\s+whom\s+was\s+(.+?)\s+written\b/i;
/** "When was X published / issued / signed / released / dated?" */
const WHEN_DONE =
  /\bwhen\s+(?:was|were|is)\s+(.+?)\s+(?:first\s+)?(?:published|issued|signed|released|dated|written|submitted|executed)\b/i;
const DATE_NOUN = [
  /\b(?:publication|issue|release|signature)\s+date\b/i,
  /\bdate\s+of\s+(?:publication|issue|release|signature|this|the)\b/i,
  /\bwhat\s+(?:year|date)\s+was\s+(.+?)\s+(?:published|issued|signed|released|written)\b/i,
];

/** A bibliographic question: the field it asks for, and whether it names the document by words of its title. */
export interface BibliographicQuestion {
  field: BibliographicField;
  byTitle: boolean;
}

/**
 * The bibliographic field a question asks for, when it asks it of the document itself: "What is
 * the title of this paper?", "Who are the authors?", "Who wrote it?", "When was the agreement
 * signed?". `title`, when known, lets "Who wrote <the title>?" count too. A question about
 * something the document mentions ("Who wrote the MUC-6 guidelines?") is not bibliographic.
 */
export function bibliographicField(question: string, title?: string): BibliographicField | undefined {
  return bibliographicQuestion(question, title)?.field;
}

/** As bibliographicField, saying also whether the question named the document by its title (which picks it among several). */
export function bibliographicQuestion(question: string, title?: string): BibliographicQuestion | undefined {
  const q = question.trim();
  const as = (field: BibliographicField, named: DocumentNaming = 'reference') =>
    named ? { field, byTitle: named === 'title' } : undefined;
  if (TITLE.some((re) => re.test(q))) return as('title');
  if (AUTHORS.some((re) => re.test(q))) return as('authors');
  const wrote = WHO_WROTE.exec(q) ?? WRITTEN_BY.exec(q);
  if (wrote) return as('authors', documentNaming(wrote[1] ?? wrote[2], title));
  const when = WHEN_DONE.exec(q);
  if (when) return as('publicationDate', documentNaming(when[1], title));
  for (const re of DATE_NOUN) {
    const m = re.exec(q);
    if (m) return as('publicationDate', m[1] === undefined ? 'reference' : documentNaming(m[1], title));
  }
  return undefined;
}

type DocumentNaming = 'reference' | 'title' | false;

/** Whether words of a question name the document: "it", "this paper", "the agreement", or most of its title. */
export function namesDocument(words: string, title?: string): boolean {
  return !!documentNaming(words, title);
}

function documentNaming(words: string, title?: string): DocumentNaming {
  const phrase = words.replace(/["“”'‘’?]/g, '').trim();
  if (DOCUMENT_REF.test(phrase)) return 'reference';
  if (!title) return false;
  const named = contentWords(phrase);
  if (!named.length) return false;
  const inTitle = new Set(contentWords(title));
  return named.filter((w) => inTitle.has(w)).length / named.length >= 0.6 ? 'title' : false;
}

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'for', 'to', 'in', 'on', 'with', 'by', 'using', 'this', 'that', 'paper']);
const contentWords = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP.has(w));

/**
 * A section where papers and reports state a kind of fact. `terms` join the search query (and
 * the headings of passages are matched against `headings`); `paraphrase` is the question in the
 * words such sections use, read together with the user's question ("funded" is rarely written:
 * "supported by … under Grant …" is).
 */
export interface SectionCue {
  section: 'funding' | 'affiliation' | 'abstract' | 'conclusion';
  terms: string[];
  headings: RegExp;
  paraphrase?: string;
}

const SECTION_CUES: Array<SectionCue & { asks: RegExp }> = [
  {
    section: 'funding',
    // Not a bare "fund": "the pension fund" is a thing, not a question about funding.
    asks: /\b(?:fund(?:ed|ing|ers?)|who\s+funds|financ(?:ed|ing|ier|iers)|sponsor\w*|grants?|paid\s+for|pays?\s+for)\b/i,
    terms: ['acknowledgements', 'funding', 'supported', 'grant', 'foundation'],
    headings: /acknowledg|funding|financial support/i,
    paraphrase: 'Who supported it with a grant or funding?',
  },
  {
    section: 'affiliation',
    asks: /\baffiliat\w*|\b(?:which|what)\s+(?:universit(?:y|ies)|institut\w*|lab\w*|organi[sz]ations?)\s+(?:are|is|were|was|do|does)\s+(?:the\s+)?(?:authors?|they|he|she|researchers?)\b|\bwhere\s+do\s+(?:the\s+authors|they)\s+work\b/i,
    terms: ['university', 'institute', 'department', 'laboratory', 'affiliation'],
    headings: /affiliation|author/i,
    paraphrase: 'At which university or institute are the authors?',
  },
  {
    section: 'abstract',
    asks: /\b(?:abstract|summary|summari[sz]e|main\s+(?:idea|contribution|point)|what\s+is\s+(?:it|this\s+\w+|the\s+\w+)\s+about)\b/i,
    terms: ['abstract', 'propose', 'present'],
    headings: /abstract|summary/i,
  },
  {
    section: 'conclusion',
    asks: /\b(?:conclu\w*|findings?|future\s+work|take-?aways?)\b/i,
    terms: ['conclusion', 'conclude', 'future work'],
    headings: /conclu|discussion|future work/i,
  },
];

/** The section a question's answer is usually stated in, if its words say. */
export function sectionCue(question: string): SectionCue | undefined {
  const cue = SECTION_CUES.find((c) => c.asks.test(question));
  if (!cue) return undefined;
  const { asks: _asks, ...rest } = cue;
  return rest;
}

/** The search query for a question: its words, and the words of the section that states such facts. */
export function cuedQuery(query: string, cue: SectionCue | undefined): string {
  return cue ? `${query} ${cue.terms.join(' ')}` : query;
}

/** Questions asking for who or which body: the only ones a paraphrase of "who funded it?" may be read with. */
const ASKS_WHO =
  /^\s*(?:and\s+|but\s+|so\s+)?(?:who|whom|by\s+whom|which|what\s+(?:organi[sz]ations?|agenc(?:y|ies)|foundations?|institut\w*|universit(?:y|ies)|bod(?:y|ies)|grants?|funding))\b/i;

/**
 * The question as the reader reads it: a who/which question with the cue's paraphrase after it, so
 * that the section's own words count as the question's ("Who funded it?" finds "supported by …").
 * Other questions ("How many grants were awarded?") are read as asked.
 */
export function cuedQuestion(question: string, cue: SectionCue | undefined): string {
  return cue?.paraphrase && ASKS_WHO.test(question) ? `${question} ${cue.paraphrase}` : question;
}

/**
 * Passages under a heading of the cued section first (in their order), then the others: a
 * heading says what a passage is about better than its words match a short question.
 */
export function preferSection<P extends { headings: string[]; text: string }>(passages: P[], cue: SectionCue | undefined): P[] {
  if (!cue) return passages;
  const inSection = (p: P) => p.headings.some((h) => cue.headings.test(h));
  const first = passages.filter(inSection);
  return first.length ? [...first, ...passages.filter((p) => !inSection(p))] : passages;
}
