import { WorkGate, WorkGateClosedError } from './work-gate';

const tick = () => new Promise((r) => setImmediate(r));

describe('WorkGate', () => {
  it('runs one piece of work at a time, in the order they came, and the waiters report progress', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const gate = new WorkGate(1);
      const order: string[] = [];
      let finishFirst!: () => void;
      const first = gate.run(
        () => new Promise<void>((r) => (finishFirst = () => (order.push('first done'), r()))),
        () => undefined,
        1000,
      );
      let progress = 0;
      const second = gate.run(
        async () => void order.push('second'),
        () => progress++,
        1000,
      );
      const third = gate.run(
        async () => void order.push('third'),
        () => undefined,
        1000,
      );
      await tick();
      expect(order).toEqual([]);
      expect(gate.queued).toBe(2);
      jest.advanceTimersByTime(3500);
      expect(progress).toBe(3);
      finishFirst();
      await Promise.all([first, second, third]);
      expect(order).toEqual(['first done', 'second', 'third']);
      jest.advanceTimersByTime(5000);
      expect(progress).toBe(3);
      // The slots are free again: new work runs at once.
      await expect(
        gate.run(
          async () => 'now',
          () => undefined,
          1000,
        ),
      ).resolves.toBe('now');
    } finally {
      jest.useRealTimers();
    }
  });

  it('frees the slot when the work fails', async () => {
    const gate = new WorkGate(1);
    await expect(
      gate.run(
        async () => Promise.reject(new Error('boom')),
        () => undefined,
        1000,
      ),
    ).rejects.toThrow('boom');
    await expect(
      gate.run(
        async () => 1,
        () => undefined,
        1000,
      ),
    ).resolves.toBe(1);
  });

  it('lets `slots` pieces of work run together', async () => {
    const gate = new WorkGate(2);
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    await Promise.all([1, 2, 3, 4, 5].map(() => gate.run(work, () => undefined, 1000)));
    expect(most).toBe(2);
  });

  it('refuses the waiters when closed, and lets admitted work finish', async () => {
    const gate = new WorkGate(1);
    let finish!: () => void;
    const admitted = gate.run(
      () => new Promise<string>((r) => (finish = () => r('finished'))),
      () => undefined,
      1000,
    );
    const waiting = gate.run(
      async () => 'never',
      () => undefined,
      1000,
    );
    await tick();
    gate.close();
    await expect(waiting).rejects.toBeInstanceOf(WorkGateClosedError);
    await expect(
      gate.run(
        async () => 'later',
        () => undefined,
        1000,
      ),
    ).rejects.toBeInstanceOf(WorkGateClosedError);
    finish();
    await expect(admitted).resolves.toBe('finished');
  });
});
