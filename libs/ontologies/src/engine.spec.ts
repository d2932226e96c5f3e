import { extractDocumentMetadata } from './engine';
import { toOntologies } from './ontologies';
import { anInput, PROSE } from './testing/factories';

const PAPER = [
  'Table Structure Recognition with Sequences',
  'Jane Smith1, Peter Jones2 and Ann Lee1',
  '1 University of Somewhere 2 Example Labs',
  'Published: 12 March 2021 · DOI: 10.1145/3397271.3401075.',
  'Abstract',
  'We recognise table structure from images. Our model predicts cells directly and works on scanned documents.',
  'Introduction',
  PROSE,
  'Microsoft Corporation and Barack Obama are mentioned here so that entities appear, and Barack Obama twice.',
  'References',
  '[1] A. Person. Older work. doi:10.1000/cited.1',
].join('\n\n');

const paperInput = () =>
  anInput({
    fileName: 'papers/tsr.pdf',
    text: PAPER,
    headings: [
      { level: 1, text: 'Table Structure Recognition with Sequences', page: 1 },
      { level: 2, text: 'Abstract', page: 1 },
      { level: 2, text: 'Introduction', page: 1 },
      { level: 2, text: 'References', page: 2 },
    ],
    embeddedMetadata: { title: 'Microsoft Word - tsr.docx', authors: ['Administrator'] },
  });

describe('extractDocumentMetadata', () => {
  it('fills every field of a typical paper and explains each', () => {
    const r = extractDocumentMetadata(paperInput());
    expect(r.title).toBe('Table Structure Recognition with Sequences');
    expect(r.authors).toEqual(['Jane Smith', 'Peter Jones', 'Ann Lee']);
    expect(r.doi).toBe('10.1145/3397271.3401075');
    expect(r.publicationDate).toBe('2021-03-12');
    expect(r.language).toBe('en');
    expect(r.description).toBe(
      'We recognise table structure from images. Our model predicts cells directly and works on scanned documents.',
    );
    expect(r.keyphrases[0].text).toBe('table structure recognition');
    expect(r.entities.map((e) => [e.text, e.type])).toEqual(
      expect.arrayContaining([
        ['Barack Obama', 'PERSON'],
        ['Microsoft Corporation', 'ORGANIZATION'],
      ]),
    );
    expect(Object.keys(r.explanations).sort()).toEqual(['authors', 'description', 'doi', 'language', 'publicationDate', 'title']);
  });

  it('is deterministic: the same input gives the same result and the same ontology ids', () => {
    const a = extractDocumentMetadata(paperInput());
    const b = extractDocumentMetadata(paperInput());
    expect(b).toEqual(a);
    expect(toOntologies(b)).toEqual(toOntologies(a));
  });

  it('is bounded: text past maxTextChars is not read, caps apply', () => {
    const r = extractDocumentMetadata(anInput({ text: `${PROSE}\n\nDOI 10.1000/late.1` }), {
      maxTextChars: PROSE.length,
      maxKeyphrases: 2,
      maxEntities: 0,
    });
    expect(r.doi).toBeUndefined();
    expect(r.keyphrases).toHaveLength(2);
    expect(r.entities).toEqual([]);
  });

  it('leaves keyphrases and entities out for languages the tagger does not know', () => {
    const german =
      'Die Erkennung von Tabellenstrukturen verwandelt das Bild einer Tabelle in Zeilen, Spalten und Zellen. Das ist schwierig, weil Tabellen in gescannten Dokumenten verbundene Zellen haben. Berlin liegt in Deutschland.';
    const r = extractDocumentMetadata(anInput({ text: german }));
    expect(r.language).toBe('de');
    expect(r.keyphrases).toEqual([]);
    expect(r.entities).toEqual([]);
  });

  it('copes with an empty document', () => {
    const r = extractDocumentMetadata(anInput({ fileName: 'empty.txt', mediaType: 'text/plain' }));
    expect(r).toEqual({ title: 'empty', keyphrases: [], entities: [], explanations: { title: 'file name' } });
  });
});
