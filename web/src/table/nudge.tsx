/**
 * Small words at the table when a click or a drop cannot do anything (a card dropped on the
 * pile before drawing, the pile clicked out of turn), and the one message a bad table link gets.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { navigate } from "../components";
import { t, type Key } from "../i18n";

const NUDGE_MS = 4500;

type Said = { key: Key; params?: Record<string, string | number> };

/**
 * A message that shows for a few seconds; ``say(null)`` says nothing. It is kept as a key,
 * so switching the language while it shows switches it too.
 */
export function useNudge(): [string | null, (key: Key | null, params?: Said["params"]) => void] {
  const [said, setSaid] = useState<Said | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const say = (key: Key | null, params?: Said["params"]) => {
    if (key === null) return;
    if (timer.current) clearTimeout(timer.current);
    setSaid({ key, params });
    timer.current = setTimeout(() => setSaid(null), NUDGE_MS);
  };
  return [said ? t(said.key, said.params) : null, say];
}

/** A table link that cannot open (unknown table, wrong token): why, and the way back. */
export function BadLink({ reason }: { reason: string }) {
  return (
    <main>
      <section class="panel bad-link" role="alert" data-testid="bad-link">
        <h2>{t("link.bad")}</h2>
        <p>{reason}</p>
        <p class="note">{t("link.badHelp")}</p>
        <a class="button primary" href="/" onClick={navigate}>{t("match.lobby")}</a>
      </section>
    </main>
  );
}
