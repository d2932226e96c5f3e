import type { DocintelClient, ErrorBody } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { clientFor, ok, statusOf } from './support/client';

/** The JSON body of a raw request, for the ones the document does not allow (the client cannot send them). */
const json = (body: unknown): RequestInit => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

describe('/v1/rules', () => {
  let stack: TestStack;
  let acme: string;
  let globex: string;
  let both: string;
  /** Typed clients: Alice in acme, Gary in globex. */
  let alice: DocintelClient;
  let gary: DocintelClient;
  const rule = (trigger_id: string) => ({ params: { path: { trigger_id } } });

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'rules', apps: ['rules-engine', 'api-gateway'] });
    acme = await stack.token('acme', 'alice@acme.test');
    globex = await stack.token('globex', 'gary@globex.test');
    // Alice also belongs to globex; her token's own namespace stays acme.
    await stack.cli('member', 'add', '--namespace', 'globex', '--user', 'alice@acme.test');
    both = acme;
    alice = clientFor(stack, acme);
    gary = clientFor(stack, globex);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('needs a token', async () => {
    const anonymous = clientFor(stack, undefined);
    expect(await statusOf(anonymous.GET('/v1/rules'))).toBe(401);
    expect(await statusOf(anonymous.GET('/v1/rules/triggers'))).toBe(401);
  });

  it('lists the three built-in triggers with their hook points and modes', async () => {
    const { triggers } = await ok(alice.GET('/v1/rules/triggers'));
    expect(triggers).toEqual([
      expect.objectContaining({ trigger_id: 'corpus_parsing', hook_points: ['root_node.created'], execution_mode: 'critical' }),
      expect.objectContaining({ trigger_id: 'node_embedding', hook_points: ['node.batch.created'], execution_mode: 'asynchronous' }),
      expect.objectContaining({ trigger_id: 'formula_augmentation', hook_points: ['node.updated'], execution_mode: 'asynchronous' }),
    ]);
    for (const t of triggers) expect(typeof t.description).toBe('string');
  });

  it("serves each trigger's filter schema and 404 for an unknown trigger", async () => {
    const body = await ok(alice.GET('/v1/rules/triggers/{trigger_id}/schema', rule('corpus_parsing')));
    expect(body.trigger_id).toBe('corpus_parsing');
    // The document gives a trigger's filter schema as any object: it is a JSON Schema.
    expect(Object.keys((body.schema as { properties: object }).properties)).toEqual(['mime_types', 'exclude_mime_types']);
    const unknown = await alice.GET('/v1/rules/triggers/{trigger_id}/schema', rule('ocr_magic'));
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('starts every namespace with a default rule per trigger whose filter is empty', async () => {
    const body = await ok(gary.GET('/v1/rules'));
    expect(body.namespace).toBe('globex');
    expect(body.rules.map((r) => r.trigger_id).sort()).toEqual(['corpus_parsing', 'formula_augmentation', 'node_embedding']);
    for (const r of body.rules) {
      expect(r).toMatchObject({ namespace: 'globex', filter: {} });
      expect(new Date(r.created_at).toISOString()).toBe(r.created_at);
      expect(new Date(r.updated_at).toISOString()).toBe(r.updated_at);
    }
  });

  it('POST conflicts with the default rule, DELETE disables, POST then creates', async () => {
    const conflict = await alice.POST('/v1/rules', { body: { trigger_id: 'node_embedding', filter: {} } });
    expect(conflict.response.status).toBe(409);
    expect(await statusOf(alice.DELETE('/v1/rules/{trigger_id}', rule('node_embedding')))).toBe(204);
    const gone = await alice.GET('/v1/rules/{trigger_id}', rule('node_embedding'));
    expect(gone.response.status).toBe(404);
    expect(await statusOf(alice.DELETE('/v1/rules/{trigger_id}', rule('node_embedding')))).toBe(404);
    const created = await ok(alice.POST('/v1/rules', { body: { trigger_id: 'node_embedding', filter: { max_file_size: 1000 } } }), 201);
    expect(created).toMatchObject({ trigger_id: 'node_embedding', namespace: 'acme', filter: { max_file_size: 1000 } });
  });

  it('PUT upserts: 201 when the rule was missing, 200 when it changed, and keeps created_at', async () => {
    const formulas = rule('formula_augmentation');
    expect(await statusOf(alice.DELETE('/v1/rules/{trigger_id}', formulas))).toBe(204);
    const created = await ok(alice.PUT('/v1/rules/{trigger_id}', { ...formulas, body: { filter: { node_types: ['formula'] } } }), 201);
    const updated = await ok(alice.PUT('/v1/rules/{trigger_id}', { ...formulas, body: { filter: { max_file_size: 5 } } }), 200);
    expect(updated.filter).toEqual({ max_file_size: 5 });
    expect(updated.created_at).toBe(created.created_at);
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const read = await ok(alice.GET('/v1/rules/{trigger_id}', formulas));
    expect(read.filter).toEqual({ max_file_size: 5 });
  });

  it('rejects an invalid filter with 400 naming every failing field, and changes nothing', async () => {
    // A filter is any object to the document: the trigger's own schema refuses this one.
    const res = await alice.PUT('/v1/rules/{trigger_id}', {
      ...rule('node_embedding'),
      body: { filter: { colour: 'red', mime_types: 'application/pdf', min_file_size: 10, max_file_size: 5, content_patterns: ['(x'] } },
    });
    expect(res.response.status).toBe(400);
    const body = res.error!;
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((d) => d.field).sort()).toEqual([
      'filter.colour',
      'filter.content_patterns[0]',
      'filter.mime_types',
      'filter.min_file_size',
    ]);
    const unchanged = await ok(alice.GET('/v1/rules/{trigger_id}', rule('node_embedding')));
    expect(unchanged.filter).toEqual({ max_file_size: 1000 });
  });

  it('rejects a missing trigger_id, a non-object filter and an unknown trigger', async () => {
    const missing = await stack.request('/v1/rules', { method: 'POST', token: acme, ...json({ filter: {} }) });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'trigger_id' })]),
    );
    const notObject = await stack.request('/v1/rules/corpus_parsing', {
      method: 'PUT',
      token: acme,
      ...json({ filter: ['application/pdf'] }),
    });
    expect(notObject.status).toBe(400);
    expect(await statusOf(alice.POST('/v1/rules', { body: { trigger_id: 'teleport', filter: {} } }))).toBe(404);
  });

  it('keeps rules per namespace, and X-Namespace selects another namespace of the user', async () => {
    await alice.PUT('/v1/rules/{trigger_id}', { ...rule('corpus_parsing'), body: { filter: { mime_types: ['application/pdf'] } } });
    const globexRule = await ok(gary.GET('/v1/rules/{trigger_id}', rule('corpus_parsing')));
    expect(globexRule.filter).toEqual({});
    const viaHeader = await clientFor(stack, both, { namespace: 'globex' }).GET('/v1/rules/{trigger_id}', rule('corpus_parsing'));
    expect(viaHeader.response.status).toBe(200);
    expect(viaHeader.data).toMatchObject({ namespace: 'globex', filter: {} });
    const notMember = await clientFor(stack, globex, { namespace: 'acme' }).GET('/v1/rules');
    expect(notMember.response.status).toBe(403);
  });
});
