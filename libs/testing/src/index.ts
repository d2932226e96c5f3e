export * from './infrastructure';
export * from './database-role';
export * from './stack';
export * from './app-container';
export * from './s3';
export * from './onnx-model';
export * from './openai-server';
export * from './otlp-receiver';
