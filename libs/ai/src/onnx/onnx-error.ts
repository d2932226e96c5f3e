/** What went wrong with a local ONNX model, for the caller to map (an embedder to EmbeddingError, a job to a failed unit). */
export const ONNX_ERROR_CODES = [
  /** The model folder lacks a file, or a file is not what it should be. */
  'MODEL_FOLDER_INVALID',
  /** ONNX Runtime could not load model.onnx, or the graph lacks an input or output the engine needs. */
  'MODEL_LOAD_FAILED',
  /** More requests are waiting for the model than the queue holds: the caller should back off. */
  'QUEUE_FULL',
  /** ONNX Runtime failed while running the model. */
  'INFERENCE_FAILED',
  /** The session was closed, or its worker stopped, while the request waited. */
  'SESSION_CLOSED',
] as const;
export type OnnxErrorCode = (typeof ONNX_ERROR_CODES)[number];

/** Why a local ONNX model cannot answer, in words an operator can act on (the file, the folder, the input). */
export class OnnxError extends Error {
  constructor(
    readonly code: OnnxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OnnxError';
  }
}
