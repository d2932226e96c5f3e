import { parentPort, workerData } from 'node:worker_threads';
import { ParseError } from '../errors';
import type { ParseLimits } from '../limits';
import { ParserRegistry } from '../registry';
import { holdingOcrEngine, setOcrIdleMs } from '../support/ocr';
import type { WorkerData, WorkerReply, WorkerRequest } from './protocol';

/** Entry of a parsing thread: parses one document at a time and answers with the tree or a ParseError. */
const registry = new ParserRegistry();
/** Properties of Object.prototype at start: a parse that adds any has been hit by prototype pollution. */
const prototypeShape = Object.getOwnPropertyNames(Object.prototype).join(',');
const polluted = () => Object.getOwnPropertyNames(Object.prototype).join(',') !== prototypeShape;
const { ocrIdleMs } = (workerData ?? {}) as Partial<WorkerData>;
if (ocrIdleMs !== undefined) setOcrIdleMs(ocrIdleMs);

parentPort?.on('message', (msg: WorkerRequest) => {
  void handle(msg);
});

async function handle(msg: WorkerRequest): Promise<void> {
  const source = 'bytes' in msg.source ? Buffer.from(msg.source.bytes) : { path: msg.source.path };
  let reply: WorkerReply;
  try {
    // The document holds the OCR engine from its first page to its last; it ends ocrIdleMs after.
    const doc = await holdingOcrEngine(() =>
      registry.parse({ source, fileName: msg.fileName, mediaType: msg.mediaType }, msg.limits as Partial<ParseLimits>),
    );
    // A crafted file that polluted shared prototypes (a known class of bugs in spreadsheet readers)
    // leaves a thread that must not serve the next document.
    reply = { id: msg.id, ok: true, doc, retire: polluted() };
  } catch (e) {
    const err = ParseError.isParseError(e)
      ? { code: (e as ParseError).code, message: (e as ParseError).message }
      : {
          code: 'INTERNAL' as const,
          message: `The document could not be read because of an internal error (${e instanceof Error ? e.message : String(e)}).`,
        };
    reply = { id: msg.id, ok: false, error: err, retire: err.code === 'INTERNAL' || polluted() };
  }
  parentPort?.postMessage(reply);
}
