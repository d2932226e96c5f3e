import { bibliographicField, cuedQuery, cuedQuestion, preferSection, sectionCue } from './question-cues';

const TITLE = 'Preemptive Information Extraction using Unrestricted Relation Discovery';

describe('bibliographicField', () => {
  it.each([
    ['What is the title of this paper?', 'title'],
    ['What is the paper called?', 'title'],
    ['Who are the authors?', 'authors'],
    ['Who wrote it?', 'authors'],
    ['And who wrote this paper?', 'authors'],
    ['Who wrote "Preemptive Information Extraction"?', 'authors'],
    ['When was it published?', 'publicationDate'],
    ['When was the agreement signed?', 'publicationDate'],
    ['What is the publication date?', 'publicationDate'],
  ])('%s → %s', (question, field) => {
    expect(bibliographicField(question, TITLE)).toBe(field);
  });

  it.each([
    'Who wrote the MUC-6 guidelines?',
    'When was the hurricane reported?',
    'Who is the supplier?',
    'What is Unrestricted Relation Discovery?',
  ])('leaves "%s" to the reader: it asks about something the document mentions', (question) => {
    expect(bibliographicField(question, TITLE)).toBeUndefined();
  });

  it('needs the title to take "Who wrote <title words>?" as a question about the document', () => {
    expect(bibliographicField('Who wrote Preemptive Information Extraction?')).toBeUndefined();
  });
});

describe('section cues', () => {
  it('sends a funding question to the acknowledgements, in their words', () => {
    const cue = sectionCue('And who funded it?');
    expect(cue?.section).toBe('funding');
    expect(cuedQuery('What is this paper about? And who funded it?', cue)).toMatch(/acknowledgements.*supported.*grant/);
    expect(cuedQuestion('And who funded it?', cue)).toBe('And who funded it? Who supported it with a grant or funding?');
  });

  it('reads a question that is not a who-question as asked', () => {
    const cue = sectionCue('How many grants were awarded in 2023?');
    expect(cue?.section).toBe('funding');
    expect(cuedQuestion('How many grants were awarded in 2023?', cue)).toBe('How many grants were awarded in 2023?');
  });

  it('has no cue for questions about things ("the pension fund") or without a section', () => {
    expect(sectionCue('Who audits the pension fund?')).toBeUndefined();
    expect(sectionCue('When was Acme founded?')).toBeUndefined();
    expect(sectionCue('How many universities took part?')).toBeUndefined();
    expect(sectionCue('Which university are the authors at?')?.section).toBe('affiliation');
  });

  it('puts the passages under a matching heading first, keeping their order', () => {
    const p = (text: string, headings: string[]) => ({ text, headings });
    const passages = [p('a', ['1 Background']), p('b', ['Acknowledgements']), p('c', []), p('d', ['Acknowledgments and funding'])];
    expect(preferSection(passages, sectionCue('Who funded the work?')).map((x) => x.text)).toEqual(['b', 'd', 'a', 'c']);
    expect(preferSection(passages, undefined)).toBe(passages);
  });
});
