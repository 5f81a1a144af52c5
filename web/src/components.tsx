/** Small shared pieces: a card, a card back, the language switch, a dialog. */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { cardSpoken } from "./a11y/spoken";
import { backImage, cardLabel, faceImage, parseCard } from "./cards";
import { pref } from "./feedback/prefs";
import { OfflineBanner } from "./pwa/offline";
import { langName, LANGS, setLang, t, useLang, type Lang } from "./i18n";

/** A card's picture; ``flip`` names it for the card flights (feedback/flip.ts) in ``zone``. */
export function CardFace(props: { text: string; id?: number; small?: boolean; class?: string; flip?: string; zone?: string }) {
  const card = parseCard(props.text);
  const label = cardLabel(card.face) + (card.role ? ` (= ${cardLabel(card.role)})` : "");
  return (
    <span class={`card-face ${props.small ? "small" : ""} ${props.class ?? ""}`} data-card={card.face}
      title={label} data-flip={props.flip} data-flip-face={props.flip ? card.face : undefined} data-flip-zone={props.zone}>
      <img src={faceImage(card.face, props.id, pref("fourColour"))} alt={cardSpoken(props.text)} draggable={false} />
      {card.role && <span class="role">{cardLabel(card.role)}</span>}
    </span>
  );
}

export function CardBack(props: { pack?: number; small?: boolean }) {
  return (
    <span class={`card-face back ${props.small ? "small" : ""}`}>
      <img src={backImage(props.pack ?? 0)} alt="" draggable={false} />
    </span>
  );
}

export function LangSwitch() {
  const current = useLang();
  return (
    <select class="lang" name="lang" aria-label={t("nav.language")} value={current}
      onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as Lang)}>
      {LANGS.map((code) => (
        <option value={code} lang={code} data-lang={code}>{langName(code)}</option>
      ))}
    </select>
  );
}

export function Dialog(props: { title: string; children: ComponentChildren; onClose?: () => void; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // focus the dialog itself, at its top: focusing its first button would scroll a long
    // dialog (the score) down to where that button sits
    ref.current?.focus({ preventScroll: true });
    if (ref.current) ref.current.scrollTop = 0;
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape" && props.onClose) props.onClose();
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);
  return (
    <div class="overlay">
      <div class={`dialog ${props.class ?? ""}`} role="dialog" aria-modal="true" aria-label={props.title} ref={ref}
        tabIndex={-1}>
        <div class="dialog-head">
          <h2>{props.title}</h2>
          {props.onClose && (
            <button type="button" class="close" data-testid="dialog-close" aria-label={t("dialog.close")}
              title={t("dialog.close")} onClick={props.onClose}>×</button>
          )}
        </div>
        {props.children}
      </div>
    </div>
  );
}

/** The top bar of every page, and under it the offline banner (``socketDown``: a table's link is down). */
export function Header(props: { children?: ComponentChildren; socketDown?: boolean }) {
  useLang();
  return (
    <>
    <header class="top">
      <a class="brand" href="/" onClick={navigate}>
        <img src="/cards/B2.svg" alt="" /> {t("app.title")}
      </a>
      <div class="top-middle">{props.children}</div>
      <LangSwitch />
    </header>
    <OfflineBanner socketDown={props.socketDown} />
    </>
  );
}

/** Client-side navigation for same-origin links. */
export function navigate(ev: MouseEvent): void {
  const link = ev.currentTarget as HTMLAnchorElement;
  if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  go(link.getAttribute("href") ?? "/");
}

export function go(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("burraco:navigate"));
}
