import type { EncodedSequence } from './wordpiece-tokenizer';
import type { Float32Output, Int64Feed } from './onnx-session';

/** BERT-style model inputs for a batch of sequences, padded to the longest. */
export interface BertFeeds {
  /** The padded length of every row. */
  length: number;
  feeds: Record<string, Int64Feed>;
}

/**
 * input_ids, attention_mask and (when the graph takes it; DistilBERT does not) token_type_ids, as
 * int64 [batch, length]. Padding positions get padId and mask 0.
 */
export function bertFeeds(sequences: EncodedSequence[], padId: number, inputNames: readonly string[]): BertFeeds {
  const length = Math.max(1, ...sequences.map((s) => s.ids.length));
  const size = sequences.length * length;
  const ids = new BigInt64Array(size).fill(BigInt(padId));
  const mask = new BigInt64Array(size);
  const types = new BigInt64Array(size);
  sequences.forEach((s, row) => {
    for (let i = 0; i < s.ids.length; i++) {
      ids[row * length + i] = BigInt(s.ids[i]);
      mask[row * length + i] = 1n;
      types[row * length + i] = BigInt(s.typeIds[i]);
    }
  });
  const dims = [sequences.length, length];
  const feeds: Record<string, Int64Feed> = { input_ids: { data: ids, dims } };
  if (inputNames.includes('attention_mask')) feeds.attention_mask = { data: mask, dims };
  if (inputNames.includes('token_type_ids')) feeds.token_type_ids = { data: types, dims };
  return { length, feeds };
}

/** Row `row` of a [batch, length] output, or of a [batch, length, 1] one. */
export function rowOf(output: Float32Output, row: number): Float32Array {
  const width = output.dims[1];
  return output.data.subarray(row * width, (row + 1) * width);
}
