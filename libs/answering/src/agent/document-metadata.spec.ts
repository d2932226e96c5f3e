import type { OntologyDto } from '@docintel/contracts';
import { answerFromMetadata, bibliographicTarget, locateValue, metadataValues, type LocatablePassage } from './document-metadata';

const metadata = (metas: Record<string, unknown>): OntologyDto[] => [
  {
    conceptId: { id: 'c-1', entityType: 'CONCEPT_NOTE' },
    name: 'Document metadata',
    metas: Object.fromEntries(
      Object.entries(metas).map(([k, v]) => [k, { metaName: k, metaValue: v, explanation: `${k} of the first page` }]),
    ),
  } as OntologyDto,
];

describe('locateValue', () => {
  it('finds a title broken over lines and hyphenated, whatever its case', () => {
    const text = 'PREEMPTIVE INFORMATION EXTRAC-\nTION USING UNRESTRICTED RELATION DISCOVERY';
    const at = locateValue('Preemptive Information Extraction using Unrestricted Relation Discovery', 'title', text);
    expect(at).toEqual({ start: 0, end: text.length });
  });

  it('finds a name only as a whole word', () => {
    expect(locateValue('Sekine', 'authors', 'Satoshi Sekinel')).toBeUndefined();
    expect(locateValue('Satoshi Sekine', 'authors', 'Yusuke Shinyama and Satoshi  Sekine')).toEqual({ start: 20, end: 35 });
  });

  it('finds a date as the document writes it, at the precision of the metadata', () => {
    const text = 'Signed in Springfield on 14 March 2023 by both parties.';
    expect(locateValue('2023-03-14', 'publicationDate', text)).toEqual({ start: 25, end: 38 });
    expect(locateValue('2023-03-15', 'publicationDate', text)).toBeUndefined();
    // A bare year in the text does not place a full date.
    expect(locateValue('2023-03-14', 'publicationDate', 'Annual report 2023')).toBeUndefined();
    expect(locateValue('2023', 'publicationDate', 'Annual report 2023')).toEqual({ start: 14, end: 18 });
  });
});

describe('answerFromMetadata', () => {
  const passages: Record<string, LocatablePassage[]> = {
    paper: [
      { id: 'abstract', nodeType: 'paragraph', text: 'In Preemptive Information Extraction, we discover relations.' },
      { id: 'title', nodeType: 'heading', text: 'Preemptive Information Extraction' },
      { id: 'author-1', nodeType: 'paragraph', text: 'Yusuke Shinyama' },
      { id: 'author-2', nodeType: 'paragraph', text: 'Satoshi Sekine' },
    ],
  };
  const search = (query: string, fileId: string) =>
    Promise.resolve((passages[fileId] ?? []).filter((p) => p.text.toLowerCase().includes(query.toLowerCase().split(' ')[0])));

  it('cites the title at its heading rather than a paragraph quoting it', async () => {
    const sources = [{ fileId: 'paper', fileName: 'paper.pdf', ontologies: metadata({ title: 'Preemptive Information Extraction' }) }];
    const found = await answerFromMetadata('What is the title of this paper?', sources, search);
    expect(found?.located.map((l) => l.passage.id)).toEqual(['title']);
    expect(found?.explanation).toMatch(/document metadata of paper\.pdf \(title of the first page\)/);
  });

  it('answers each author the document shows, at its line, and leaves out one it does not show', async () => {
    const sources = [
      { fileId: 'paper', fileName: 'paper.pdf', ontologies: metadata({ authors: ['Yusuke Shinyama', 'Satoshi Sekine', 'John Smith'] }) },
    ];
    const found = await answerFromMetadata('Who are the authors?', sources, search);
    expect(found?.located.map((l) => [l.value, l.passage.id])).toEqual([
      ['Yusuke Shinyama', 'author-1'],
      ['Satoshi Sekine', 'author-2'],
    ]);
    expect(found?.unlocated).toEqual(['John Smith']);
    expect(found?.explanation).toMatch(/does not show them: John Smith/);
  });

  it('answers nothing from metadata the document does not show, nor from a file without the field', async () => {
    const stale = [{ fileId: 'paper', fileName: 'paper.pdf', ontologies: metadata({ title: 'Microsoft Word - draft7.doc' }) }];
    expect(await answerFromMetadata('What is the title of this paper?', stale, search)).toBeUndefined();
    expect(await answerFromMetadata('Who wrote it?', [{ fileId: 'paper', fileName: 'paper.pdf', ontologies: [] }], search)).toBeUndefined();
    expect(metadataValues(metadata({ authors: [] }), 'authors')).toEqual([]);
  });

  it('among several files, answers only for the file the question names by its title', async () => {
    const other = { fileId: 'other', fileName: 'other.pdf', ontologies: metadata({ title: 'Annual Report', authors: ['Jane Doe'] }) };
    const paper = {
      fileId: 'paper',
      fileName: 'paper.pdf',
      ontologies: metadata({ title: 'Preemptive Information Extraction', authors: ['Yusuke Shinyama'] }),
    };
    expect(bibliographicTarget('Who are the authors?', [other, paper])).toBeUndefined();
    expect(bibliographicTarget('Who wrote Preemptive Information Extraction?', [other, paper])).toEqual({
      field: 'authors',
      sources: [paper],
    });
    const found = await answerFromMetadata('Who wrote Preemptive Information Extraction?', [other, paper], search);
    expect(found).toMatchObject({ fileName: 'paper.pdf', located: [{ value: 'Yusuke Shinyama' }] });
  });
});
