import sharp from 'sharp';
import { ParseError, corrupt, limitExceeded } from '../errors';
import type { DocumentNode } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { node } from '../support/nodes';
import { OcrResult, recognize, recognizeOriented } from '../support/ocr';

/** Below this size text is usually too small for the OCR model; such images are upscaled first. */
const SMALL_SIDE = 1000;

/**
 * Images (JPEG, PNG, WebP, BMP, TIFF incl. multi-page) through OCR: one page node per frame, one
 * paragraph per recognised paragraph with line boxes as positions and words with boxes as
 * attributes. Coordinates are pixels of the original image.
 */
export class ImageParser implements Parser {
  readonly family = 'image' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    const frames = await this.frames(ctx);
    const root = node('document');
    const warnings: string[] = [];
    for (const [i, frame] of frames.entries()) {
      ctx.checkpoint();
      const page = node('page', '', [], [{ type: 'BBOX', page_number: i + 1, bbox: { x0: 0, y0: 0, x1: frame.width, y1: frame.height } }], {
        width: frame.width,
        height: frame.height,
        ocr: true,
      });
      if (ctx.limits.ocr) {
        const result =
          frame.png.toString('latin1', 0, 2) === 'BM' ? await safeRecognize(frame.png) : await recognizeOriented(frame.png, ctx.checkpoint);
        page.children.push(...ocrParagraphs(result, i + 1, 1 / frame.scale));
      }
      root.children.push(page);
    }
    if (!ctx.limits.ocr) warnings.push('OCR is disabled: the image text was not read.');
    return { root, metadata: { pageCount: frames.length }, warnings };
  }

  private async frames(ctx: ParseContext): Promise<Frame[]> {
    if (ctx.format.extension === 'bmp') return [bmpFrame(ctx)];
    const opts = { limitInputPixels: ctx.limits.maxPixels, failOn: 'truncated' as const };
    let meta: { pages?: number };
    try {
      meta = await sharp(ctx.bytes, opts).metadata();
    } catch (e) {
      throw imageError(e);
    }
    const pages = meta.pages ?? 1;
    if (pages > ctx.limits.maxPages) throw limitExceeded(`The image has ${pages} pages, more than the limit of ${ctx.limits.maxPages}.`);
    const frames: Frame[] = [];
    for (let page = 0; page < pages; page++) {
      ctx.checkpoint();
      try {
        const img = sharp(ctx.bytes, { ...opts, page }).rotate();
        const { width = 0, height = 0 } = await img.metadata();
        if (width * height > ctx.limits.maxPixels) {
          throw limitExceeded(`The image is ${width}x${height} pixels, more than the limit of ${ctx.limits.maxPixels} pixels.`);
        }
        const scale = Math.max(width, height) < SMALL_SIDE ? 2 : 1;
        const png = await img
          .flatten({ background: '#ffffff' })
          .resize(scale > 1 ? { width: width * scale, kernel: 'lanczos3' } : undefined)
          .grayscale()
          .png({ compressionLevel: 1 })
          .toBuffer();
        const info = await sharp(png).metadata();
        frames.push({ png, width: info.width ?? width, height: info.height ?? height, scale, origWidth: width, origHeight: height });
      } catch (e) {
        throw imageError(e);
      }
    }
    return frames.map((f) => ({ ...f, width: f.origWidth, height: f.origHeight }));
  }
}

interface Frame {
  png: Buffer;
  /** Size of the original frame in pixels. */
  width: number;
  height: number;
  /** Factor from original pixels to the pixels given to OCR. */
  scale: number;
  origWidth: number;
  origHeight: number;
}

function imageError(e: unknown): ParseError {
  if (e instanceof ParseError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (/pixel limit/i.test(msg)) return limitExceeded('The image has more pixels than the limit allows.');
  return corrupt(`the image cannot be decoded (${msg.split('\n')[0]}).`);
}

/** BMP goes to the OCR engine as is (it decodes BMP itself); the header is checked here. */
function bmpFrame(ctx: ParseContext): Frame {
  const b = ctx.bytes;
  if (b.length < 54 || b.toString('latin1', 0, 2) !== 'BM') throw corrupt('the BMP header is incomplete.');
  const width = Math.abs(b.readInt32LE(18));
  const height = Math.abs(b.readInt32LE(22));
  const bits = b.readUInt16LE(28);
  const dataOffset = b.readUInt32LE(10);
  if (![1, 4, 8, 16, 24, 32].includes(bits) || width === 0 || height === 0)
    throw corrupt(`the BMP header is invalid (${bits} bits per pixel).`);
  if (width * height > ctx.limits.maxPixels)
    throw limitExceeded(`The image is ${width}x${height} pixels, more than the limit of ${ctx.limits.maxPixels} pixels.`);
  if (dataOffset >= b.length || b.length < dataOffset + Math.floor((width * bits) / 8) * height * 0.9)
    throw corrupt('the BMP pixel data is truncated.');
  return { png: b, width, height, scale: 1, origWidth: width, origHeight: height };
}

async function safeRecognize(png: Buffer): Promise<OcrResult> {
  try {
    return await recognize(png);
  } catch (e) {
    throw corrupt(e instanceof Error ? e.message : String(e));
  }
}

/** OCR paragraphs as nodes, boxes scaled by `k` into the page's coordinate system. */
type Box = { x0: number; y0: number; x1: number; y1: number };

export function ocrParagraphs(result: OcrResult, pageNumber: number, k: number): DocumentNode[] {
  const s = (b: Box): Box => ({ x0: round(b.x0 * k), y0: round(b.y0 * k), x1: round(b.x1 * k), y1: round(b.y1 * k) });
  return result.paragraphs.map((p) =>
    node(
      'paragraph',
      p.text,
      [],
      p.lines.map((l) => ({ type: 'BBOX' as const, page_number: pageNumber, bbox: s(l) })),
      { ocr: true, confidence: p.confidence, words: p.words.map((w) => ({ ...w, bbox: s(w.bbox) })) },
    ),
  );
}

const round = (x: number) => Math.round(x * 100) / 100;
