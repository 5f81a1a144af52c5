/**
 * Cards that move: FLIP (First, Last, Invert, Play) with the Web Animations API.
 *
 * Before the table re-renders, the position of every card on it is read (`snapshot`); after,
 * each card that was already there and moved glides from its old place, and each card that is
 * new glides from where it came from: a card that left another zone with the same face (a
 * discard, a meld from the hand), else the stock (a draw), the pile (a pickup) or the seat of
 * the player who moved. Nothing runs when the player asked for reduced motion.
 */

export interface Spot {
  /** Who the card is: stable while it stays in its zone (`h12` a hand card by id). */
  key: string;
  face: string;
  zone: string;
  x: number;
  y: number;
}

export interface Flight {
  key: string;
  dx: number;
  dy: number;
}

export interface Sources {
  /** Where cards new to the hand come from when no card of their face left a zone. */
  handFrom: { x: number; y: number } | null;
  /** Where other new cards (an opponent's meld or discard) come from. */
  otherFrom: { x: number; y: number } | null;
}

/** The moves that make ``after`` look as if it came from ``before`` (pure: unit-tested). */
export function planFlights(before: Spot[], after: Spot[], sources: Sources): Flight[] {
  const old = new Map(before.map((s) => [s.key, s]));
  const now = new Set(after.map((s) => s.key));
  // cards that left: by face, to be claimed by the new card of the same face
  const gone = new Map<string, Spot[]>();
  for (const spot of before) {
    if (now.has(spot.key)) continue;
    const list = gone.get(spot.face) ?? [];
    list.push(spot);
    gone.set(spot.face, list);
  }
  const flights: Flight[] = [];
  for (const spot of after) {
    const was = old.get(spot.key);
    let from: { x: number; y: number } | null = null;
    if (was) from = was;
    else {
      const left = gone.get(spot.face)?.find((g) => g.zone !== spot.zone);
      if (left) {
        from = left;
        gone.set(spot.face, gone.get(spot.face)!.filter((g) => g !== left));
      } else from = spot.zone === "hand" ? sources.handFrom : sources.otherFrom;
    }
    if (!from) continue;
    const dx = from.x - spot.x;
    const dy = from.y - spot.y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    flights.push({ key: spot.key, dx, dy });
  }
  return flights;
}

export const FLIGHT_MS = 260;

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function centre(el: Element): { x: number; y: number } {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Every card on the table that may fly, with where it is now. */
export function snapshot(root: ParentNode): Spot[] {
  return [...root.querySelectorAll<HTMLElement>("[data-flip]")].map((el) => ({
    key: el.dataset.flip!, face: el.dataset.flipFace ?? "", zone: el.dataset.flipZone ?? "", ...centre(el),
  }));
}

/** Play the flights; returns how many started (the page counts them in `data-flights`). */
export function fly(root: ParentNode, before: Spot[], sources: Sources): number {
  if (reducedMotion()) return 0;
  const elements = new Map([...root.querySelectorAll<HTMLElement>("[data-flip]")].map((el) => [el.dataset.flip!, el]));
  const flights = planFlights(before, snapshot(root), sources);
  let started = 0;
  for (const f of flights) {
    const el = elements.get(f.key);
    if (!el || typeof el.animate !== "function") continue;
    el.animate([{ transform: `translate(${f.dx}px, ${f.dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    started += 1;
  }
  return started;
}

export { centre };
