import sharp from 'sharp';
import { ocrEngineStats, recognize, setOcrIdleMs } from './ocr';

// Loading the Tesseract model takes a few seconds on a busy machine.
jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function textImage(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"><rect width="100%" height="100%" fill="white"/><text x="20" y="70" font-family="sans-serif" font-size="40" fill="black">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('the OCR engine of a parsing thread', () => {
  afterAll(() => setOcrIdleMs(15_000));

  it('is kept while pages keep coming and ended once idle, then started again for the next page', async () => {
    setOcrIdleMs(1_000);
    const image = await textImage('Invoice total 42');
    const before = ocrEngineStats();

    const first = await recognize(image);
    expect(first.paragraphs.map((p) => p.text).join(' ')).toMatch(/Invoice total 42/);
    await recognize(image);
    // Two pages, one engine, still there just after the last.
    expect(ocrEngineStats()).toEqual({ open: true, opened: before.opened + 1, ended: before.ended });

    await sleep(2_000);
    expect(ocrEngineStats()).toEqual({ open: false, opened: before.opened + 1, ended: before.ended + 1 });

    await expect(recognize(image)).resolves.toMatchObject({ score: expect.any(Number) });
    expect(ocrEngineStats()).toMatchObject({ open: true, opened: before.opened + 2 });
    setOcrIdleMs(0);
    await recognize(image);
    await sleep(200);
    expect(ocrEngineStats()).toMatchObject({ open: false, ended: before.ended + 2 });
  });
});
