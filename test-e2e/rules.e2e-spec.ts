import { TestStack } from '@docintel/testing';

const json = (body: unknown): RequestInit => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

describe('/v1/rules', () => {
  let stack: TestStack;
  let acme: string;
  let globex: string;
  let both: string;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'rules', apps: ['rules-engine', 'api-gateway'] });
    acme = await stack.token('acme', 'alice@acme.test');
    globex = await stack.token('globex', 'gary@globex.test');
    // Alice also belongs to globex; her token's own namespace stays acme.
    await stack.cli('member', 'add', '--namespace', 'globex', '--user', 'alice@acme.test');
    both = acme;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('needs a token', async () => {
    const res = await stack.request('/v1/rules');
    expect(res.status).toBe(401);
    expect((await stack.request('/v1/rules/triggers')).status).toBe(401);
  });

  it('lists the three built-in triggers with their hook points and modes', async () => {
    const res = await stack.request('/v1/rules/triggers', { token: acme });
    expect(res.status).toBe(200);
    const { triggers } = await res.json();
    expect(triggers).toEqual([
      expect.objectContaining({ trigger_id: 'corpus_parsing', hook_points: ['root_node.created'], execution_mode: 'critical' }),
      expect.objectContaining({ trigger_id: 'node_embedding', hook_points: ['node.batch.created'], execution_mode: 'asynchronous' }),
      expect.objectContaining({ trigger_id: 'formula_augmentation', hook_points: ['node.updated'], execution_mode: 'asynchronous' }),
    ]);
    for (const t of triggers) expect(typeof t.description).toBe('string');
  });

  it("serves each trigger's filter schema and 404 for an unknown trigger", async () => {
    const res = await stack.request('/v1/rules/triggers/corpus_parsing/schema', { token: acme });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.trigger_id).toBe('corpus_parsing');
    expect(Object.keys(body.schema.properties)).toEqual(['mime_types', 'exclude_mime_types']);
    const unknown = await stack.request('/v1/rules/triggers/ocr_magic/schema', { token: acme });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('starts every namespace with a default rule per trigger whose filter is empty', async () => {
    const res = await stack.request('/v1/rules', { token: globex });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.namespace).toBe('globex');
    expect(body.rules.map((r: { trigger_id: string }) => r.trigger_id).sort()).toEqual([
      'corpus_parsing',
      'formula_augmentation',
      'node_embedding',
    ]);
    for (const r of body.rules) {
      expect(r).toMatchObject({ namespace: 'globex', filter: {} });
      expect(new Date(r.created_at).toISOString()).toBe(r.created_at);
      expect(new Date(r.updated_at).toISOString()).toBe(r.updated_at);
    }
  });

  it('POST conflicts with the default rule, DELETE disables, POST then creates', async () => {
    const conflict = await stack.request('/v1/rules', { method: 'POST', token: acme, ...json({ trigger_id: 'node_embedding', filter: {} }) });
    expect(conflict.status).toBe(409);
    expect((await stack.request('/v1/rules/node_embedding', { method: 'DELETE', token: acme })).status).toBe(204);
    const gone = await stack.request('/v1/rules/node_embedding', { token: acme });
    expect(gone.status).toBe(404);
    expect((await stack.request('/v1/rules/node_embedding', { method: 'DELETE', token: acme })).status).toBe(404);
    const created = await stack.request('/v1/rules', {
      method: 'POST',
      token: acme,
      ...json({ trigger_id: 'node_embedding', filter: { max_file_size: 1000 } }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ trigger_id: 'node_embedding', namespace: 'acme', filter: { max_file_size: 1000 } });
  });

  it('PUT upserts: 201 when the rule was missing, 200 when it changed, and keeps created_at', async () => {
    expect((await stack.request('/v1/rules/formula_augmentation', { method: 'DELETE', token: acme })).status).toBe(204);
    const first = await stack.request('/v1/rules/formula_augmentation', { method: 'PUT', token: acme, ...json({ filter: { node_types: ['formula'] } }) });
    expect(first.status).toBe(201);
    const created = await first.json();
    const second = await stack.request('/v1/rules/formula_augmentation', { method: 'PUT', token: acme, ...json({ filter: { max_file_size: 5 } }) });
    expect(second.status).toBe(200);
    const updated = await second.json();
    expect(updated.filter).toEqual({ max_file_size: 5 });
    expect(updated.created_at).toBe(created.created_at);
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const read = await (await stack.request('/v1/rules/formula_augmentation', { token: acme })).json();
    expect(read.filter).toEqual({ max_file_size: 5 });
  });

  it('rejects an invalid filter with 400 naming every failing field, and changes nothing', async () => {
    const res = await stack.request('/v1/rules/node_embedding', {
      method: 'PUT',
      token: acme,
      ...json({ filter: { colour: 'red', mime_types: 'application/pdf', min_file_size: 10, max_file_size: 5, content_patterns: ['(x'] } }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'filter.colour',
      'filter.content_patterns[0]',
      'filter.mime_types',
      'filter.min_file_size',
    ]);
    const rule = await (await stack.request('/v1/rules/node_embedding', { token: acme })).json();
    expect(rule.filter).toEqual({ max_file_size: 1000 });
  });

  it('rejects a missing trigger_id, a non-object filter and an unknown trigger', async () => {
    const missing = await stack.request('/v1/rules', { method: 'POST', token: acme, ...json({ filter: {} }) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'trigger_id' })]));
    const notObject = await stack.request('/v1/rules/corpus_parsing', { method: 'PUT', token: acme, ...json({ filter: ['application/pdf'] }) });
    expect(notObject.status).toBe(400);
    const unknown = await stack.request('/v1/rules', { method: 'POST', token: acme, ...json({ trigger_id: 'teleport', filter: {} }) });
    expect(unknown.status).toBe(404);
  });

  it('keeps rules per namespace, and X-Namespace selects another namespace of the user', async () => {
    await stack.request('/v1/rules/corpus_parsing', { method: 'PUT', token: acme, ...json({ filter: { mime_types: ['application/pdf'] } }) });
    const globexRule = await (await stack.request('/v1/rules/corpus_parsing', { token: globex })).json();
    expect(globexRule.filter).toEqual({});
    const viaHeader = await stack.request('/v1/rules/corpus_parsing', { token: both, namespace: 'globex' });
    expect(viaHeader.status).toBe(200);
    expect(await viaHeader.json()).toMatchObject({ namespace: 'globex', filter: {} });
    const notMember = await stack.request('/v1/rules', { token: globex, namespace: 'acme' });
    expect(notMember.status).toBe(403);
  });
});
