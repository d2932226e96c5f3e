import { createLogger } from './logger';

describe('createLogger', () => {
  it('keeps a level pino knows', () => {
    expect(createLogger('test', 'debug').level).toBe('debug');
    expect(createLogger('test', 'silent').level).toBe('silent');
  });

  it('falls back to info for a level pino does not know, instead of throwing before the configuration is checked', () => {
    expect(() => createLogger('test', 'loud')).not.toThrow();
    expect(createLogger('test', 'loud').level).toBe('info');
    expect(createLogger('test', '').level).toBe('info');
  });
});
