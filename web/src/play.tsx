/**
 * The lobby's first panel: one tap to play against bots, with the guided hand and the daily
 * duplicate beside it.
 *
 * A first visit needs no form: the newcomer plays under a generated nickname (kept for the
 * tab until they pick their own), made a guest on the server by the tap that starts the game.
 * The few choices (players, length, the bots' level and pace) are remembered on the device.
 */
import { useState } from "preact/hooks";
import { createTable, newGuest, type GuestInfo } from "./api";
import { go } from "./components";
import { errorText } from "./errors";
import { t, useLang } from "./i18n";
import { startTutorial } from "./table/tutorial";

/** The bots' pause before each move, in seconds, by the pace a player picks. */
export const PACES = { fast: 0.5, normal: 0.9, slow: 1.6 } as const;
export type Pace = keyof typeof PACES;
/** The quick formats, shortest first: one hand, or free play to 505. */
export const QUICK_FORMATS = ["one", "505"] as const;
export type QuickFormat = (typeof QUICK_FORMATS)[number];

export interface QuickChoice { players: 2 | 4; format: QuickFormat; level: string; pace: Pace }

const CHOICE = "burraco:quick";
const NICK = "burraco:generated-nickname";
const DEFAULT: QuickChoice = { players: 4, format: "one", level: "basic", pace: "normal" };

export function savedChoice(): QuickChoice {
  try {
    const raw = JSON.parse(localStorage.getItem(CHOICE) ?? "null") as Partial<QuickChoice> | null;
    if (!raw) return DEFAULT;
    return {
      players: raw.players === 2 ? 2 : 4,
      format: QUICK_FORMATS.includes(raw.format as QuickFormat) ? raw.format as QuickFormat : "one",
      level: typeof raw.level === "string" ? raw.level : "basic",
      pace: raw.pace && raw.pace in PACES ? raw.pace : "normal",
    };
  } catch {
    return DEFAULT;
  }
}

/** The nickname a newcomer plays under until they choose one: "Player 4821", kept per tab. */
export function generatedNickname(): string {
  let number = sessionStorage.getItem(NICK);
  if (!number) {
    number = String(1000 + Math.floor(Math.random() * 9000));
    sessionStorage.setItem(NICK, number);
  }
  return t("nick.generated", { n: number });
}

/** The guest to play as: the saved one, or a new guest under the generated nickname. */
export async function ensureGuest(guest: GuestInfo | null): Promise<GuestInfo> {
  return guest ?? newGuest(generatedNickname());
}

/** One table against bots as the quick choice says; the player sits at seat 0. */
export async function quickTable(choice: QuickChoice): Promise<string> {
  const bots = Array.from({ length: choice.players - 1 }, () => ({ kind: "bot" as const, level: choice.level }));
  const table = await createTable({
    players: choice.players, rules: "fibur", options: {},
    mode: choice.format === "one" ? "smazzate" : "free",
    target: choice.format === "one" ? null : 505, smazzate: choice.format === "one" ? 1 : null,
    seats: [{ kind: "human" }, ...bots],
    public: false, casual: true, turn_seconds: null, grace_seconds: 60, standin: "basic",
    bot_delay: PACES[choice.pace], creator_seat: 0,
  });
  return table.table_id;
}

function quickText(choice: QuickChoice): string {
  const who = t(choice.players === 4 ? "quick.who4" : "quick.who2");
  return t(choice.format === "one" ? "quick.oneHand" : "quick.to505", { who });
}

export function PlayPanel(props: {
  guest: GuestInfo | null; levels: string[]; account: boolean;
  levelName: (level: string) => string; onGuest: (g: GuestInfo) => void;
}) {
  useLang();
  const [choice, setChoice] = useState<QuickChoice>(savedChoice);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choose = (change: Partial<QuickChoice>) => {
    const next = { ...choice, ...change };
    setChoice(next);
    try { localStorage.setItem(CHOICE, JSON.stringify(next)); } catch { /* private mode: not kept */ }
  };
  const play = async () => {
    setBusy(true);
    setError(null);
    try {
      const guest = await ensureGuest(props.guest);
      if (guest !== props.guest) props.onGuest(guest);
      go(`/play/${await quickTable(choice)}`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const tutorial = () => startTutorial().catch((err) => setError(String(err?.message ?? err)));
  const select = (name: string, label: string, value: string, options: [string, string][],
    onPick: (v: string) => void) => (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => onPick((e.target as HTMLSelectElement).value)}>
        {options.map(([v, text]) => <option value={v}>{text}</option>)}
      </select>
    </label>
  );
  return (
    <section class="panel quick" aria-labelledby="quick-title">
      <h2 id="quick-title">{t("quick.title")}</h2>
      <button type="button" class="primary big play-now" data-testid="quick-play" disabled={busy} onClick={play}>
        {busy ? t("quick.starting") : t("quick.button")}
      </button>
      <p class="quick-what">{quickText(choice)}</p>
      <div class="quick-choices">
        {select("quick-players", t("create.players"), String(choice.players),
          [["4", t("quick.players4")], ["2", t("quick.players2")]],
          (v) => choose({ players: v === "2" ? 2 : 4 }))}
        {select("quick-format", t("quick.format"), choice.format,
          [["one", t("quick.format.one")], ["505", t("quick.format.505")]],
          (v) => choose({ format: v as QuickFormat }))}
        {select("quick-level", t("quick.level"), choice.level,
          props.levels.map((l) => [l, props.levelName(l)]), (v) => choose({ level: v }))}
        {select("quick-pace", t("quick.pace"), choice.pace,
          (Object.keys(PACES) as Pace[]).map((p) => [p, t(`pace.${p}`)]), (v) => choose({ pace: v as Pace }))}
      </div>
      <p class="buttons quick-more">
        <button type="button" data-testid="lobby-tutorial" onClick={tutorial}>{t("tutorial.start")}</button>
        {props.account && <a class="button" href="#daily" data-testid="quick-daily">{t("quick.daily")}</a>}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
