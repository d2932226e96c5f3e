import { TestStack, type AppName, type RunningApp } from '@docintel/testing';
import { eventually, Indexer, type IndexedFile } from './support/indexing';

/**
 * A replica that stops while it parses never costs a file: stopped gracefully, it gives the request
 * back at once; killed, its silence (no heartbeat, no ack) hands the message to another replica
 * after one ack wait. Which replica took a file is read from its log.
 */
describe('indexation survives the replica that parses it', () => {
  let stack: TestStack;
  let acme: Indexer;
  // Heartbeat every second: a silent worker's message comes back after six seconds.
  const env = { PIPELINE_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'info' };
  const replicas: Array<{ key: string; app: RunningApp }> = [];

  beforeAll(async () => {
    stack = await TestStack.start({
      label: 'recovery',
      apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'],
      appEnv: { 'indexing-service': env },
    });
    replicas.push({ key: 'indexing-service', app: stack.apps.get('indexing-service')! });
    const second = await stack.startApp('indexing-service', env);
    replicas.push({ key: `indexing-service#${second.port}`, app: second });
    acme = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const logs = (app: RunningApp) => app.logs.join('');
  /** The replica that logged taking the file up. */
  const holder = (fileId: string) =>
    eventually(
      `a replica to take ${fileId} up`,
      async () => replicas.find((r) => r.app.process.exitCode === null && logs(r.app).includes(`"fileId":"${fileId}","generation"`)),
      (r) => r !== undefined,
    );

  it.each([
    ['stopped gracefully (SIGTERM)', 'SIGTERM'],
    ['killed (SIGKILL)', 'SIGKILL'],
  ] as const)('%s mid-parse: another replica parses the file to SUCCESS', async (_label, signal) => {
    // A multi-page TIFF read by OCR: several seconds of parsing.
    const file = await acme.index(`recovery/${signal}.tiff`, { corpus: 'images/docling_2206.01062.tiff' });
    await eventually(
      'RUNNING',
      () => acme.get(file.id.id),
      (f) => f.lastIndexationInfos.status === 'RUNNING',
    );
    const parsing = (await holder(file.id.id))!;
    const survivor = replicas.find((r) => r !== parsing && r.app.process.exitCode === null)!;
    await stack.stopApp(parsing.key, signal);

    const done = await acme.settled(file.id.id, 120_000);
    expect(done.lastIndexationInfos).toEqual({ status: 'SUCCESS', errorMessage: null, errorTraceback: null });
    expect(logs(survivor.app)).toMatch(new RegExp(`"fileId":"${file.id.id}"[^\\n]*"msg":"indexation SUCCESS"`));

    // A fresh replica takes the stopped one's place for the next case.
    const next = await stack.startApp('indexing-service' as AppName, env);
    replicas.splice(replicas.indexOf(parsing), 1, { key: `indexing-service#${next.port}`, app: next });
  });

  it('killed (SIGKILL) while files wait behind it: after the restart every file ends SUCCESS', async () => {
    // One replica with one parser thread, so that files queue behind the one being parsed (a busy
    // queue, as in a big batch), and a sweeper that finds a silent worker within seconds: the killed
    // file's redelivery waits behind the queue for longer than that.
    for (const r of replicas.splice(0)) await stack.stopApp(r.key);
    const busy = { ...env, PARSE_POOL_SIZE: '1', SWEEP_INTERVAL_SECONDS: '1', SWEEP_STALE_RUNNING_SECONDS: '10' };
    const keyOf = (app: RunningApp) => [...stack.apps.entries()].find(([, a]) => a === app)![0];
    const first = await stack.startApp('indexing-service' as AppName, busy);
    const files: IndexedFile[] = [];
    for (let i = 0; i < 4; i++) files.push(await acme.index(`recovery/busy-${i}.tiff`, { corpus: 'images/docling_2206.01062.tiff' }));
    const running = await eventually(
      'a file RUNNING',
      async () => {
        for (const f of files) if ((await acme.get(f.id.id)).lastIndexationInfos.status === 'RUNNING') return f.id.id;
        return undefined;
      },
      (id) => id !== undefined,
    );
    expect(running).toBeDefined();
    await stack.stopApp(keyOf(first), 'SIGKILL');
    const restarted = await stack.startApp('indexing-service' as AppName, busy);
    replicas.push({ key: keyOf(restarted), app: restarted });

    for (const f of files) {
      const done = await acme.settled(f.id.id, 240_000);
      expect({ file: f.name, ...done.lastIndexationInfos }).toEqual({
        file: f.name,
        status: 'SUCCESS',
        errorMessage: null,
        errorTraceback: null,
      });
    }
  }, 600_000);
});
