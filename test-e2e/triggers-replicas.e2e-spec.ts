import { TestStack, type RunningApp } from '@docintel/testing';
import { Indexer, IndexingDb } from './support/indexing';

/**
 * Rule changes made through either gateway apply to the very next operation on any indexing
 * replica: there is no cache to expire. Both replicas are running when a rule changes; the other
 * replica is then stopped so that the next file provably goes to the one that did not see the change
 * being made.
 */
describe('rule changes across replicas', () => {
  let stack: TestStack;
  let viaFirst: Indexer;
  let viaSecond: Indexer;
  let db: IndexingDb;
  const key = (app: RunningApp) => `${app.name}#${app.port}`;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'replicas', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    const secondGateway = await stack.startApp('api-gateway');
    viaFirst = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    viaSecond = viaFirst.via(`http://127.0.0.1:${secondGateway.port}`);
    db = await IndexingDb.connect(stack);
  });
  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  });

  it('two gateways and two indexing replicas obey a change made through either gateway', async () => {
    const second = await stack.startApp('indexing-service');

    // Changed through the second gateway while both replicas run; then only the first replica is left.
    expect(await viaSecond.rule('corpus_parsing', { mime_types: ['application/pdf'] })).toBe(200);
    await stack.stopApp(key(second));
    const a = await viaFirst.index('replicas/a.txt', { bytes: 'Not parsed: only PDFs now.\n' });
    expect((await viaFirst.settled(a.id.id)).lastIndexationInfos.status).toBe('ABORTED');

    // A new replica joins, the change goes through the first gateway, and only the new replica is left.
    await stack.startApp('indexing-service');
    expect(await viaFirst.rule('corpus_parsing', {})).toBe(200);
    expect(await viaFirst.rule('node_embedding', null)).toBe(204);
    await stack.stopApp('indexing-service');
    const b = await viaSecond.index('replicas/b.txt', { bytes: 'Parsed again.\n\nBut not embedded.\n' });
    const done = await viaSecond.stepsSettled(b.id.id, ['node_embedding']);
    expect(done.lastIndexationInfos.status).toBe('SUCCESS');
    expect(done.additionalInfos.node_embedding).toMatchObject({ status: 'SKIPPED', embeddedNodes: 0 });
    expect(await db.vectors(b.id.id)).toBe(0);

    // And back through the second gateway, for the very next file.
    expect(await viaSecond.rule('node_embedding', {})).toBe(201);
    const c = await viaFirst.index('replicas/c.txt', { bytes: 'Parsed and embedded.\n' });
    const embedded = await viaFirst.stepsSettled(c.id.id, ['node_embedding']);
    expect(embedded.additionalInfos.node_embedding?.status).toBe('SUCCESS');
    expect(await db.vectors(c.id.id)).toBeGreaterThan(0);
  });
});
