import { authorsFromByline, cleanEmbeddedAuthors, findAuthors, looksLikePersonName, stripAffiliationMarkers } from './authors';
import { anInput } from './testing/factories';

describe('authors', () => {
  it('takes the embedded Author field and splits lists, keeping "Last, First" whole', () => {
    expect(cleanEmbeddedAuthors(['Jane Smith; John Doe'])).toEqual(['Jane Smith', 'John Doe']);
    expect(cleanEmbeddedAuthors(['Jane Smith, John Doe and Ann Lee'])).toEqual(['Jane Smith', 'John Doe', 'Ann Lee']);
    expect(cleanEmbeddedAuthors(['Smith, John'])).toEqual(['Smith, John']);
    expect(cleanEmbeddedAuthors(['Administrator', 'user', 'jane@example.org', ''])).toEqual([]);
  });

  it('explains where the embedded authors came from', () => {
    const found = findAuthors(anInput({ embeddedMetadata: { authors: ['Jane Smith'] } }), undefined);
    expect(found).toEqual({ value: ['Jane Smith'], explanation: 'PDF metadata Author' });
  });

  it('strips affiliation markers', () => {
    expect(stripAffiliationMarkers('Jane Smith1,2, John Doe*† and Ann Lee³').text).toBe('Jane Smith, John Doe and Ann Lee');
    expect(stripAffiliationMarkers('Jane Smith1,2').hadMarkers).toBe(true);
  });

  it('recognises name shapes', () => {
    for (const name of ['Jane Smith', 'J. R. Smith', 'Ludwig van Beethoven', "Mary O'Neil", 'Jean-Pierre Dupont', 'Wen-tau Yih']) {
      expect(looksLikePersonName(name)).toBe(true);
    }
    for (const name of ['Smith', 'Department of Physics', 'the model', 'Jane S.', 'University College London']) {
      expect(looksLikePersonName(name)).toBe(false);
    }
  });

  it('reads the byline under the title, skipping affiliations and stopping at the abstract', () => {
    const top = [
      'Dense Passage Retrieval for',
      'Open-Domain Question Answering',
      'Vladimir Karpukhin∗, Barlas O˘guz∗, Sewon Min†, Patrick Lewis',
      'Danqi Chen‡ and Wen-tau Yih',
      'Facebook AI',
      '†University of Washington',
      'Abstract',
      'Open-domain question answering relies on efficient passage retrieval.',
    ].join('\n');
    expect(authorsFromByline(top, 'Dense Passage Retrieval for Open-Domain Question Answering')).toEqual([
      'Vladimir Karpukhin',
      'Barlas O˘guz',
      'Sewon Min',
      'Patrick Lewis',
      'Danqi Chen',
      'Wen-tau Yih',
    ]);
  });

  it('does not take a capitalised subtitle for a byline', () => {
    const top = 'Table Recognition\nDeep Learning Methods\nAbstract\nWe study tables.';
    expect(authorsFromByline(top, 'Table Recognition')).toBeUndefined();
  });

  it('finds the byline in the first page text when there is no embedded author', () => {
    const input = anInput({ firstPageText: 'A Study of Ducks\nJane Smith and Peter Jones\nUniversity of Somewhere', text: 'ignored' });
    expect(findAuthors(input, 'A Study of Ducks')).toEqual({
      value: ['Jane Smith', 'Peter Jones'],
      explanation: 'byline under the title on the first page',
    });
  });
});

describe('byline with one author per line', () => {
  it('takes a name-shaped line next to a recognised one', () => {
    const top = 'Preemptive Information Extraction\nYusuke Shinyama\nSatoshi Sekine\nNew York University\nAbstract';
    expect(authorsFromByline(top, 'Preemptive Information Extraction')).toEqual(['Yusuke Shinyama', 'Satoshi Sekine']);
  });
});

describe('byline over several lines and template metadata', () => {
  it('joins a name broken across lines and skips marker-only lines', () => {
    const top = [
      'LayoutParser: A Unified Toolkit',
      'Zejiang Shen (\u0000), Ruochen Zhang , Melissa Dell , Benjamin Charles Germain',
      '1 2 3',
      'Lee , Jacob Carlson , and Weining Li',
      '4 3 5',
      'Allen Institute for AI',
    ].join('\n');
    expect(authorsFromByline(top, 'LayoutParser: A Unified Toolkit')).toEqual([
      'Zejiang Shen',
      'Ruochen Zhang',
      'Melissa Dell',
      'Benjamin Charles Germain Lee',
      'Jacob Carlson',
      'Weining Li',
    ]);
  });

  it('drops placeholder authors and splits on runs of spaces', () => {
    expect(cleanEmbeddedAuthors(['IEEE'])).toEqual([]);
    expect(cleanEmbeddedAuthors(['Jonathan Bragg  Jeff Hammerbacher'])).toEqual(['Jonathan Bragg', 'Jeff Hammerbacher']);
  });
});

describe('byline markers on their own line', () => {
  it('counts a marker-only line as the sign that the names are authors', () => {
    const top = 'Scalability of Microrobots\n1*\n1\nVahid Foroutan , Ratul Majumdar\n1\nDepartment of Electrical Engineering\nAbstract';
    expect(authorsFromByline(top, 'Scalability of Microrobots')).toEqual(['Vahid Foroutan', 'Ratul Majumdar']);
  });
});
