/**
 * Boxes of the node tree (PDF points or image pixels, origin top-left) on a rendered page (CSS
 * pixels). Pure: no React, no DOM.
 */
import type { Box } from '../../router/document-links';

/** Where a box is drawn over a page rendered at `scale` CSS pixels per page unit. */
export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box scaled onto the rendered page; a box too thin to see or to point at is made `minSize` wide or high. */
export function scaleBox(box: Box, scale: number, minSize = 2): ScreenRect {
  const x0 = Math.min(box.x0, box.x1) * scale;
  const y0 = Math.min(box.y0, box.y1) * scale;
  const width = Math.abs(box.x1 - box.x0) * scale;
  const height = Math.abs(box.y1 - box.y0) * scale;
  const w = Math.max(width, minSize);
  const h = Math.max(height, minSize);
  return { left: x0 - (w - width) / 2, top: y0 - (h - height) / 2, width: w, height: h };
}

/**
 * The scale that fits a page `pageWidth` units wide into `available` CSS pixels, no larger than
 * `max` (a small page is not blown up past legibility) and never zero.
 */
export function fitScale(pageWidth: number, available: number, max = 1.5): number {
  if (!(pageWidth > 0) || !(available > 0)) return 1;
  return Math.max(0.1, Math.min(max, available / pageWidth));
}

export const area = (b: Box): number => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);

/** The area two boxes share. */
export function overlap(a: Box, b: Box): number {
  return area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
}

/** Intersection over union: 1 for the same box, 0 for boxes apart. */
export function iou(a: Box, b: Box): number {
  const shared = overlap(a, b);
  const total = area(a) + area(b) - shared;
  return total > 0 ? shared / total : 0;
}

/** The smallest box holding all of them. */
export function union(boxes: ReadonlyArray<Box>): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/**
 * Where a box's label goes: above the box when there is room, else below it; kept inside the
 * page horizontally.
 */
export function labelPlacement(rect: ScreenRect, page: { width: number; height: number }, label: { width: number; height: number }) {
  const above = rect.top - label.height - 4;
  const top = above >= 0 ? above : Math.min(rect.top + rect.height + 4, Math.max(0, page.height - label.height));
  const left = Math.max(0, Math.min(rect.left, page.width - label.width));
  return { left, top };
}
