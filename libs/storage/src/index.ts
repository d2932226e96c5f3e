export * from './driver';
export * from './byte-limit';
export * from './local-driver';
export * from './keys';
export * from './factory';
export * from './s3-driver';
export * from './block-file-writer';
