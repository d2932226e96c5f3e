import { createDriver } from './factory';
import { LocalDriver } from './local-driver';

describe('createDriver', () => {
  it('builds a LOCAL driver from the root setting', () => {
    const driver = createDriver('LOCAL', { root: '/srv/docintel', name: 'docintel' });
    expect(driver).toBeInstanceOf(LocalDriver);
    expect(driver.type).toBe('LOCAL');
  });

  it('names the missing setting', () => {
    expect(() => createDriver('LOCAL', {})).toThrow('"root"');
  });

  it('refuses an unknown provider type', () => {
    expect(() => createDriver('SFTP' as never, {})).toThrow('SFTP');
  });
});
