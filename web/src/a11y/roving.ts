/**
 * The hand is one Tab stop (a roving tabindex): one card is focusable, the arrow keys move
 * between cards, Home and End jump to the ends. When the focused card leaves the hand (a
 * discard, a meld) its neighbour takes its place, so focus never falls back to the page top.
 */

/** The card to focus after ``key`` on card ``current`` (null: the key is not ours). */
export function rovingTarget(shown: number[], current: number, key: string): number | null {
  const at = shown.indexOf(current);
  if (at < 0 || !shown.length) return null;
  if (key === "ArrowLeft" || key === "ArrowUp") return shown[Math.max(0, at - 1)];
  if (key === "ArrowRight" || key === "ArrowDown") return shown[Math.min(shown.length - 1, at + 1)];
  if (key === "Home") return shown[0];
  if (key === "End") return shown[shown.length - 1];
  return null;
}

/** The card holding the Tab stop now: ``active`` if still in the hand, else its neighbour. */
export function keptActive(before: number[], shown: number[], active: number | null): number | null {
  if (!shown.length) return null;
  if (active !== null && shown.includes(active)) return active;
  if (active === null) return shown[0];
  // the first card after it that is still there, else the one before it
  const at = before.indexOf(active);
  if (at >= 0) {
    for (let i = at + 1; i < before.length; i++) if (shown.includes(before[i])) return before[i];
    for (let i = at - 1; i >= 0; i--) if (shown.includes(before[i])) return before[i];
  }
  return shown[Math.min(Math.max(at, 0), shown.length - 1)];
}
