/** The table's hook for card flights: read the cards before each new view, fly them after. */
import { useLayoutEffect, useRef } from "preact/hooks";
import type { HandView, LogLine } from "../connection";
import { centre, fly, snapshot, type Spot } from "./flip";

function spotOf(selector: string): { x: number; y: number } | null {
  const el = document.querySelector(selector);
  return el ? centre(el) : null;
}

/** Where the cards new to the hand came from, by the last move before this view. */
function handSource(last: LogLine | undefined): string {
  if (last?.type === "PickedUp") return "[data-testid=pile]";
  if (last?.type === "PozzettoTaken" || last?.type === "PozzettoSeen") return ".pozzetti";
  return "[data-testid=stock]";
}

export function useFlights(hand: HandView | null, log: LogLine[]): void {
  const seen = useRef<HandView | null>(null);
  const before = useRef<Spot[] | null>(null);
  const mover = useRef<number | null>(null);
  if (hand !== seen.current && typeof document !== "undefined") {
    // render time, before the commit: the DOM still shows the previous view
    const board = document.querySelector(".board");
    before.current = board ? snapshot(board) : null;
    mover.current = seen.current?.turn ?? null;
  }
  useLayoutEffect(() => {
    const previous = seen.current;
    seen.current = hand;
    const board = document.querySelector(".board");
    if (!previous || !hand || !board || !before.current || previous.number !== hand.number) return;
    const last = [...log].reverse().find((l) => l.type !== "Undone");
    const seat = last?.seat ?? mover.current;
    const started = fly(board, before.current, {
      handFrom: spotOf(handSource(last)),
      otherFrom: seat !== null && seat !== undefined ? spotOf(`[data-player="${seat}"]`) : null,
    });
    const root = document.querySelector<HTMLElement>(".table-page");
    if (root && started) root.dataset.flights = String(Number(root.dataset.flights ?? 0) + started);
  }, [hand]);
}
