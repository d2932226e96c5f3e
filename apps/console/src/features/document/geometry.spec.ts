import { fitScale, iou, labelPlacement, scaleBox, union } from './geometry';

describe('document geometry', () => {
  it('scales a box from page units to CSS pixels', () => {
    expect(scaleBox({ x0: 100, y0: 50, x1: 300, y1: 70 }, 1.5)).toEqual({ left: 150, top: 75, width: 300, height: 30 });
    // Reversed corners are put right.
    expect(scaleBox({ x0: 300, y0: 70, x1: 100, y1: 50 }, 0.5)).toEqual({ left: 50, top: 25, width: 100, height: 10 });
  });

  it('keeps a box too thin to see at the minimum size, centred on it', () => {
    expect(scaleBox({ x0: 10, y0: 10, x1: 10, y1: 40 }, 1, 4)).toEqual({ left: 8, top: 10, width: 4, height: 30 });
  });

  it('fits a page to the width available, within bounds', () => {
    expect(fitScale(612, 918)).toBe(1.5);
    expect(fitScale(612, 306)).toBe(0.5);
    expect(fitScale(612, 2000, 2)).toBe(2);
    expect(fitScale(612, 10)).toBe(0.1);
    expect(fitScale(0, 500)).toBe(1);
    expect(fitScale(612, 0)).toBe(1);
  });

  it('measures overlap and joins boxes', () => {
    const a = { x0: 0, y0: 0, x1: 10, y1: 10 };
    expect(iou(a, a)).toBe(1);
    expect(iou(a, { x0: 5, y0: 0, x1: 15, y1: 10 })).toBeCloseTo(50 / 150);
    expect(iou(a, { x0: 20, y0: 20, x1: 30, y1: 30 })).toBe(0);
    expect(union([a, { x0: 5, y0: -5, x1: 12, y1: 8 }])).toEqual({ x0: 0, y0: -5, x1: 12, y1: 10 });
  });

  it('puts a label above a box, or below it at the top of the page, inside the page', () => {
    const page = { width: 600, height: 800 };
    const label = { width: 320, height: 52 };
    expect(labelPlacement({ left: 100, top: 200, width: 50, height: 10 }, page, label)).toEqual({ left: 100, top: 144 });
    expect(labelPlacement({ left: 500, top: 10, width: 50, height: 10 }, page, label)).toEqual({ left: 280, top: 24 });
  });
});
