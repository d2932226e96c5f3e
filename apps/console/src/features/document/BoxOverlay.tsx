import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import classes from './document.module.css';
import { labelPlacement, scaleBox } from './geometry';
import type { Box } from '../../router/document-links';
import { nodeLabel, textOf, typeName, type PageBox } from './tree';

export const boxElementId = (nodeId: string, i: number) => `box-${nodeId}-${i}`;

interface Props {
  boxes: PageBox[];
  /** CSS pixels per page unit. */
  scale: number;
  /** The rendered page's size in CSS pixels. */
  size: { width: number; height: number };
  page: number;
  highlightId: string | null;
  /** A cited box that matches no node, drawn as it is. */
  citedBox: Box | null;
  /** Boxes other than the highlighted one are drawn without borders (still focusable). */
  hideBoxes: boolean;
}

const LABEL = { width: 320, height: 52 };

/**
 * The node boxes of one page over its rendering. Keyboard: Tab enters the boxes (at the
 * highlighted one, else the first), the arrow keys move in reading order, Home/End jump; hovering
 * or focusing a box shows its node's type and text.
 */
export function BoxOverlay({ boxes, scale, size, page, highlightId, citedBox, hideBoxes }: Props) {
  const highlightedIndex = useMemo(() => boxes.findIndex((b) => b.node.id === highlightId), [boxes, highlightId]);
  const [active, setActive] = useState<number | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const refs = useRef<Array<HTMLDivElement | null>>([]);
  const tabStop = active !== null && active < boxes.length ? active : Math.max(0, highlightedIndex);

  const move = (event: KeyboardEvent<HTMLDivElement>, from: number) => {
    const to =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? Math.min(boxes.length - 1, from + 1)
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? Math.max(0, from - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? boxes.length - 1
              : null;
    if (to === null) return;
    event.preventDefault();
    setActive(to);
    refs.current[to]?.focus();
  };

  const shownBox = shown !== null ? boxes[shown] : null;
  const shownRect = shownBox ? scaleBox(shownBox.box, scale) : null;
  // The label's real height (its text wraps to more lines on a narrow page): placed with an estimate
  // first, then again with what it measures, so it sits above or below the box, never over its text.
  const label = useRef<HTMLDivElement>(null);
  const [labelHeight, setLabelHeight] = useState(LABEL.height);
  useLayoutEffect(() => {
    const h = label.current?.offsetHeight;
    if (h && h !== labelHeight) setLabelHeight(h);
  }, [shown, labelHeight, size.width]);
  const place = shownRect ? labelPlacement(shownRect, size, { width: Math.min(LABEL.width, size.width), height: labelHeight }) : null;

  return (
    <div
      className={`${classes.overlay} ${hideBoxes ? classes.hidden : ''}`}
      role="list"
      aria-label={`Boxes of page ${page}: ${boxes.length}. Arrow keys move between them.`}
      data-boxes={boxes.length}
    >
      {boxes.map((b, i) => {
        const r = scaleBox(b.box, scale);
        const highlighted = b.node.id === highlightId;
        return (
          <div
            key={`${b.node.id}-${i}`}
            ref={(el) => {
              refs.current[i] = el;
            }}
            id={boxElementId(b.node.id, i)}
            className={classes.box}
            role="listitem"
            aria-label={nodeLabel(b.node)}
            aria-current={highlighted ? 'location' : undefined}
            tabIndex={i === tabStop ? 0 : -1}
            data-box
            data-node-id={b.node.id}
            data-type={b.node.type}
            data-highlighted={String(highlighted)}
            style={{ left: r.left, top: r.top, width: r.width, height: r.height }}
            onKeyDown={(e) => move(e, i)}
            onFocus={() => {
              setActive(i);
              setShown(i);
            }}
            onBlur={() => setShown((s) => (s === i ? null : s))}
            onMouseEnter={() => setShown(i)}
            onMouseLeave={() => setShown((s) => (s === i ? null : s))}
          />
        );
      })}
      {citedBox && <CitedBox box={citedBox} scale={scale} />}
      {shownBox && place && (
        <div ref={label} className={classes.label} style={{ left: place.left, top: place.top }} aria-hidden data-box-label>
          <strong>
            {typeName(shownBox.node)} · page {page}
          </strong>
          {textOf(shownBox.node, 160) || '(no text)'}
        </div>
      )}
    </div>
  );
}

function CitedBox({ box, scale }: { box: Box; scale: number }) {
  const r = scaleBox(box, scale);
  return (
    <div
      className={classes.box}
      role="listitem"
      aria-label="Cited area"
      aria-current="location"
      tabIndex={-1}
      data-box
      data-cited-box
      data-type="cited"
      data-highlighted="true"
      style={{ left: r.left, top: r.top, width: r.width, height: r.height }}
    />
  );
}
