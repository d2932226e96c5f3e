/**
 * pdf.js, loaded on first use (its own chunk: pages that show no PDF never download it), with its
 * worker set up the Vite way: the worker file is an asset of the build, served from /assets.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

let lib: Promise<typeof import('pdfjs-dist')> | null = null;

function pdfjs(): Promise<typeof import('pdfjs-dist')> {
  lib ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([mod, worker]) => {
    mod.GlobalWorkerOptions.workerSrc = worker.default;
    return mod;
  });
  return lib;
}

/** Opens a PDF from its bytes (which pdf.js hands to its worker: the buffer is not usable afterwards). */
export async function openPdf(bytes: ArrayBuffer): Promise<PDFDocumentProxy> {
  const mod = await pdfjs();
  // No eval of font programs and no network fetches of CMaps or fonts: the bytes are all it reads.
  return mod.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
}

export type { PDFDocumentProxy };
