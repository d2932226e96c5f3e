import { dirname, join } from 'node:path';

/** The slice of the pdf.js API used here (pdfjs-dist ships ESM typings that CommonJS resolution cannot see). */
export interface TextItem {
  str: string;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
  hasEOL: boolean;
}
export interface TextStyle {
  fontFamily: string;
  ascent: number;
  descent: number;
  vertical: boolean;
}
export interface PdfViewport {
  width: number;
  height: number;
  transform: number[];
}
export interface PdfCanvas {
  toBuffer(mime: 'image/png'): Buffer;
}
export interface PdfPage {
  getViewport(o: { scale: number }): PdfViewport;
  getTextContent(o?: object): Promise<{ items: (TextItem | { type: string })[]; styles: Record<string, TextStyle> }>;
  render(o: { canvasContext: unknown; viewport: PdfViewport; canvas?: unknown }): { promise: Promise<void> };
  cleanup(): void;
}
export interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info: Record<string, unknown>; metadata: { get(name: string): unknown } | null }>;
  canvasFactory: { create(w: number, h: number): { canvas: PdfCanvas; context: unknown }; destroy(c: unknown): void };
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(o: object): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
  Util: { transform(a: number[], b: number[]): number[] };
  version: string;
}

const ROOT = dirname(require.resolve('pdfjs-dist/package.json'));
let loaded: PdfJs | undefined;

/** pdf.js is ESM-only; Node >= 20.19 can require() it. Loaded lazily so other formats do not pay for it. */
export function pdfjs(): PdfJs {
  loaded ??= require(join(ROOT, 'legacy/build/pdf.mjs')) as PdfJs;
  return loaded;
}

/** Options that keep pdf.js offline and safe: bundled CMaps, fonts and decoders, no eval, no font loading. */
export function documentOptions(data: Uint8Array): object {
  return {
    data,
    cMapUrl: join(ROOT, 'cmaps/'),
    cMapPacked: true,
    standardFontDataUrl: join(ROOT, 'standard_fonts/'),
    wasmUrl: join(ROOT, 'wasm/'),
    iccUrl: join(ROOT, 'iccs/'),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    verbosity: 0,
  };
}
