/** "How to play" in a few lines, with the guided first hand: shown on the help page. */
import { useState } from "preact/hooks";
import { t, type Key } from "../i18n";
import { startTutorial } from "../table/tutorial";

const STEPS: Key[] = ["howto.goal", "howto.turn", "howto.melds", "howto.burraco", "howto.pozzetto", "howto.close"];

export function HowToPlay() {
  const [error, setError] = useState<string | null>(null);
  return (
    <section class="panel howto" id="how-to-play" aria-labelledby="howto-title">
      <h2 id="howto-title">{t("howto.title")}</h2>
      <ol>{STEPS.map((key) => <li>{t(key)}</li>)}</ol>
      <p>
        <button type="button" class="primary" data-testid="start-tutorial"
          onClick={() => startTutorial().catch((err) => setError(String(err?.message ?? err)))}>
          {t("tutorial.start")}
        </button>{" "}
        {t("tutorial.startText")}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
