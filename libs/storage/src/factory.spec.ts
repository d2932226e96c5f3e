import { createDriver } from './factory';
import { LocalDriver } from './local-driver';
import { S3Driver } from './s3-driver';

describe('createDriver', () => {
  it('builds a LOCAL driver from the root setting', () => {
    const driver = createDriver('LOCAL', { root: '/srv/docintel', name: 'docintel' });
    expect(driver).toBeInstanceOf(LocalDriver);
    expect(driver.type).toBe('LOCAL');
  });

  it('names the missing setting', () => {
    expect(() => createDriver('LOCAL', {})).toThrow('"root"');
    expect(() => createDriver('S3', { region: 'eu-west-1' })).toThrow('"bucketName"');
  });

  it('builds an S3 driver from the provider file names, never serializing credentials', () => {
    const driver = createDriver('S3', {
      bucketName: 'documents',
      region: 'eu-central-1',
      endpoint: 'https://minio.internal:9000',
      pathStyle: true,
      accessKey: 'AKIAEXAMPLE',
      secretKey: 'super-secret-value',
      sessionToken: 'session-token-value',
    });
    expect(driver).toBeInstanceOf(S3Driver);
    expect(driver.type).toBe('S3');
    const shown = JSON.stringify(driver);
    expect(shown).toContain('documents');
    expect(shown).not.toMatch(/super-secret-value|session-token-value|AKIAEXAMPLE/);
  });

  it('refuses an S3 endpoint that is not an http(s) URL without a path', () => {
    expect(() => createDriver('S3', { bucketName: 'b', endpoint: 'ftp://host' })).toThrow('http');
    expect(() => createDriver('S3', { bucketName: 'b', endpoint: 'http://host:9000/sub' })).toThrow('path');
    expect(() => createDriver('S3', { bucketName: 'b', prefix: 'no-slash' })).toThrow('prefix');
  });

  it('refuses an unknown provider type', () => {
    expect(() => createDriver('SFTP' as never, {})).toThrow('SFTP');
  });
});
