import type { Logger } from '@docintel/observability';
import { installProcessSafetyNet } from './process-safety-net';

function fakeLogger() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => lines.push({ level, obj, msg });
  return { lines, logger: { error: at('error'), fatal: at('fatal') } as unknown as Logger };
}

describe('installProcessSafetyNet', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => uninstall?.());

  it('logs an unhandled rejection with an error id and keeps the process running', () => {
    const { lines, logger } = fakeLogger();
    const exit = jest.fn();
    uninstall = installProcessSafetyNet(logger, { exit });
    const reason = new Error('nobody awaited me');
    process.emit('unhandledRejection', reason, Promise.resolve());
    expect(exit).not.toHaveBeenCalled();
    expect(lines).toEqual([
      {
        level: 'error',
        obj: { err: reason, errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
        msg: expect.stringMatching(/^unhandled promise rejection \(error id [0-9a-f-]{36}\); the process keeps running$/),
      },
    ]);
    expect(lines[0].msg).toContain(lines[0].obj.errorId as string);
  });

  it('keeps an uncaught exception fatal, logging it with an error id first', () => {
    const { lines, logger } = fakeLogger();
    const exit = jest.fn();
    uninstall = installProcessSafetyNet(logger, { exit });
    const err = new TypeError('state is broken');
    process.emit('uncaughtException', err, 'uncaughtException');
    expect(lines).toEqual([
      { level: 'fatal', obj: expect.objectContaining({ err, errorId: expect.any(String) }), msg: expect.stringContaining('exiting') },
    ]);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('removes its listeners when asked', () => {
    const before = process.listenerCount('unhandledRejection');
    const off = installProcessSafetyNet(fakeLogger().logger, { exit: jest.fn() });
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    off();
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });
});
