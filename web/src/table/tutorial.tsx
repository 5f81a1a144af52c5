/**
 * The guided first hand: the server deals a fixed deck at a tutorial table (one hand against a
 * bot), and these hints walk the newcomer through it, advancing as each step is done: draw,
 * meld, attach, take the pozzetto, close. The step is read from the table as it stands, so a
 * reload lands on the right hint.
 */
import { go, navigate } from "../components";
import type { HandView, TableState } from "../connection";
import { t, type Key } from "../i18n";
import { createTutorial } from "./extras-api";

export const TUTORIAL_STEPS = ["draw", "meld", "attach", "pozzetto", "close"] as const;
export type TutorialStep = (typeof TUTORIAL_STEPS)[number] | "done";

/** Create a tutorial table and open it (a guest is made for a newcomer without one). */
export async function startTutorial(): Promise<void> {
  const created = await createTutorial(t("tutorial.guest"));
  go(`/play/${encodeURIComponent(created.table_id)}`);
}

/** Which step the player is at, from what the table shows. */
export function tutorialStep(hand: HandView | null, me: number | null, finished: boolean): TutorialStep {
  if (finished) return "done";
  if (!hand || me === null) return "draw";
  if (hand.phase === "over") return hand.closer === me ? "done" : "close";
  const side = hand.side_of[me];
  const melds = hand.melds[side] ?? [];
  if (hand.pozzetto_taker[side] >= 0) return "close";
  if (melds.some((m) => m.split(" ").length >= 7)) return "pozzetto";
  if (melds.length > 0) return "attach";
  if (hand.phase === "play" && hand.turn === me) return "meld";
  return "draw";
}

export function TutorialCoach({ state }: { state: TableState }) {
  if (!state.config?.tutorial) return null;
  const step = tutorialStep(state.hand, state.seat, state.status === "finished" || state.matchOver !== null);
  const index = step === "done" ? TUTORIAL_STEPS.length : TUTORIAL_STEPS.indexOf(step);
  return (
    <section class="panel tutorial" data-tutorial-step={step} aria-live="polite" aria-label={t("tutorial.title")}>
      <h2>{t("tutorial.title")}</h2>
      <ol class="tutorial-steps">
        {TUTORIAL_STEPS.map((s, i) => (
          <li class={i < index ? "done" : i === index ? "now" : ""} data-step={s}>{t(`tutorial.name.${s}` as Key)}</li>
        ))}
      </ol>
      <p class="tutorial-hint" data-testid="tutorial-hint">{t(`tutorial.hint.${step}` as Key)}</p>
      {step === "done" && (
        <p>
          <a class="button primary" href="/" onClick={navigate}>{t("match.lobby")}</a>{" "}
          <a class="button" href="/help/" onClick={navigate}>{t("help.link")}</a>
        </p>
      )}
    </section>
  );
}
