export * from './load-config';
export * from './common-env';
export * from './env-validators';
