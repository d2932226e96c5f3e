export * from './infrastructure';
export * from './stack';
