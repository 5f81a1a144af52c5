/**
 * Avatars: the drawn pictures that stand for a player (web/scripts/avatars.mjs draws them, the
 * build writes /avatars/<id>.svg). An account picks one of PEOPLE (the server keeps it and
 * sends it with profiles, leaderboard rows and the table's seats); bots show their level's
 * robot; a guest shows the guests' silhouette. The ids are the server's too
 * (src/burraco/accounts/avatars.py; web/test/avatars.test.ts holds the lists together).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, call } from "./api";
import { has, t, useLang } from "./i18n";
import "./avatars.css";

export const PEOPLE = ["fox", "owl", "cat", "bear", "rabbit", "frog", "panda", "lion", "penguin",
  "hedgehog", "koala", "tiger", "mouse", "deer", "turtle", "dog"] as const;
export const BOTS: Record<string, string> = {
  random: "bot-random", basic: "bot-basic", advanced: "bot-advanced", expert: "bot-expert",
};
/** An outside engine's seat, or a level without a picture of its own. */
export const ENGINE = "bot-engine";
export const GUEST = "guest";

const KNOWN = new Set<string>([...PEOPLE, ...Object.values(BOTS), ENGINE, GUEST]);

/** An id this client has a picture for (an unknown one shows the guests'). */
export function known(id: string | null | undefined): string {
  return id && KNOWN.has(id) ? id : GUEST;
}

export function avatarUrl(id: string | null | undefined): string {
  return `/avatars/${known(id)}.svg`;
}

export function avatarName(id: string | null | undefined): string {
  const key = `avatar.${known(id)}`;
  return has(key) ? t(key) : known(id);
}

export function botAvatar(level: string | null | undefined): string {
  return BOTS[level ?? ""] ?? ENGINE;
}

interface SeatLike { kind: "human" | "bot"; level: string | null; avatar?: string | null }

/**
 * The picture of a seat: what the server says, else (a server from before avatars) the bot
 * level's or the guests'; ``null`` for a seat nobody holds.
 */
export function seatAvatar(presence: (SeatLike & { nickname?: string | null }) | undefined,
  spec?: { kind: "human" | "bot"; level: string | null }): string | null {
  if (presence?.avatar) return known(presence.avatar);
  const kind = spec?.kind ?? presence?.kind;
  if (kind === "bot") return botAvatar(spec?.level ?? presence?.level);
  return presence?.nickname ? GUEST : null;
}

/**
 * An avatar picture. Beside a name it is decorative (``alt=""``, the name says who; the title
 * names the picture); alone (``label``), its name is its text.
 */
export function Avatar(props: { id: string | null | undefined; size?: "s" | "m" | "l"; label?: boolean; class?: string }) {
  useLang();
  const name = avatarName(props.id);
  return (
    <img class={`avatar avatar-${props.size ?? "s"} ${props.class ?? ""}`} src={avatarUrl(props.id)}
      alt={props.label ? t("avatar.of", { name }) : ""} title={name} data-avatar={known(props.id)}
      width={100} height={100} decoding="async" draggable={false} />
  );
}

/** Keep the account's avatar (``PUT /api/me/avatar``); the id the server now shows. */
export async function saveAvatar(id: string): Promise<string> {
  const answer = await call<{ avatar: string }>("PUT", "/api/me/avatar", { avatar: id });
  return answer.avatar;
}

/** Arrow keys move through a radio group one picture at a time: only where they stop is saved. */
const SAVE_AFTER_MS = 300;

/**
 * The picker: a radio group of every avatar a person may pick (the arrow keys move and pick,
 * as in any radio group; Tab leaves). A pick is saved a moment after it is made; the status
 * line says when it is kept, or why not (and the pick goes back to the one kept).
 */
export function AvatarPicker(props: { current: string | null | undefined; onSaved?: (id: string) => void;
  testid?: string }) {
  useLang();
  const [chosen, setChosen] = useState<string>(known(props.current));
  const [status, setStatus] = useState<{ kind: "saving" | "saved" | "failed"; text: string } | null>(null);
  const kept = useRef(known(props.current));
  const timer = useRef<number | undefined>(undefined);
  const onSaved = useRef(props.onSaved);
  onSaved.current = props.onSaved;
  useEffect(() => {
    kept.current = known(props.current);
    setChosen(kept.current);
  }, [props.current]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const pick = (id: string) => {
    setChosen(id);
    window.clearTimeout(timer.current);
    if (id === kept.current) {
      setStatus(null);
      return;
    }
    setStatus({ kind: "saving", text: t("avatar.saving") });
    timer.current = window.setTimeout(async () => {
      try {
        const saved = await saveAvatar(id);
        kept.current = saved;
        setChosen((now) => (now === id ? saved : now));
        setStatus({ kind: "saved", text: t("avatar.saved", { name: avatarName(saved) }) });
        onSaved.current?.(saved);
      } catch (err) {
        const reason = err instanceof ApiError ? err.detail : String(err);
        setChosen(kept.current);
        setStatus({ kind: "failed", text: t("avatar.failed", { reason }) });
      }
    }, SAVE_AFTER_MS);
  };

  return (
    <fieldset class="avatar-picker" data-testid={props.testid ?? "avatar-picker"}>
      <legend>{t("avatar.title")}</legend>
      <p class="note">{t("avatar.hint")}</p>
      <div class="avatar-grid">
        {PEOPLE.map((id) => (
          <label class={`avatar-choice ${chosen === id ? "chosen" : ""}`} title={avatarName(id)}>
            <input type="radio" class="sr-only" name={`avatar-${props.testid ?? "picker"}`} value={id}
              checked={chosen === id} onChange={() => pick(id)} data-avatar={id} />
            <img class="avatar" src={avatarUrl(id)} alt={avatarName(id)} width={100} height={100}
              decoding="async" draggable={false} />
            {chosen === id && <span class="tick" aria-hidden="true">✓</span>}
          </label>
        ))}
      </div>
      <p class={`avatar-status ${status?.kind ?? ""}`} role="status" data-testid="avatar-status">{status?.text ?? ""}</p>
    </fieldset>
  );
}
