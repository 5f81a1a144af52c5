/** The lobby's way in for newcomers: how to play in three lines, the guided hand, the rules. */
import { useState } from "preact/hooks";
import { navigate } from "../components";
import { t } from "../i18n";
import { startTutorial } from "../table/tutorial";

export function LobbyHelp() {
  const [error, setError] = useState<string | null>(null);
  return (
    <section class="panel lobby-help" aria-labelledby="lobby-help-title">
      <h2 id="lobby-help-title">{t("howto.title")}</h2>
      <p>{t("howto.short")}</p>
      <p class="buttons">
        <button type="button" class="primary" data-testid="lobby-tutorial"
          onClick={() => startTutorial().catch((err) => setError(String(err?.message ?? err)))}>
          {t("tutorial.start")}
        </button>
        <a class="button" href="/help/#how-to-play" onClick={navigate} data-testid="lobby-howto">{t("howto.more")}</a>
        <a class="button" href="/help/#rules-title" onClick={navigate}>{t("help.rules")}</a>
      </p>
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
