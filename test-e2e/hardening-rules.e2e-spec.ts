import { Client } from 'pg';
import { TestStack } from '@docintel/testing';
import { Indexer } from './support/indexing';

const HUGE = 'a'.repeat(600_000);

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details: Array<{ field: string; problem: string }>;
}

interface Rule {
  trigger_id: string;
  filter: Record<string, unknown>;
  problems?: Array<{ field: string; problem: string }>;
  filter_truncated?: boolean;
}

/** Hardening of /v1/rules: bounded filters, RE2 patterns, a required filter, and a rules-engine that stays up. */
describe('/v1/rules hardening', () => {
  let stack: TestStack;
  let acme: Indexer;
  let db: Client;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'hardrules', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    acme = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const put = (trigger: string, body: unknown) => acme.call('PUT', `/v1/rules/${trigger}`, body);
  const rule = async (trigger: string): Promise<Rule> => (await (await acme.call('GET', `/v1/rules/${trigger}`)).json()) as Rule;
  const rulesEngineAlive = () => expect(stack.apps.get('rules-engine')?.process.exitCode).toBeNull();

  async function badRequest(res: Response): Promise<ErrorBody> {
    const body = (await res.json()) as ErrorBody;
    expect({ status: res.status, code: body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    return body;
  }

  it('refuses a filter string over the length limit and a filter over the size limit, naming field and limit', async () => {
    for (const trigger of ['corpus_parsing', 'node_embedding']) {
      const body = await badRequest(await put(trigger, { filter: { mime_types: [HUGE] } }));
      expect(body.details).toEqual([
        { field: 'filter.mime_types[0]', problem: 'must be at most 1000 characters long' },
        { field: 'filter', problem: 'is 600019 bytes as JSON, the limit is 16384 bytes' },
      ]);
    }
    const tooMany = await badRequest(
      await put('corpus_parsing', { filter: { mime_types: Array.from({ length: 101 }, (_, i) => `type/${i}`) } }),
    );
    expect(tooMany.details).toEqual([{ field: 'filter.mime_types', problem: 'must have at most 100 items' }]);

    const list = await acme.call('GET', '/v1/rules');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { rules: Rule[] }).rules.map((r) => r.filter)).toEqual([{}, {}, {}]);
    rulesEngineAlive();
  });

  it('lists rules stored oversized before the limits, shortened and with their problems, and does not apply them', async () => {
    await acme.call('GET', '/v1/rules'); // the namespace's default rules exist
    for (const trigger of ['corpus_parsing', 'node_embedding']) {
      await db.query(`UPDATE rules.rules SET filter = $2::jsonb WHERE namespace = 'acme' AND trigger_id = $1`, [
        trigger,
        JSON.stringify({ mime_types: [HUGE, 'text/plain'] }),
      ]);
    }
    // Twice: before, the first GET ended the rules-engine, and each one after its restart.
    for (let i = 0; i < 2; i++) {
      const res = await acme.call('GET', '/v1/rules');
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.length).toBeLessThan(64 * 1024);
      const rules = (JSON.parse(text) as { rules: Rule[] }).rules;
      const parsing = rules.find((r) => r.trigger_id === 'corpus_parsing') as Rule;
      expect(parsing).toMatchObject({
        filter: { mime_types: ['a'.repeat(1000), 'text/plain'] },
        filter_truncated: true,
        problems: [
          { field: 'filter.mime_types[0]', problem: 'must be at most 1000 characters long' },
          { field: 'filter', problem: expect.stringMatching(/^is \d+ bytes as JSON, the limit is 16384 bytes$/) },
        ],
      });
    }
    expect((await rule('node_embedding')).filter_truncated).toBe(true);
    rulesEngineAlive();

    // Such a rule does not run half-understood: the file says which rule to fix.
    const file = await acme.index('stored/notes.txt', { bytes: 'Notes.\n' });
    const settled = await acme.settled(file.id.id);
    expect(settled.lastIndexationInfos.status).toBe('ABORTED');
    expect(settled.lastIndexationInfos.errorMessage).toMatch(
      /no longer fits the trigger's schema \(filter\.mime_types\[0\] must be at most 1000 characters long\)/,
    );

    // Replacing the rule repairs it.
    for (const trigger of ['corpus_parsing', 'node_embedding']) expect((await put(trigger, { filter: {} })).status).toBe(200);
    expect(await rule('corpus_parsing')).not.toHaveProperty('problems');
  });

  it('runs content patterns on RE2: a paragraph that would make (a+)+$ backtrack for days is embedded or skipped at once', async () => {
    expect((await put('node_embedding', { filter: { content_patterns: ['(a+)+$', '^Needle'] } })).status).toBe(200);
    const file = await acme.index('redos/paragraphs.txt', {
      bytes: `${'a'.repeat(40)}!\n\nNeedle in a paragraph.\n\nOnly a's: aaaa\n\nNothing to see.\n`,
    });
    const done = await acme.stepsSettled(file.id.id, ['node_embedding']);
    expect(done.additionalInfos.node_embedding).toMatchObject({ status: 'SUCCESS', embeddedNodes: 2 });
    expect((await put('node_embedding', { filter: {} })).status).toBe(200);
  });

  it('refuses lookbehind, lookahead and backreferences with 400 naming each pattern', async () => {
    const body = await badRequest(await put('node_embedding', { filter: { content_patterns: ['ok', '(?<=a)b', 'a(?=b)', '(a)\\1'] } }));
    expect(body.details.map((d) => d.field)).toEqual([
      'filter.content_patterns[1]',
      'filter.content_patterns[2]',
      'filter.content_patterns[3]',
    ]);
    for (const d of body.details)
      expect(d.problem).toMatch(/^is not a valid regular expression: .*\(RE2 syntax: no lookahead, lookbehind or backreferences\)$/);
    expect((await rule('node_embedding')).filter).toEqual({});
  });

  it('refuses a PUT without a filter, with filter null or without a body, and keeps the rule; {"filter":{}} matches everything', async () => {
    expect((await put('corpus_parsing', { filter: { mime_types: ['text/plain'] } })).status).toBe(200);
    const noBody = await fetch(`${stack.baseUrl}/v1/rules/corpus_parsing`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${acme.token}` },
    });
    for (const res of [await put('corpus_parsing', {}), await put('corpus_parsing', { filter: null }), noBody]) {
      const body = await badRequest(res);
      expect(body.details).toEqual([{ field: 'filter', problem: 'is required and must be an object ({} matches everything)' }]);
    }
    expect((await rule('corpus_parsing')).filter).toEqual({ mime_types: ['text/plain'] });
    expect((await put('corpus_parsing', { filter: {} })).status).toBe(200);
    expect((await rule('corpus_parsing')).filter).toEqual({});
  });

  it('refuses a NUL character in a filter string with 400 naming the field', async () => {
    for (const res of [
      await put('corpus_parsing', { filter: { mime_types: ['application/pdf\u0000'] } }),
      await acme.call('POST', '/v1/rules', { trigger_id: 'node_embedding', filter: { node_types: ['para\u0000graph'] } }),
    ]) {
      const body = await badRequest(res);
      expect(body.details).toEqual([
        expect.objectContaining({
          field: expect.stringMatching(/^filter\.(mime_types|node_types)\[0\]$/),
          problem: expect.stringContaining('NUL'),
        }),
      ]);
    }
    expect((await rule('corpus_parsing')).filter).toEqual({});
    rulesEngineAlive();
  });
});
