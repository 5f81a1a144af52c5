/**
 * How far the hand's cards overlap: only as much as the row needs. A hand of eleven on a
 * wide screen shows every card whole; a long hand on a phone overlaps to stay on few rows.
 */
import { useLayoutEffect, useState } from "preact/hooks";

/** The step from one card's left edge to the next, in px, for ``count`` cards in ``width`` px. */
export function cardStep(width: number, cardWidth: number, count: number, gap = 4, minShown = 0.34): number {
  const whole = cardWidth + gap;
  if (count <= 1 || width <= 0) return whole;
  const fit = (width - cardWidth) / (count - 1);
  return Math.max(cardWidth * minShown, Math.min(whole, fit));
}

const ROW_PADDING = 14;
/** How much of each card shows at the most: a phone's narrow row shows just the corner's
 * index (rank over suit), so a hand that took the pile stays on one row. */
const MIN_SHOWN_NARROW = 0.26;
const MIN_SHOWN = 0.34;
const NARROW = 440;

/** The step for the hand's row: {@link cardStep} with the overlap a row of that width allows. */
export function handStep(width: number, cardWidth: number, count: number): number {
  return cardStep(width, cardWidth, count, 4, width < NARROW ? MIN_SHOWN_NARROW : MIN_SHOWN);
}

/** Watch the hand row's width and give the overlap (negative margin) its cards need. */
export function useHandFit(element: HTMLElement | null, count: number): number | null {
  const [width, setWidth] = useState(0);
  const [cardWidth, setCardWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      // the row's padding follows the overlap; a fixed allowance keeps this from chasing itself
      const inner = element.clientWidth - ROW_PADDING;
      const card = element.querySelector<HTMLElement>(".card-face");
      setWidth(inner);
      setCardWidth(card?.offsetWidth ?? 0);
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, count]);
  if (!width || !cardWidth) return null;
  return handStep(width, cardWidth, count) - cardWidth;
}
