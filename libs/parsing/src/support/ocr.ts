import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';
import type { BBox, OcrWord } from '../model';
import { DEFAULT_OCR_IDLE_MS } from '../pool/protocol';
import { IdleResource } from './idle-resource';

export interface OcrParagraph {
  text: string;
  bbox: BBox;
  lines: BBox[];
  words: OcrWord[];
  confidence: number;
}

export interface OcrResult {
  paragraphs: OcrParagraph[];
  /** Sum over confident words of their length: how much readable text was found. */
  score: number;
}

/** The English LSTM model shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

async function openEngine(): Promise<TesseractWorker> {
  const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, cacheMethod: 'none', gzip: true });
  // Tesseract's diagnostics ("Estimating resolution ...") go nowhere instead of the service's stdout.
  await w.setParameters({ preserve_interword_spaces: '0', debug_file: '/dev/null' });
  return w;
}

/**
 * The Tesseract instance of this parsing thread: a thread of its own with a WebAssembly heap of
 * hundreds of MiB that never shrinks. It is created on first use, reused while pages keep coming,
 * and ended once idle (DEFAULT_OCR_IDLE_MS; 0 in a thread that parses one document and ends).
 */
const engines = new IdleResource(openEngine, (w) => w.terminate(), DEFAULT_OCR_IDLE_MS);

/** How long the OCR engine outlives the last document that used it (setOcrIdleMs(0): ended with the document). */
export function setOcrIdleMs(ms: number): void {
  engines.setIdleMs(ms);
}

/** Whether this thread holds an OCR engine now, and how many it opened and ended. */
export function ocrEngineStats(): { open: boolean; opened: number; ended: number } {
  return engines.stats;
}

/** Runs `work` (a document's parse) holding the OCR engine: it is not ended between its pages. */
export function holdingOcrEngine<R>(work: () => Promise<R>): Promise<R> {
  return engines.hold(work);
}

/**
 * Recognises an encoded image (PNG, JPEG, BMP ...) into paragraphs with line and word boxes in
 * image pixels. `layout` 'auto' finds columns and blocks; 'block' reads the page as one block,
 * which survives skew that defeats the automatic layout.
 */
export function recognize(image: Buffer, layout: 'auto' | 'block' = 'auto'): Promise<OcrResult> {
  return engines.hold(async () => read(await engines.get(), image, layout));
}

async function read(w: TesseractWorker, image: Buffer, layout: 'auto' | 'block'): Promise<OcrResult> {
  await w.setParameters({ tessedit_pageseg_mode: layout === 'auto' ? PSM.AUTO : PSM.SINGLE_BLOCK });
  let data;
  try {
    // rotateAuto deskews by the text-line gradient (small angles; no orientation model needed).
    ({ data } = await w.recognize(image, { rotateAuto: true }, { blocks: true, text: false }));
  } catch (e) {
    throw new Error(`the image could not be decoded (${e instanceof Error ? e.message : String(e)})`);
  }
  const paragraphs: OcrParagraph[] = [];
  let score = 0;
  const angle = data.rotateRadians ?? 0;
  let box = (b: BBox): BBox => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });
  if (Math.abs(angle) > 1e-3) {
    const { width = 0, height = 0 } = await sharp(image).metadata();
    box = unskew(angle, width / 2, height / 2);
  }
  for (const block of data.blocks ?? []) {
    for (const p of block.paragraphs) {
      const words: OcrWord[] = [];
      const lines: BBox[] = [];
      const lineTexts: string[] = [];
      for (const line of p.lines) {
        const lineWords = line.words.filter((wd) => wd.text.trim() !== '' && wd.confidence > 20);
        if (lineWords.length === 0) continue;
        lines.push(box(line.bbox));
        lineTexts.push(lineWords.map((wd) => wd.text).join(' '));
        for (const wd of lineWords) {
          words.push({ text: wd.text, bbox: box(wd.bbox), confidence: Math.round(wd.confidence) });
          if (wd.confidence >= 60) score += wd.text.length;
        }
      }
      if (words.length === 0) continue;
      const text = joinLines(lineTexts);
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      const confidence = Math.round(words.reduce((s, wd) => s + wd.confidence, 0) / words.length);
      paragraphs.push({ text, bbox: box(p.bbox), lines, words, confidence });
    }
  }
  return { paragraphs, score };
}

/** Size of the reduced copy on which the orientation of a poorly read page is probed. */
const PROBE_PIXELS = 2_000_000;

/**
 * OCR that also reads pages scanned sideways or upside down: when little confident text comes out,
 * the image is retried rotated and the best reading kept, its boxes mapped back to the original.
 */
export async function recognizeOriented(png: Buffer, checkpoint: () => void): Promise<OcrResult> {
  let first = await recognize(png);
  if (first.score >= 40) return first;
  checkpoint();
  const block = await recognize(png, 'block');
  if (block.score > first.score) first = block;
  if (first.score >= 40) return first;
  const { width = 0, height = 0 } = await sharp(png).metadata();
  // Orientation is probed on a reduced copy of large images, then read at full size.
  const k = Math.min(1, Math.sqrt(PROBE_PIXELS / Math.max(1, width * height)));
  const probe =
    k < 1
      ? await sharp(png)
          .resize({ width: Math.round(width * k) })
          .png({ compressionLevel: 1 })
          .toBuffer()
      : png;
  let bestScore = k < 1 ? (await recognize(probe)).score : first.score;
  let bestAngle = 0;
  let bestResult: OcrResult | undefined;
  for (const angle of [90, 270, 180]) {
    checkpoint();
    const r = await recognize(await sharp(probe).rotate(angle).png({ compressionLevel: 1 }).toBuffer());
    if (r.score > bestScore * 1.5 + 5) {
      bestScore = r.score;
      bestAngle = angle;
      bestResult = r;
    }
  }
  if (bestAngle === 0 || !bestResult) return first;
  const result = k < 1 ? await recognize(await sharp(png).rotate(bestAngle).png({ compressionLevel: 1 }).toBuffer()) : bestResult;
  return { score: result.score, paragraphs: result.paragraphs.map((p) => rotateParagraph(p, bestAngle, width, height)) };
}

/** Maps a box found in the image rotated clockwise by `angle` back to the unrotated image (w x h). */
function unrotate(b: BBox, angle: number, w: number, h: number): BBox {
  if (angle === 90) return { x0: b.y0, y0: h - b.x1, x1: b.y1, y1: h - b.x0 };
  if (angle === 270) return { x0: w - b.y1, y0: b.x0, x1: w - b.y0, y1: b.x1 };
  if (angle === 180) return { x0: w - b.x1, y0: h - b.y1, x1: w - b.x0, y1: h - b.y0 };
  return b;
}

function rotateParagraph(p: OcrParagraph, angle: number, w: number, h: number): OcrParagraph {
  return {
    ...p,
    bbox: unrotate(p.bbox, angle, w, h),
    lines: p.lines.map((l) => unrotate(l, angle, w, h)),
    words: p.words.map((wd) => ({ ...wd, bbox: unrotate(wd.bbox, angle, w, h) })),
  };
}

/** Joins OCR lines into paragraph text, undoing end-of-line hyphenation. */
export function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    const line = l.trim();
    if (!line) continue;
    if (out.endsWith('-') && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out += (out ? ' ' : '') + line;
  }
  return out;
}

/** Boxes found on the deskewed image, mapped back onto the original (rotation about the centre). */
function unskew(angle: number, cx: number, cy: number): (b: BBox) => BBox {
  const cos = Math.cos(-angle);
  const sin = Math.sin(-angle);
  return (b) => {
    const pts = [
      [b.x0, b.y0],
      [b.x1, b.y0],
      [b.x0, b.y1],
      [b.x1, b.y1],
    ].map(([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos]);
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return {
      x0: Math.round(Math.min(...xs)),
      y0: Math.round(Math.min(...ys)),
      x1: Math.round(Math.max(...xs)),
      y1: Math.round(Math.max(...ys)),
    };
  };
}
