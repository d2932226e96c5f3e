export * from './onnx-error';
export * from './model-folder';
export * from './wordpiece-tokenizer';
export * from './onnx-session';
export * from './batch';
export * from './onnx-env';
export * from '../embeddings/onnx-embedder';
