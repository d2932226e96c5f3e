export * from './infrastructure';
export * from './stack';
export * from './s3';
