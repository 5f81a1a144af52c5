/**
 * Drag and drop with pointer events (mouse, pen and touch alike). A press that moves more
 * than a few pixels becomes a drag: a ghost of the element follows the pointer, the drop
 * target under it (the nearest element with `data-drop`) is highlighted, and on release the
 * callback gets that target. A press that does not move stays a click, so every drag has a
 * click (and keyboard) equivalent in the page. With `onTap`, such a press is a tap on the
 * element pressed, even when the page moved it away before the release: a frame that re-lays
 * the table between press and release would otherwise send the click to a parent, and the
 * tap would be lost.
 */

const THRESHOLD = 6;

export interface DropInfo {
  /** The `data-drop` value of the target, or null when released elsewhere. */
  target: string | null;
  element: HTMLElement | null;
  x: number;
  y: number;
}

/**
 * The click that the browser sends after a press handled here is not a second press. A busy
 * page may get that click well after the release, so the guard lasts until that click comes
 * or the next press starts (a new press is a new click's own); a keyboard's click (`detail`
 * 0) is never eaten.
 */
function swallowNextClick(): void {
  const done = () => {
    window.removeEventListener("click", swallow, { capture: true });
    window.removeEventListener("pointerdown", done, { capture: true });
  };
  const swallow = (c: Event) => {
    if (c instanceof MouseEvent && c.detail === 0) return;
    done();
    c.stopPropagation();
    c.preventDefault();
  };
  window.addEventListener("click", swallow, { capture: true });
  window.addEventListener("pointerdown", done, { capture: true });
}

/** Pixels from the window's top or bottom edge where a drag scrolls the page. */
export const EDGE = 48;

/** How far a drag at height ``y`` scrolls the page each frame: faster nearer the edge. */
export function edgeStep(y: number, height: number): number {
  if (y < EDGE) return -Math.ceil(((EDGE - Math.max(y, 0)) / EDGE) * 18);
  if (y > height - EDGE) return Math.ceil(((y - (height - EDGE)) / EDGE) * 18);
  return 0;
}

function dropTargetAt(x: number, y: number): HTMLElement | null {
  const hit = document.elementFromPoint(x, y);
  return hit instanceof HTMLElement ? (hit.closest("[data-drop]") as HTMLElement | null) : null;
}

/**
 * A button's handlers that also count a press whose release the page moved off the button (a
 * frame that re-lays the table between press and release): the press is the tap, as on a hand
 * card. A press that slides away is no tap; the keyboard's click is the button's own.
 */
export function pressable(handler: () => void): {
  onClick: () => void; onPointerDown: (e: PointerEvent) => void;
} {
  return {
    onClick: handler,
    onPointerDown: (e: PointerEvent) => startDrag(e, () => {}, { onTap: handler, tapOnly: true }),
  };
}

const isDisabled = (el: HTMLElement) => el instanceof HTMLButtonElement && el.disabled;

export function startDrag(
  ev: PointerEvent,
  onDrop: (drop: DropInfo) => void,
  opts: { label?: string; onTap?: () => void; tapOnly?: boolean } = {},
): void {
  if (ev.button !== 0 || !(ev.currentTarget instanceof HTMLElement)) return;
  const source = ev.currentTarget;
  if (isDisabled(source)) return;
  const startX = ev.clientX;
  const startY = ev.clientY;
  const pointer = ev.pointerId;
  let ghost: HTMLElement | null = null;
  let over: HTMLElement | null = null;
  let lastX = startX;
  let lastY = startY;
  let scrolling = 0;

  const highlight = () => {
    const target = dropTargetAt(lastX, lastY);
    if (target !== over) {
      over?.classList.remove("drop-over");
      target?.classList.add("drop-over");
      over = target;
    }
  };
  // a meld above or below the screen is reached by holding the card near that edge: the page
  // scrolls under it, as a list does in the apps people know
  const edgeScroll = () => {
    scrolling = 0;
    if (!ghost) return;
    const step = edgeStep(lastY, window.innerHeight);
    if (step === 0) return;
    window.scrollBy(0, step);
    highlight();
    scrolling = requestAnimationFrame(edgeScroll);
  };

  const move = (e: PointerEvent) => {
    if (e.pointerId !== pointer) return;
    lastX = e.clientX;
    lastY = e.clientY;
    if (!ghost) {
      if (Math.hypot(e.clientX - startX, e.clientY - startY) < THRESHOLD) return;
      if (opts.tapOnly) {
        // slid away: no tap, and the browser's own click (if any) is left alone
        stop();
        return;
      }
      const rect = source.getBoundingClientRect();
      ghost = source.cloneNode(true) as HTMLElement;
      ghost.classList.add("drag-ghost");
      ghost.removeAttribute("data-drop");
      ghost.style.width = `${rect.width}px`;
      ghost.style.height = `${rect.height}px`;
      if (opts.label) ghost.setAttribute("data-count", opts.label);
      document.body.appendChild(ghost);
      document.body.classList.add("dragging");
      source.classList.add("drag-source");
    }
    ghost.style.transform = `translate(${e.clientX - 20}px, ${e.clientY - 30}px) rotate(4deg)`;
    highlight();
    if (!scrolling && edgeStep(lastY, window.innerHeight) !== 0) scrolling = requestAnimationFrame(edgeScroll);
    e.preventDefault();
  };

  const stop = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (scrolling) cancelAnimationFrame(scrolling);
    scrolling = 0;
  };
  const finish = (e: PointerEvent, cancelled: boolean) => {
    if (e.pointerId !== pointer) return;
    stop();
    if (!ghost) {
      // a button the move in between disabled (a draw already made) is not pressed again
      if (!cancelled && opts.onTap && !isDisabled(source)) {
        swallowNextClick();
        opts.onTap();
      }
      return;
    }
    ghost.remove();
    document.body.classList.remove("dragging");
    source.classList.remove("drag-source");
    over?.classList.remove("drop-over");
    // the click that follows a drag is not a click
    swallowNextClick();
    if (cancelled) return;
    const target = dropTargetAt(e.clientX, e.clientY);
    onDrop({ target: target?.dataset.drop ?? null, element: target, x: e.clientX, y: e.clientY });
  };
  const up = (e: PointerEvent) => finish(e, false);
  const cancel = (e: PointerEvent) => finish(e, true);

  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}
