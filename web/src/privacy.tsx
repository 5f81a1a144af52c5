/**
 * /privacy: what the platform keeps about a person, why, for how long, and what exporting
 * and deleting the account do (docs/privacy.md says the same for the people who run it),
 * in the reader's language.
 */
import { useEffect } from "preact/hooks";
import { savedGuest } from "./api";
import { Header, navigate } from "./components";
import { t, useLang, type Key } from "./i18n";
import { isAccount } from "./players";
import "./trust.css";

/** A section: its title, then paragraphs (a key) and lists (keys, one an item). */
type Block = Key | Key[];
export const PRIVACY: { id: string; title: Key; blocks: Block[] }[] = [
  { id: "kept", title: "privacy.kept", blocks: [
    "privacy.keptIntro",
    ["privacy.keptAccount", "privacy.keptSessions", "privacy.keptGames", "privacy.keptSocial", "privacy.keptSafety",
      "privacy.keptGuest"],
    "privacy.keptBrowser",
    "privacy.keptNot",
  ] },
  { id: "why", title: "privacy.why", blocks: ["privacy.whyText"] },
  { id: "how-long", title: "privacy.howLong", blocks: [
    ["privacy.longAccount", "privacy.longSessions", "privacy.longGames", "privacy.longReports", "privacy.longGuests",
      "privacy.longBackups"],
  ] },
  { id: "export", title: "privacy.export", blocks: ["privacy.exportText"] },
  { id: "delete", title: "privacy.delete", blocks: [
    "privacy.deleteText",
    ["privacy.deleteGone", "privacy.deleteAnon", "privacy.deleteKept"],
  ] },
  { id: "recovery", title: "privacy.recovery", blocks: ["privacy.recoveryText"] },
  { id: "moderation", title: "privacy.moderation", blocks: ["privacy.moderationText", "privacy.screeningText"] },
  { id: "questions", title: "privacy.questions", blocks: ["privacy.questionsText"] },
];

export function PrivacyPage() {
  useLang();
  useEffect(() => { document.title = `${t("privacy.title")} · ${t("app.title")}`; });
  const account = isAccount(savedGuest());
  return (
    <div class="page trust privacy">
      <Header />
      <main>
        <h1>{t("privacy.title")}</h1>
        <p class="lead">{t("privacy.intro")}</p>
        <nav class="toc" aria-label={t("help.contents")}>
          <ul>{PRIVACY.map((s) => <li><a href={`#${s.id}`}>{t(s.title)}</a></li>)}</ul>
        </nav>
        {PRIVACY.map((section) => (
          <section class="panel" id={section.id} aria-labelledby={`${section.id}-title`} data-section={section.id}>
            <h2 id={`${section.id}-title`}>{t(section.title)}</h2>
            {section.blocks.map((block) => (Array.isArray(block)
              ? <ul class="trust-list">{block.map((k) => <li>{t(k)}</li>)}</ul>
              : <p>{t(block)}</p>))}
          </section>
        ))}
        <p class="buttons">
          {account && <a class="button" href="/account" onClick={navigate} data-testid="account-link">{t("acct.title")}</a>}
          <a class="button" href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a>
        </p>
      </main>
    </div>
  );
}
