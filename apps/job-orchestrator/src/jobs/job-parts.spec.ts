import 'reflect-metadata';
import { takePart } from './jobs.service';

const big = (n: number) => Array.from({ length: n }, (_, i) => ({ i, text: 'x'.repeat(1000) }));

describe('takePart', () => {
  it('keeps a part under the size a NATS message carries, and says where the next one starts', () => {
    const units = Array.from({ length: 10 }, (_, u) => ({ unit: u + 5, items: big(100) })); // ~100 KB a unit
    const first = takePart(units, 5, 200);
    expect(first.items.length).toBe(500);
    expect(first.nextUnit).toBe(10);
    expect(Buffer.byteLength(JSON.stringify(first.items))).toBeLessThan(600 * 1024);
  });

  it('always takes at least one unit, however large', () => {
    const part = takePart(
      [
        { unit: 0, items: big(800) },
        { unit: 1, items: big(1) },
      ],
      0,
      2,
    );
    expect([part.items.length, part.nextUnit]).toEqual([800, 1]);
  });

  it('continues after the units read when more may follow, and ends after the last', () => {
    expect(takePart([{ unit: 0, items: [1] }], 0, 500).nextUnit).toBe(200);
    expect(takePart([{ unit: 400, items: [1] }], 400, 401).nextUnit).toBeNull();
    expect(takePart([], 0, 0)).toEqual({ items: [], nextUnit: null });
  });
});
