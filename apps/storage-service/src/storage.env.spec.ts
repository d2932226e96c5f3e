import 'reflect-metadata';
import { loadConfig } from '@docintel/config';
import { StorageEnv } from './storage.env';

describe('StorageEnv', () => {
  it('leaves STORAGE_SIGNING_SECRET unset by default (a generated secret is used)', () => {
    expect(loadConfig(StorageEnv, {}).STORAGE_SIGNING_SECRET).toBeUndefined();
  });

  it('refuses a short secret and the public example placeholder, naming the variable', () => {
    expect(() => loadConfig(StorageEnv, { STORAGE_SIGNING_SECRET: 'short' })).toThrow(/STORAGE_SIGNING_SECRET/);
    expect(() => loadConfig(StorageEnv, { STORAGE_SIGNING_SECRET: 'CHANGE-ME-to-64-hex-characters-from-openssl-rand-hex-32' })).toThrow(
      /STORAGE_SIGNING_SECRET.*placeholder/,
    );
    expect(loadConfig(StorageEnv, { STORAGE_SIGNING_SECRET: 'a'.repeat(64) }).STORAGE_SIGNING_SECRET).toBe('a'.repeat(64));
  });
});
