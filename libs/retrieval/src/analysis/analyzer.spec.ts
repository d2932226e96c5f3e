import { analyze, termFrequencies } from './analyzer';

describe('analyze', () => {
  it('lower-cases, drops stop words and stems', () => {
    expect(analyze('The Tenant shall give NOTICE of termination to the Landlord')).toEqual([
      'tenant',
      'shall',
      'give',
      'notic',
      'termin',
      'landlord',
    ]);
  });

  it('maps inflected forms to the same term', () => {
    expect(analyze('terminates terminated terminating termination')).toEqual(['termin', 'termin', 'termin', 'termin']);
    expect(analyze('Payments paid; paying')).toEqual(['payment', 'paid', 'pai']);
  });

  it('splits on Unicode word boundaries, not only ASCII', () => {
    expect(analyze('Zahlung—Kündigung/délai,préavis')).toEqual(['zahlung', 'kundigung', 'delai', 'preavi']);
    expect(analyze('Привет, мир')).toEqual(['привет', 'мир']);
    // Chinese has no spaces; the segmenter still finds words.
    expect(analyze('租赁合同').length).toBeGreaterThan(1);
  });

  it('folds Latin diacritics and compatibility forms', () => {
    expect(analyze('résumé RÉSUMÉ resume')).toEqual(['resum', 'resum', 'resum']);
    expect(analyze('ﬁnance')).toEqual(analyze('finance'));
  });

  it('removes possessives and apostrophes', () => {
    expect(analyze("the company's and the Company’s")).toEqual(['compani', 'compani']);
    expect(analyze("don't")).toEqual(['dont']);
  });

  it('keeps numbers and drops punctuation and overlong tokens', () => {
    expect(analyze('Section 4.2: €1,500 due 2024-01-31!')).toEqual(['section', '4.2', '1,500', 'due', '2024', '01', '31']);
    expect(analyze('x'.repeat(65))).toEqual([]);
    expect(analyze('... --- !!!')).toEqual([]);
    expect(analyze('')).toEqual([]);
  });
});

describe('analyze, repeated', () => {
  it('gives a word the same term every time it is seen (the word cache changes nothing)', () => {
    const text = "Résumés of the tenants' terminated leases: Tenant's résumé, TERMINATED, don't";
    const first = analyze(text);
    expect(first).toEqual(['resum', 'tenant', 'termin', 'leas', 'tenant', 'resum', 'termin', 'dont']);
    for (let i = 0; i < 3; i++) expect(analyze(text)).toEqual(first);
    // More distinct words than the cache holds: it is emptied and refilled, terms unchanged.
    const many = Array.from({ length: 120_000 }, (_, i) => `terminated${i}`);
    expect(analyze(many.join(' '))).toEqual(many);
    expect(analyze(text)).toEqual(first);
  });
});

describe('termFrequencies', () => {
  it('counts terms after analysis and gives the analysed length', () => {
    const { length, tf } = termFrequencies('Notice, notices and the noticed notice period');
    expect(length).toBe(5);
    expect(Object.fromEntries(tf)).toEqual({ notic: 4, period: 1 });
  });
});

describe('analyze on long texts', () => {
  it('reads a text longer than one segmenter piece without splitting words at the cuts', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `termination${i % 7}x`);
    const text = words.join(' ');
    const terms = analyze(text);
    expect(terms).toHaveLength(words.length);
    expect(new Set(terms)).toEqual(new Set(words.slice(0, 7).map((w) => analyze(w)[0])));
    // A run with no whitespace at all is cut anywhere, and still read.
    expect(analyze('a'.repeat(5000)).length).toBe(0); // over MAX_TERM_LENGTH pieces are dropped, not crashed on
  });
});
