import { DomainError } from '@docintel/contracts';
import { idempotencyKey } from './idempotency-key';

describe('idempotencyKey', () => {
  it('is absent without the header and the key itself when it is visible ASCII', () => {
    expect(idempotencyKey(undefined)).toBeUndefined();
    expect(idempotencyKey('retry-7f3a:2026/11/27')).toBe('retry-7f3a:2026/11/27');
  });

  it.each([
    ['', 'must not be empty'],
    ['has space', 'visible ASCII'],
    ['clé', 'visible ASCII'],
    ['k'.repeat(201), 'at most 200 characters'],
    [['a', 'b'], 'must be sent once'],
  ])('refuses %j with a 400 naming the header', (value, problem) => {
    let thrown: unknown;
    try {
      idempotencyKey(value);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).details).toEqual([{ field: 'Idempotency-Key', problem: expect.stringContaining(problem) }]);
  });
});
