/**
 * The table in view: the element (the melds, the stock and pile, the hand) takes the height
 * left below what is above it, so the whole table shows without scrolling at any size; the
 * meld areas scroll inside themselves (style.css, `.table-view`).
 */
import type { RefObject } from "preact";
import { useLayoutEffect } from "preact/hooks";

/** The height that fills the viewport below `top` (the element's offset from the page's top). */
export function fittedHeight(viewport: number, top: number, least = 420): number {
  return Math.max(least, Math.floor(viewport - top - 4));
}

export function useFitHeight(ref: RefObject<HTMLElement>, deps: unknown[]): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      el.style.height = `${fittedHeight(document.documentElement.clientHeight, top)}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    // what is above it may change height (a banner, the players' chips wrapping)
    const watch = new ResizeObserver(fit);
    if (el.parentElement) watch.observe(el.parentElement.parentElement ?? el.parentElement);
    return () => {
      window.removeEventListener("resize", fit);
      watch.disconnect();
    };
  }, deps);
}
