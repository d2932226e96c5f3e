import { IdleResource } from './idle-resource';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resources that say whether they were ended. */
function resources() {
  const made: Array<{ id: number; ended: boolean }> = [];
  const pool = (idleMs: number) =>
    new IdleResource(
      async () => {
        const r = { id: made.length + 1, ended: false };
        made.push(r);
        return r;
      },
      async (r) => {
        r.ended = true;
      },
      idleMs,
    );
  return { made, pool };
}

describe('IdleResource', () => {
  it('opens on first use, shares one resource between holders, and ends it once idle for idleMs', async () => {
    const { made, pool } = resources();
    const engines = pool(100);
    const [a, b] = await Promise.all([engines.hold(() => engines.get()), engines.hold(() => engines.get())]);
    expect(a).toBe(b);
    expect(made).toHaveLength(1);
    expect(engines.stats).toEqual({ open: true, opened: 1, ended: 0 });

    await sleep(250);
    expect(made[0].ended).toBe(true);
    expect(engines.stats).toEqual({ open: false, opened: 1, ended: 1 });

    // The next use opens a fresh one.
    await engines.hold(() => engines.get());
    expect(made).toHaveLength(2);
    await engines.close();
    expect(made[1].ended).toBe(true);
  });

  it('never ends a resource while it is held, however long, and keeps it through short pauses', async () => {
    const { made, pool } = resources();
    const engines = pool(100);
    await engines.hold(async () => {
      await engines.get();
      await sleep(250);
      expect(made[0].ended).toBe(false);
    });
    // Used again within idleMs: the same resource, its idle time starting again.
    await sleep(50);
    await engines.hold(() => engines.get());
    await sleep(70);
    expect(made).toHaveLength(1);
    expect(made[0].ended).toBe(false);
    await sleep(150);
    expect(made[0].ended).toBe(true);
  });

  it('with idleMs 0 ends the resource as soon as its last holder is done, and opens none for work that needs none', async () => {
    const { made, pool } = resources();
    const engines = pool(0);
    await engines.hold(async () => undefined);
    expect(made).toHaveLength(0);
    await engines.hold(async () => {
      await engines.hold(() => engines.get()); // a page read inside a document
      await engines.hold(() => engines.get());
    });
    await sleep(0);
    expect(made).toHaveLength(1);
    expect(made[0].ended).toBe(true);
  });

  it('tries again after an opening that failed, and refuses get() outside hold()', async () => {
    let fail = true;
    const engines = new IdleResource(
      async () => {
        if (fail) throw new Error('no engine');
        return 'engine';
      },
      async () => undefined,
      0,
    );
    await expect(engines.hold(() => engines.get())).rejects.toThrow('no engine');
    fail = false;
    await expect(engines.hold(() => engines.get())).resolves.toBe('engine');
    expect(() => engines.get()).toThrow(/outside hold/);
  });
});
