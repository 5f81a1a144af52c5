/** The page of an unknown address (the server sends it with a 404): what happened, the way back. */
import { CardBack, Header, navigate } from "./components";
import { t, useLang } from "./i18n";

export function NotFoundPage() {
  useLang();
  return (
    <div class="page not-found">
      <Header />
      <main>
        <section class="panel bad-link" data-testid="not-found">
          <div class="lost-cards" aria-hidden="true"><CardBack pack={0} /><CardBack pack={1} /></div>
          <h1>{t("notFound.title")}</h1>
          <p>{t("notFound.text")}</p>
          <a class="button primary" href="/" onClick={navigate}>{t("match.lobby")}</a>
        </section>
      </main>
    </div>
  );
}
