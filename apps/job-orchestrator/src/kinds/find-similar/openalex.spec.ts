import { RemoteLookupError } from './bibliographic-source';
import { abstractFromInvertedIndex, OpenAlexSource, workFromOpenAlex, workPath } from './openalex';
import { openAlexWork, startOpenAlexServer, type TestOpenAlexServer } from './openalex-test-server';
import { workOntologies } from './work-ontologies';

const ELIFE = openAlexWork({
  id: 'https://openalex.org/W3034445466',
  doi: '10.7554/eLife.56337',
  title: 'KRAB-zinc finger protein gene expansion in response to active retrotransposons in the murine lineage',
  authors: ['Gernot Wolf', 'Alberto de Iaco', 'Ming-An Sun'],
  year: 2020,
  abstract: 'The Krüppel-associated box zinc finger protein family expanded in mice.',
  keywords: ['KRAB zinc finger', 'retrotransposon'],
});

describe('the OpenAlex mapping', () => {
  it('reads a Work: id, bare DOI, title, authors, year, abstract from the inverted index, specific keywords only', () => {
    const work = workFromOpenAlex(ELIFE);
    expect(work).toEqual({
      id: 'https://openalex.org/W3034445466',
      doi: '10.7554/elife.56337',
      title: 'KRAB-zinc finger protein gene expansion in response to active retrotransposons in the murine lineage',
      authors: ['Gernot Wolf', 'Alberto de Iaco', 'Ming-An Sun'],
      year: 2020,
      abstract: 'The Krüppel-associated box zinc finger protein family expanded in mice.',
      keywords: ['KRAB zinc finger', 'retrotransposon'], // "Biology" is a level-0 concept: too broad to say what the work is about
    });
    expect(workFromOpenAlex({ id: 'https://openalex.org/W1', title: null, display_name: '' })).toBeNull();
    expect(abstractFromInvertedIndex({ world: [1], hello: [0] })).toBe('hello world');
  });

  it('gives the work ontologies in the shape files have them', () => {
    const ontologies = workOntologies(workFromOpenAlex(ELIFE) as NonNullable<ReturnType<typeof workFromOpenAlex>>, 'openalex');
    expect(ontologies[0]).toMatchObject({
      name: 'Document metadata',
      conceptId: { entityType: 'CONCEPT_NOTE' },
      metas: {
        doi: { metaValue: '10.7554/elife.56337' },
        authors: { metaValue: ['Gernot Wolf', 'Alberto de Iaco', 'Ming-An Sun'] },
        publicationDate: { metaValue: '2020' },
      },
    });
    expect(ontologies.slice(1).map((o) => [o.name, o.metas?.type?.metaValue])).toEqual([
      ['KRAB zinc finger', 'KEYPHRASE'],
      ['retrotransposon', 'KEYPHRASE'],
    ]);
  });

  it('looks works up by OpenAlex URNs', () => {
    expect(workPath({ kind: 'doi', value: '10.7554/elife.56337' })).toBe('/works/doi:10.7554/elife.56337');
    expect(workPath({ kind: 'pmcid', value: 'PMC7000123' })).toBe('/works/pmcid:PMC7000123');
  });
});

describe('OpenAlexSource against a local server speaking the OpenAlex works API', () => {
  let server: TestOpenAlexServer;
  const source = (extra: Partial<ConstructorParameters<typeof OpenAlexSource>[0]> = {}) =>
    new OpenAlexSource({ baseUrl: server.baseUrl, timeoutMs: 500, retries: 2, retryBaseDelayMs: 5, mailto: 'ops@example.org', ...extra });

  beforeAll(async () => {
    server = await startOpenAlexServer();
    server.addWork(['doi:10.7554/elife.56337', 'pmcid:PMC7000123'], ELIFE);
  });
  afterAll(() => server.stop());
  beforeEach(() => server.reset());

  it('finds a work by DOI or PMCID, sends the mailto, and answers null for an unknown one', async () => {
    expect(await source().lookup({ kind: 'doi', value: '10.7554/elife.56337' })).toMatchObject({
      id: 'https://openalex.org/W3034445466',
      year: 2020,
    });
    expect(await source().lookup({ kind: 'pmcid', value: 'PMC7000123' })).toMatchObject({ doi: '10.7554/elife.56337' });
    expect(await source().lookup({ kind: 'doi', value: '10.9999/unknown' })).toBeNull();
    expect(server.requests[0]).toBe('/works/doi:10.7554/elife.56337?mailto=ops%40example.org');
  });

  it('retries a 429 and a 500, then answers', async () => {
    server.failNext({ status: 429, retryAfter: 0 }, { status: 500 });
    expect(await source().lookup({ kind: 'doi', value: '10.7554/elife.56337' })).toMatchObject({ title: expect.stringContaining('KRAB') });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after its retries on a server that keeps failing, naming the URL and the status', async () => {
    server.failAlways({ status: 503 });
    const err = await source()
      .lookup({ kind: 'doi', value: '10.7554/elife.56337' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteLookupError);
    expect((err as Error).message).toMatch(/after 3 attempts: HTTP 503/);
    expect((err as Error).message).toContain(`${server.baseUrl}/works/doi:10.7554/elife.56337`);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a client error, and times out a server that never answers', async () => {
    server.failNext({ status: 403 });
    await expect(source().lookup({ kind: 'doi', value: '10.7554/elife.56337' })).rejects.toThrow(/after 1 attempt: HTTP 403/);
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.failAlways('hang');
    const started = Date.now();
    await expect(source({ timeoutMs: 200, retries: 1 }).lookup({ kind: 'doi', value: '10.7554/elife.56337' })).rejects.toThrow(
      /no answer within 200 ms/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an unreachable server as a failed lookup', async () => {
    const gone = new OpenAlexSource({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 500, retries: 1, retryBaseDelayMs: 5 });
    await expect(gone.lookup({ kind: 'doi', value: '10.1/x' })).rejects.toBeInstanceOf(RemoteLookupError);
  });
});
