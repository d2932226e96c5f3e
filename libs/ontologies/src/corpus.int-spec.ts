import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractDocumentMetadata } from './engine';
import { toOntologies } from './ontologies';
import type { HeadingInput, OntologyInput } from './types';

/**
 * The engine on real documents of the shared corpus. Text comes straight from the files (txt, or
 * markup stripped from XML) or, for PDFs and Office files, from their ground-truth Markdown, so that
 * these tests do not depend on the parsers.
 */
const CORPUS = join(__dirname, '../../../../shared/corpus');
const read = (path: string) => readFileSync(join(CORPUS, path), 'utf8');

/** Markdown to engine input: `#` lines become headings; links, images, emphasis and HTML tags go. */
function fromMarkdown(path: string, mediaType: string): OntologyInput {
  const headings: HeadingInput[] = [];
  const text = read(path)
    .split('\n')
    .map((line) => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      const clean = (heading ? heading[2] : line)
        .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\*\*|__/g, '')
        .trim();
      if (heading) headings.push({ level: heading[1].length, text: clean });
      return clean;
    })
    .join('\n');
  return { fileName: path.split('/').pop() as string, mediaType, text, headings };
}

/** XML to plain text: block elements become blank lines, other tags go. */
function fromXml(path: string): OntologyInput {
  const text = read(path)
    .replace(/<\/?(p|title|article-title|sec|abstract|contrib|aff|article-id|journal-title)\b[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n(\s*\n)+/g, '\n\n');
  return { fileName: path.split('/').pop() as string, mediaType: 'application/xml', text, headings: [] };
}

function fromText(path: string): OntologyInput {
  return { fileName: path.split('/').pop() as string, mediaType: 'text/plain', text: read(path), headings: [] };
}

describe('ontology engine on the corpus', () => {
  it('reads a two-column scientific paper: title, byline, English, keyphrases about its subject', () => {
    const r = extractDocumentMetadata(fromMarkdown('pdf/unstructured_multi-column-2p.groundtruth.md', 'application/pdf'));
    expect(r.title).toBe('Dense Passage Retrieval for Open-Domain Question Answering');
    expect(r.authors).toEqual(expect.arrayContaining(['Vladimir Karpukhin', 'Sewon Min', 'Patrick Lewis', 'Danqi Chen', 'Wen-tau Yih']));
    expect(r.language).toBe('en');
    expect(r.description).toMatch(/^Open-domain question answering relies on/);
    expect(r.explanations.description).toMatch(/^abstract section/);
    const top = r.keyphrases
      .slice(0, 5)
      .map((k) => k.text.toLowerCase())
      .join(' | ');
    expect(top).toMatch(/question|passage|retrieval/);
    expect(r.entities.map((e) => e.text)).toContain('Vladimir Karpukhin');
  });

  it("finds a journal article's own DOI, not its funders' or its citations'", () => {
    const elife = extractDocumentMetadata(fromXml('xml/docling_elife-56337.xml'));
    expect(elife.doi).toBe('10.7554/elife.56337');
    expect(elife.language).toBe('en');
    const plos = extractDocumentMetadata(fromXml('xml/docling_pntd.0008301.xml'));
    expect(plos.doi).toBe('10.1371/journal.pntd.0008301');
    expect(plos.keyphrases.map((k) => k.text)).toContain('lymphatic filariasis');
  });

  it('reads the eLife article from its Markdown: title, authors, abstract', () => {
    const r = extractDocumentMetadata(fromMarkdown('xml/docling_elife-56337.groundtruth.md', 'application/xml'));
    expect(r.title).toBe('KRAB-zinc finger protein gene expansion in response to active retrotransposons in the murine lineage');
    expect(r.authors?.slice(0, 3)).toEqual(['Gernot Wolf', 'Alberto de Iaco', 'Ming-An Sun']);
    expect(r.description).toMatch(/Krüppel-associated box zinc finger protein/);
    expect(r.keyphrases.length).toBeGreaterThan(5);
  });

  it('reads a document without a byline: title from its heading, keyphrases, organisations', () => {
    const r = extractDocumentMetadata(fromMarkdown('pdf/docling_multi_page.groundtruth.md', 'application/pdf'));
    expect(r.title).toBe('The Evolution of the Word Processor');
    expect(r.authors).toBeUndefined();
    expect(r.doi).toBeUndefined();
    expect(r.language).toBe('en');
    expect(r.keyphrases[0].text).toBe('word processor');
    expect(r.entities).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Microsoft', type: 'ORGANIZATION' })]));
  });

  it('reads plain text files directly', () => {
    const paper = extractDocumentMetadata(fromText('pdf/pdfminer_naacl06-shinyama.groundtruth.txt'));
    expect(paper.title).toBe('Preemptive Information Extraction using Unrestricted Relation Discovery');
    expect(paper.authors).toEqual(['Yusuke Shinyama', 'Satoshi Sekine']);
    expect(paper.keyphrases.map((k) => k.text)).toContain('Information Extraction');

    const wiki = extractDocumentMetadata(fromText('txt/unstructured_norwich-city.txt'));
    expect(wiki.language).toBe('en');
    expect(wiki.entities).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Iwan Roberts', type: 'PERSON' })]));
  });

  it.each([
    ['pdf/pypdf-samples_GeoTopo-komprimiert.groundtruth.txt', 'de'],
    ['doc/docling_greek_heading_styles.groundtruth.md', 'de'],
    ['pdf/docling_normal_4pages.groundtruth.md', 'ko'],
    ['pdf/docling_right_to_left_01.groundtruth.md', 'ar'],
  ])('detects the language of %s as %s', (path, language) => {
    const input = path.endsWith('.md') ? fromMarkdown(path, 'application/pdf') : fromText(path);
    const r = extractDocumentMetadata(input);
    expect(r.language).toBe(language);
    expect(r.title).toBeTruthy();
  });

  it('gives the same ontologies on every run, with unique concept ids', () => {
    const input = fromMarkdown('pdf/unstructured_multi-column-2p.groundtruth.md', 'application/pdf');
    const first = toOntologies(extractDocumentMetadata(input));
    expect(toOntologies(extractDocumentMetadata(input))).toEqual(first);
    const ids = first.map((o) => o.conceptId.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first[0].name).toBe('Document metadata');
    expect(Object.keys(first[0].metas)).toEqual(['title', 'authors', 'description', 'language']);
  });
});
