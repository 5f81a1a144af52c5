/**
 * The help page (`/help/`, `/rules/`): how to play in a few lines, the tutorial, and the
 * players' rules in the page's language, with an anchor for every section a refusal cites.
 *
 * The rules are written for players, one Markdown file per language in `rules/` (`en.md`,
 * `it.md`: a new language is a new file); their chapters and sections carry the numbers of
 * the developers' digest (docs/RULES.md), which the engine's refusals cite, so `§3.1.4` opens
 * the paragraph that says it. The page and the rules load only when asked for (main.tsx
 * imports this module lazily, and each language's text is a chunk of its own).
 */
import { useEffect, useState } from "preact/hooks";
import { Header, navigate } from "../components";
import { pref } from "../feedback/prefs";
import { t, useLang, type Lang } from "../i18n";
import { HowToPlay } from "./HowToPlay";
import { renderRules, type Rendered } from "./markdown";
import { anchorsFor } from "./refs";

const FILES = import.meta.glob<string>("./rules/*.md", { query: "?raw", import: "default" });

/** The language the rules are shown in: the page's, or English where it has no file yet. */
function rulesLang(lang: Lang): Lang {
  return FILES[`./rules/${lang}.md`] ? lang : "en";
}

/** Rendered rules by language and deck (the pictures draw the player's four-colour deck). */
const cache = new Map<string, Rendered>();
const cacheKey = (lang: Lang) => `${lang}:${pref("fourColour")}`;

async function rulesIn(lang: Lang): Promise<Rendered> {
  const known = cache.get(cacheKey(lang));
  if (known) return known;
  const text = await FILES[`./rules/${lang}.md`]();
  const rendered = renderRules(text, { lang, fourColour: pref("fourColour") });
  cache.set(cacheKey(lang), rendered);
  return rendered;
}

/** Scroll to the section the address names; a missing item falls back to its section. */
function showHash(): void {
  const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  if (!hash) return;
  const ref = hash.startsWith("rule-") ? hash.slice(5).replace(/-/g, ".") : null;
  const ids = ref ? anchorsFor(ref) : [hash];
  for (const id of ids) {
    const found = document.getElementById(id);
    if (found) {
      // an anchor inside a block (its second number) marks the block
      const target = found.classList.contains("anchor") && found.parentElement ? found.parentElement : found;
      document.querySelectorAll(".rules .target").forEach((el) => el.classList.remove("target"));
      target.classList.add("target");
      target.scrollIntoView({ block: "start" });
      return;
    }
  }
}

export function HelpPage() {
  const lang = rulesLang(useLang());
  // the text shown is kept with its language: after a switch the old language stays on screen,
  // marked as what it is, until the new one has loaded
  const [shown, setShown] = useState<{ lang: Lang; rendered: Rendered } | null>(
    cache.has(cacheKey(lang)) ? { lang, rendered: cache.get(cacheKey(lang))! } : null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setFailed(false);
    rulesIn(lang).then((r) => { if (live) setShown({ lang, rendered: r }); })
      .catch(() => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [lang]);
  const rendered = shown?.rendered ?? null;
  useEffect(() => {
    document.title = `${t("help.title")} · ${t("app.title")}`;
    if (rendered) requestAnimationFrame(showHash);
    const onHash = () => showHash();
    window.addEventListener("hashchange", onHash);
    window.addEventListener("burraco:navigate", onHash);
    return () => {
      window.removeEventListener("hashchange", onHash);
      window.removeEventListener("burraco:navigate", onHash);
    };
  }, [shown, lang]);
  const chapters = rendered?.toc.filter((e) => e.level === 2) ?? [];
  return (
    <div class="page help-page">
      <Header />
      <main>
        <h1>{t("help.title")}</h1>
        <HowToPlay />
        <section class="panel rules-panel" aria-labelledby="rules-title">
          <h2 id="rules-title">{t("help.rules")}</h2>
          <p class="note">{t("help.rulesNote")}</p>
          {failed && <p class="error" role="alert">{t("help.failed")}</p>}
          {!rendered && !failed && <p>{t("help.loading")}</p>}
          {shown && (
            <>
              <nav class="toc" aria-label={t("help.contents")}>
                <ul>{chapters.map((e) => <li><a href={`#${e.id}`}>{e.title}</a></li>)}</ul>
              </nav>
              <article class="rules" lang={shown.lang} data-lang={shown.lang}
                dangerouslySetInnerHTML={{ __html: shown.rendered.html }} />
            </>
          )}
        </section>
        <p class="help-foot"><a href="/privacy" onClick={navigate} data-testid="privacy-link">{t("privacy.title")}</a></p>
      </main>
    </div>
  );
}
