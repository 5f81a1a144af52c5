/** The table's two remembered switches: the turn sound (and vibration), the four-colour deck. */
import { t } from "../i18n";
import { setPref, usePref } from "./prefs";

export function TablePrefs() {
  const muted = usePref("muted");
  const fourColour = usePref("fourColour");
  return (
    <div class="table-prefs" role="group" aria-label={t("feedback.prefs")}>
      <button type="button" data-pref="sound" aria-pressed={!muted}
        title={muted ? t("feedback.soundOn") : t("feedback.soundOff")} onClick={() => setPref("muted", !muted)}>
        <Speaker muted={muted} /> {t("feedback.sound")}
      </button>
      <button type="button" data-pref="four-colour" aria-pressed={fourColour} onClick={() => setPref("fourColour", !fourColour)}>
        <span aria-hidden="true" class="suits-sample">♠<b class="h">♥</b><b class="d">♦</b><b class="c">♣</b></span> {t("feedback.fourColour")}
      </button>
    </div>
  );
}

/** A speaker, crossed out when muted (drawn: not every phone has an emoji font). */
function Speaker({ muted }: { muted: boolean }) {
  return (
    <svg class="speaker" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2">
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
      {muted ? <path d="M17 9l5 6M22 9l-5 6" /> : <path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" />}
    </svg>
  );
}
