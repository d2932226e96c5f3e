import { TestStack } from '@docintel/testing';
import { ok } from './support/client';
import { errorBody, json } from './support/http';
import { Indexer, type IndexedFile } from './support/indexing';

/**
 * POST /api/core/passages/search (an extension) with every service running: the search the jobs
 * use, over every indexed file of the caller's namespace or over the files named; never another
 * namespace's passages, and bad input answered 400 naming the field.
 */
describe('passage search across a namespace', () => {
  let stack: TestStack;
  let alice: Indexer;
  let carol: Indexer;
  let invoice: IndexedFile;
  let minutes: IndexedFile;
  let theirs: IndexedFile;

  const INVOICE = 'INVOICE 2026-077\nThe invoice total is 2,340 EUR, due on 9 May 2026.\nPayment by bank transfer to Initech.\n';
  const MINUTES = 'Minutes of the annual meeting of the rowing club.\nThe club was founded by Mary Jones in 1948.\n';
  const SECRET = 'Globex confidential: the invoice total of the zeppelin order is 9,999,999 EUR.\n';

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'search' });
    alice = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    carol = await Indexer.forNamespace(stack, 'globex', 'carol@globex.test');
    invoice = await alice.settled((await alice.index('search/invoice.txt', { bytes: INVOICE })).id.id);
    minutes = await alice.settled((await alice.index('search/minutes.txt', { bytes: MINUTES })).id.id);
    theirs = await carol.settled((await carol.index('search/globex-secret.txt', { bytes: SECRET })).id.id);
    for (const f of [invoice, minutes, theirs]) expect(f.lastIndexationInfos.status).toBe('SUCCESS');
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const search = (who: Indexer, body: Record<string, unknown>) => who.call('POST', '/api/core/passages/search', body);

  it("finds the best passages across every indexed file of the caller's namespace, best first, with their files", async () => {
    const reply = await ok(alice.api.POST('/api/core/passages/search', { body: { query: 'What is the invoice total?' } }));
    expect(reply.passages.length).toBeGreaterThan(0);
    expect(reply.passages[0]).toMatchObject({ fileId: invoice.id.id, fileName: 'invoice.txt', text: expect.stringContaining('2,340 EUR') });
    const scores = reply.passages.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const club = await ok(alice.api.POST('/api/core/passages/search', { body: { query: 'who founded the rowing club', limit: 1 } }));
    expect(club.passages).toHaveLength(1);
    expect(club.passages[0].fileId).toBe(minutes.id.id);
  });

  it("never returns another namespace's passages, even when asked for its file by id", async () => {
    const mine = await ok(
      alice.api.POST('/api/core/passages/search', { body: { query: 'zeppelin order invoice total Globex confidential', limit: 50 } }),
    );
    expect(mine.passages.map((p) => p.fileId)).not.toContain(theirs.id.id);
    expect(JSON.stringify(mine)).not.toContain('zeppelin');

    const named = await ok(alice.api.POST('/api/core/passages/search', { body: { query: 'zeppelin', fileIds: [theirs.id.id] } }));
    expect(named.passages).toEqual([]);

    const own = await ok(carol.api.POST('/api/core/passages/search', { body: { query: 'zeppelin' } }));
    expect(own.passages.map((p) => p.fileId)).toEqual([theirs.id.id]);
  });

  it('searches only the files named when fileIds is given', async () => {
    const reply = await ok(alice.api.POST('/api/core/passages/search', { body: { query: 'invoice total', fileIds: [minutes.id.id] } }));
    for (const p of reply.passages) expect(p.fileId).toBe(minutes.id.id);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no query', {}, 'query'],
    ['a blank query', { query: '   ' }, 'query'],
    ['a query over 2,000 characters', { query: 'x'.repeat(2001) }, 'query'],
    ['a query that is not text', { query: 42 }, 'query'],
    ['a limit of 0', { query: 'invoice', limit: 0 }, 'limit'],
    ['a limit over 50', { query: 'invoice', limit: 51 }, 'limit'],
    ['a limit that is not a number', { query: 'invoice', limit: 'ten' }, 'limit'],
    ['an empty fileIds', { query: 'invoice', fileIds: [] }, 'fileIds'],
    ['a fileId that is not a UUID', { query: 'invoice', fileIds: ['not-a-uuid'] }, 'fileIds'],
    ['fileIds that is not a list', { query: 'invoice', fileIds: 'x' }, 'fileIds'],
  ])('answers 400 naming the field for %s', async (_label, body, field) => {
    const err = await errorBody(await search(alice, body), 400, 'VALIDATION_FAILED');
    expect(err.details.map((d) => d.field)).toContain(field);
  });

  it('answers 400 naming the query for a lone surrogate or a NUL, and keeps serving', async () => {
    const raw = await fetch(`${stack.baseUrl}/api/core/passages/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: '{"query":"invoice \\ud800 total"}',
    });
    const err = await errorBody(raw, 400, 'VALIDATION_FAILED');
    expect(err.details.map((d) => d.field)).toEqual(['query']);
    const nul = await errorBody(await search(alice, { query: 'invoice\u0000total' }), 400, 'VALIDATION_FAILED');
    expect(nul.details).toEqual([{ field: 'query', problem: expect.stringContaining('NUL') }]);
    const after = await json<{ passages: Array<{ fileId: string }> }>(await search(alice, { query: 'invoice total' }));
    expect(after.passages[0].fileId).toBe(invoice.id.id);
  });

  it('refuses a request without a token', async () => {
    const res = await fetch(`${stack.baseUrl}/api/core/passages/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'invoice' }),
    });
    await errorBody(res, 401, 'UNAUTHENTICATED');
  });
});
