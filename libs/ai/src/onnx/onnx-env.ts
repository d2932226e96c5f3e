import { ValidateBy } from 'class-validator';
import { IsIntegerVar } from '@docintel/config';
import { modelFolderProblems, MODEL_FOLDER_FILES } from './model-folder';

/** ONNX_THREADS's default: one thread per model; a service runs several models and the machine may be shared. */
export const DEFAULT_ONNX_THREADS = 1;
/** ONNX_QUEUE_SIZE's default. */
export const DEFAULT_ONNX_QUEUE_SIZE = 64;

/** ONNX_THREADS: threads ONNX Runtime uses inside one run of one model. */
export const IsOnnxThreadsVar = (): PropertyDecorator => IsIntegerVar(1, 64, 'must be an integer number of threads');

/** ONNX_QUEUE_SIZE: runs that may wait for one model before more are refused. */
export const IsOnnxQueueSizeVar = (): PropertyDecorator => IsIntegerVar(1, 100_000, 'must be an integer');

/**
 * A model folder variable (EMBEDDINGS_MODEL_DIR, READER_MODEL_DIR, RERANKER_MODEL_DIR): an absolute
 * path to a folder holding tokenizer.json, config.json and model.onnx. Checked at start-up, so that a
 * missing mount stops the process with the variable's name rather than failing the first request.
 */
export function IsModelDirVar(): PropertyDecorator {
  const problems = (value: unknown): string[] =>
    typeof value === 'string' && value !== '' ? modelFolderProblems(value) : ['the variable is not set'];
  return ValidateBy({
    name: 'isModelDir',
    validator: {
      validate: (value: unknown) => problems(value).length === 0,
      defaultMessage: (args) =>
        `must be an absolute path to a model folder with ${MODEL_FOLDER_FILES.join(', ')}: ${problems(args?.value).join('; ')}`,
    },
  });
}

/** The settings every local ONNX model shares. */
export class OnnxEnv {
  @IsOnnxThreadsVar()
  ONNX_THREADS = DEFAULT_ONNX_THREADS;

  @IsOnnxQueueSizeVar()
  ONNX_QUEUE_SIZE = DEFAULT_ONNX_QUEUE_SIZE;
}
