/**
 * Players in the browser: register, log in and out, the profile (history with replay links,
 * the rating plot), the leaderboards and the bots' ratings. An account's session is kept
 * where the guest's token was (see api.ts), so every table call and every hello carries it.
 * Every username is shown as text (Preact escapes it), never as markup.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, forgetGuest, savedGuest, type GuestInfo } from "./api";
import { Avatar, AvatarPicker } from "./avatars";
import { go, Header, navigate } from "./components";
import { formatDate, formatNumber, has, t, useLang, type Key } from "./i18n";
import type { Badge, PastEvent } from "./eventapi";
import { ProfileEvents } from "./events";
import { RecoveryCodes } from "./recovery";
import { ReportButton } from "./report";
import { bannedText, isModerator, type Sanction } from "./trust";

/** A message of the players' pages (the same catalogs as every page's). */
export function pt(key: Key, params?: Record<string, string | number>): string {
  return t(key, params);
}

// --- the API ------------------------------------------------------------------------------

const GUEST = "burraco:guest";

export interface Rating { rating: number; deviation: number; matches: number }
export interface Me { player_id: string; username: string; account: true; avatar?: string;
  ratings: Record<string, Rating>; wait: Wait | null;
  /** trust and safety: the recovery codes not used yet, the roles (moderator, admin), the
   * sanctions in force and the warnings of the last 30 days */
  recovery_codes_left?: number; roles?: string[]; sanctions?: Sanction[] }
export interface Wait { reason: string; why: string; until: number }

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const guest = savedGuest();
  let response: Response;
  try {
    response = await fetch(path, {
      method, credentials: "same-origin",
      headers: { ...(guest ? { authorization: `Bearer ${guest.token}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, "network", "the server cannot be reached");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = new ApiError(response.status, data.code ?? "error", data.detail ?? response.statusText);
    (err as ApiError & { retryAfter?: string }).retryAfter = response.headers.get("retry-after") ?? undefined;
    (err as ApiError & { body?: Record<string, unknown> }).body = data;
    throw err;
  }
  return data as T;
}

/** An account's session is kept as the "guest" the rest of the client sends. */
export function isAccount(guest: GuestInfo | null): boolean {
  return !!guest && guest.token.startsWith("a.");
}

function keep(playerId: string, username: string, token: string): GuestInfo {
  const info = { guest_id: playerId, nickname: username, token };
  localStorage.setItem(GUEST, JSON.stringify(info));
  return info;
}

/** A new account, and its recovery codes (shown once). */
export async function register(username: string, password: string): Promise<{ who: GuestInfo; codes: string[] }> {
  const r = await send<{ player_id: string; username: string; token: string; recovery_codes?: string[] }>(
    "POST", "/api/accounts", { username, password });
  return { who: keep(r.player_id, r.username, r.token), codes: Array.isArray(r.recovery_codes) ? r.recovery_codes : [] };
}

/** A session the server just opened (a log-in, a recovery): kept, with the account's id. */
export async function adoptSession(token: string, username: string): Promise<GuestInfo> {
  localStorage.setItem(GUEST, JSON.stringify({ guest_id: "", nickname: username, token }));
  const me = await send<Me>("GET", "/api/me");
  return keep(me.player_id, me.username, token);
}

export async function login(username: string, password: string): Promise<GuestInfo> {
  const r = await send<{ token: string; username: string }>("POST", "/api/sessions", { username, password });
  return adoptSession(r.token, r.username);
}

export async function logout(): Promise<void> {
  try {
    await send("DELETE", "/api/sessions");
  } finally {
    forgetGuest();
  }
}

export const me = () => send<Me>("GET", "/api/me");

// --- pieces of the lobby ------------------------------------------------------------------

function accountError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "username_taken") return pt("acc.taken");
    if (err.code === "bad_credentials") return pt("acc.bad");
    if (err.code === "banned") return bannedText((err as ApiError & { body?: Record<string, unknown> }).body ?? {});
    if (err.code === "throttled") {
      return pt("acc.throttled", { s: (err as ApiError & { retryAfter?: string }).retryAfter ?? "?" });
    }
    return err.detail;
  }
  return String(err);
}

function whenText(seconds: number): string {
  return formatDate(seconds);
}

/** Why rated play is paused, in the page's language (the server's English for a reason it adds later). */
function waitWhy(wait: Wait): string {
  // a moderator's suspension: its reason is the person's own business (their account page), not the profile's
  return wait.reason === "left" || wait.reason === "clock" || wait.reason === "suspended"
    ? pt(`acc.why.${wait.reason}` as Key) : wait.why;
}

/** A kind of burraco ("clean", "semi-clean", …) as the table names it. */
function burracoKind(kind: string): string {
  const key = `type.${kind}`;
  return has(key) ? t(key) : kind;
}

/** Who is logged in (with their ratings), or the forms to log in and register. */
export function AccountPanel(props: { guest: GuestInfo | null; onChange: (g: GuestInfo | null) => void }) {
  useLang();
  const [mode, setMode] = useState<"login" | "register">("login");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [info, setInfo] = useState<Me | null>(null);
  const [picking, setPicking] = useState(false);
  // the recovery codes of an account registered just now, shown until "I saved them"
  const [codes, setCodes] = useState<string[] | null>(null);
  const account = isAccount(props.guest);
  useEffect(() => {
    if (account) {
      me().then((m) => {
        setInfo(m);
        // a moderator renamed the account: the session goes on, under the new name
        const guest = savedGuest();
        if (guest && guest.token === props.guest?.token && m.username && m.username !== guest.nickname) {
          props.onChange(keep(m.player_id, m.username, guest.token));
        }
      }).catch(() => setInfo(null));
    } else setInfo(null);
  }, [props.guest?.token]);

  if (account && props.guest) {
    const ratings = info ? Object.entries(info.ratings) : [];
    return (
      <section class="panel account" data-testid="account">
        <p>
          {info?.avatar && <Avatar id={info.avatar} size="m" />}
          <strong>{pt("acc.loggedIn", { name: props.guest.nickname })}</strong>{" · "}
          {ratings.length ? ratings.map(([form, r]) => pt("acc.rating", { form: pt(`form.${form}` as Key), rating: r.rating })).join(" · ")
            : pt("acc.unrated")}
        </p>
        {info?.wait && <p class="error" role="alert">{pt("acc.wait", { until: whenText(info.wait.until), why: waitWhy(info.wait) })}</p>}
        {codes && <RecoveryCodes codes={codes} username={props.guest.nickname} onDone={() => setCodes(null)} />}
        <p class="account-links">
          <a href={`/players/${encodeURIComponent(props.guest.nickname)}`} onClick={navigate}>{pt("acc.profile")}</a>
          {" · "}<a href="/leaderboard" onClick={navigate}>{pt("acc.leaderboard")}</a>
          {info && <>{" · "}<button type="button" class="link" aria-expanded={picking} data-testid="change-avatar"
            onClick={() => setPicking(!picking)}>{t("avatar.change")}</button></>}
          {" · "}<a href="/account" onClick={navigate} data-testid="account-link">{t("acct.link")}</a>
          {isModerator(info?.roles) && <>{" · "}<a href="/mod" onClick={navigate} data-testid="mod-link">{t("mod.link")}</a></>}
          {" · "}<button type="button" class="link" data-testid="logout"
            onClick={async () => { await logout().catch(() => undefined); props.onChange(null); }}>{pt("acc.logout")}</button>
        </p>
        {picking && info && <AvatarPicker current={info.avatar} onSaved={(avatar) => setInfo({ ...info, avatar })} />}
      </section>
    );
  }
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mode === "login") props.onChange(await login(name, password));
      else {
        const made = await register(name, password);
        if (made.codes.length) setCodes(made.codes);
        props.onChange(made.who);
      }
      setPassword("");
      setMode("login");  // once registered, the form a returning player meets after logging out is "Log in"
    } catch (err) {
      setError(accountError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel account">
      <h2>{pt("acc.title")}</h2>
      <p class="note">{pt("acc.text")}</p>
      <div class="tabs" role="tablist">
        {(["login", "register"] as const).map((m) => (
          <button type="button" role="tab" aria-selected={mode === m} class={mode === m ? "primary" : ""}
            data-testid={`tab-${m}`} onClick={() => { setMode(m); setError(null); }}>
            {pt(m === "login" ? "acc.login" : "acc.register")}
          </button>
        ))}
      </div>
      <form onSubmit={submit} class="account-form">
        <label>
          {pt("acc.username")}
          <input name="username" value={name} required minLength={3} maxLength={20} pattern="[A-Za-z0-9_\-]{3,20}"
            autoComplete="username" title={pt("acc.nameHint")}
            onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {pt("acc.password")}
          <input name="password" type="password" value={password} required minLength={8}
            autoComplete={mode === "login" ? "current-password" : "new-password"} title={pt("acc.passHint")}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="primary" data-testid="account-submit" disabled={busy}>
          {pt(mode === "login" ? "acc.login" : "acc.register")}
        </button>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      <p>{mode === "login" && <><a href="/recover" onClick={navigate} data-testid="forgot">{t("rec.forgot")}</a>{" · "}</>}
        <a href="/leaderboard" onClick={navigate}>{pt("acc.leaderboard")}</a>
        {" · "}<a href="/privacy" onClick={navigate}>{t("privacy.title")}</a></p>
    </section>
  );
}

/** The bot levels' fixed ratings, for the lobby. */
export function BotRatings(props: { levelName: (level: string) => string }) {
  useLang();
  const [ratings, setRatings] = useState<Record<string, Record<string, number>> | null>(null);
  useEffect(() => {
    send<{ ratings: Record<string, Record<string, number>> }>("GET", "/api/ratings/bots")
      .then((r) => setRatings(r.ratings)).catch(() => setRatings(null));
  }, []);
  if (!ratings || !Object.keys(ratings).length) return null;
  return (
    <p class="note bot-ratings" data-testid="bot-ratings">
      {pt("bots.title")}:{" "}
      {Object.entries(ratings).map(([form, levels]) => (
        <span class="bot-form">
          {pt(`form.${form}` as Key)}: {Object.entries(levels).map(([level, r]) => `${props.levelName(level)} ${r}`).join(", ")}
          {"  "}
        </span>
      ))}
    </p>
  );
}

// --- the daily duplicate -----------------------------------------------------------------

interface DailySet { hands: number; my_table: string | null; my_seat_token: string | null;
  my_status?: string | null; deals: { hand: number; commitment: string }[] | null }
interface DailyOverview { day: string; closes_at: number; sets: Record<string, DailySet> }
interface DailyBoard { entries: { rank: number; username: string; score: number }[];
  mine?: { hand: number; points: number; score: number; field: number }[] | null }

/** Today's duplicate sets: play, continue, or (the set played) the day's board and one's deals. */
export function DailyPanel() {
  useLang();
  const [overview, setOverview] = useState<DailyOverview | null>(null);
  const [board, setBoard] = useState<[string, DailyBoard | null] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => { send<DailyOverview>("GET", "/api/daily").then(setOverview).catch(() => setOverview(null)); }, []);
  if (!overview) return null;
  const play = async (form: string) => {
    setError(null);
    const { my_table: mine, my_seat_token: token } = overview.sets[form];
    if (mine) return go(`/play/${mine}?seat=0&token=${encodeURIComponent(token ?? "")}`);
    try {
      const created = await send<{ table_id: string; seats: { token?: string }[] }>("POST", `/api/daily/${form}`);
      go(`/play/${created.table_id}?seat=0&token=${encodeURIComponent(created.seats[0].token ?? "")}`);
    } catch (err) {
      setError(accountError(err));
    }
  };
  const results = (form: string) => send<DailyBoard>("GET", `/api/daily/${form}/board`)
    .then((b) => setBoard([form, b])).catch(() => setBoard([form, null]));
  const first = Object.values(overview.sets)[0];
  const me = savedGuest()?.nickname;
  const formName = (form: string) => pt(`form.${form}` as Key);
  const shown = board?.[1] ?? null;
  return (
    <section class="panel daily" data-testid="daily">
      <h2>{pt("daily.title")} · {overview.day}</h2>
      <p class="note">{pt("daily.text", { hands: first?.hands ?? 8, closes: whenText(overview.closes_at) })}</p>
      <div class="seat-row">
        {Object.entries(overview.sets).map(([form, set]) => (set.my_status === "finished" ? (
          // the set is over: nothing to continue, its results instead
          <>
            <span class="note daily-done" data-done={form}>✓ {pt("daily.played", { form: formName(form) })}</span>
            <button type="button" class="primary" data-testid={`daily-${form}`} onClick={() => results(form)}>
              {pt("daily.results", { form: formName(form) })}
            </button>
          </>
        ) : (
          <>
            <button type="button" class="primary" data-testid={`daily-${form}`} onClick={() => play(form)}>
              {pt(set.my_table ? "daily.continue" : "daily.play", { form: formName(form) })}
            </button>
            <button type="button" onClick={() => results(form)}>{pt("daily.results", { form: formName(form) })}</button>
          </>
        )))}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {board && board[1] === null && <p>{pt("daily.hidden")}</p>}
      {board && shown && (
        <div class="daily-results" data-testid="daily-results">
          <table class="lb-table" data-testid="daily-board">
            <caption>{pt("daily.board", { form: formName(board[0]) })}</caption>
            <thead><tr><th>{pt("daily.rank")}</th><th>{pt("daily.player")}</th><th>{pt("daily.total")}</th></tr></thead>
            <tbody>{shown.entries.map((e) => (
              <tr class={e.username === me ? "me" : ""}><td>{e.rank}</td>
                <td><a href={`/players/${encodeURIComponent(e.username)}`} onClick={navigate}>{e.username}</a></td>
                <td>{e.score}</td></tr>))}</tbody>
          </table>
          {shown.mine && shown.mine.length > 0 && (
            <table class="lb-table" data-testid="daily-mine">
              <caption>{pt("daily.mine")}</caption>
              <thead><tr><th>{pt("daily.hand")}</th><th>{pt("daily.points")}</th><th>{pt("daily.vsField")}</th><th>{pt("daily.field")}</th></tr></thead>
              <tbody>{shown.mine.map((m) => (
                <tr data-hand={m.hand}><td>{m.hand}</td><td>{formatNumber(m.points)}</td>
                  <td>{formatNumber(m.score, undefined, { signDisplay: "exceptZero" })}</td><td>{m.field}</td></tr>))}</tbody>
            </table>
          )}
          <p class="note">{pt("daily.explain")}</p>
        </div>
      )}
    </section>
  );
}

// --- the profile --------------------------------------------------------------------------

interface Who { seat: number; username: string | null; name: string | null; bot: string | null }
interface MatchEntry {
  table_id: string; finished_at: number; form: string; rated: boolean; result: "won" | "lost" | "tie";
  abandoned: boolean; scores: number[]; side: number; partner: Who | null; opponents: Who[];
  rating_before: number | null; rating_after: number | null; replays: string[];
}
interface Stats { matches: number; won: number; hands: number; hands_won: number; mean_mp: number | null;
  closings: number; pozzetti: number; abandoned: number; burraco: Record<string, number> }
interface Profile { username: string; avatar?: string; ratings: Record<string, Rating>; stats: Record<string, Stats>;
  recent: MatchEntry[]; history: Record<string, { at: number; rating: number; deviation: number }[]>;
  wait: Wait | null; tournaments?: TournamentEntry[];
  /** finished online tournaments (newest first) and the podium badges */
  events?: PastEvent[]; badges?: Partial<Record<Badge, number>> }
interface TournamentEntry { id: string; name: string; status: string; pair: number; pair_name: string;
  rank: number; of: number; vp: number; played: number }

function WhoLink(props: { who: Who; levelName: (l: string) => string }) {
  const { who } = props;
  if (who.username) return <a href={`/players/${encodeURIComponent(who.username)}`} onClick={navigate}>{who.username}</a>;
  if (who.bot) return <span>{pt("prof.bot", { level: props.levelName(who.bot) })}</span>;
  return <span>{who.name ?? "?"}</span>;
}

/** A day as the plot's axis writes it ("7 Dec 2026", "7 dic 2026"). */
function dayText(seconds: number): string {
  return formatDate(seconds, { day: "numeric", month: "short", year: "numeric" });
}

/** The rating history as an SVG line with its uncertainty band, dated along the bottom. */
export function RatingPlot(props: { points: { at: number; rating: number; deviation: number }[] }) {
  const pts = props.points;
  if (!pts.length) return null;
  const w = 560, h = 210, pad = 46, top = 12, bottom = h - 36;
  const lows = pts.map((p) => p.rating - p.deviation), highs = pts.map((p) => p.rating + p.deviation);
  const min = Math.min(...pts.map((p) => p.rating), ...lows.map((v) => Math.max(v, Math.min(...pts.map((p) => p.rating)) - 300)));
  const max = Math.max(...pts.map((p) => p.rating), ...highs.map((v) => Math.min(v, Math.max(...pts.map((p) => p.rating)) + 300)));
  const span = Math.max(max - min, 20);
  const x = (i: number) => pad + (pts.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (pts.length - 1));
  const y = (v: number) => bottom - ((Math.min(Math.max(v, min), max) - min) * (bottom - top)) / span;
  const line = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const band = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating + p.deviation).toFixed(1)}`).join(" ")
    + " " + pts.map((_, i) => `L${x(pts.length - 1 - i).toFixed(1)},${y(pts[pts.length - 1 - i].rating - pts[pts.length - 1 - i].deviation).toFixed(1)}`).join(" ") + " Z";
  // the dates under the first point, the last and one between (those that fit apart)
  // (a day already written is not written again: a history of one evening shows its day once)
  const dated = [...new Set(pts.length > 2 ? [0, Math.floor((pts.length - 1) / 2), pts.length - 1] : [0, pts.length - 1])]
    .filter((i, k, all) => k === 0 || dayText(pts[i].at) !== dayText(pts[all[k - 1]].at));
  const anchor = (i: number) => (pts.length === 1 ? "middle" : i === 0 ? "start" : i === pts.length - 1 ? "end" : "middle");
  return (
    <svg class="rating-plot" viewBox={`0 0 ${w} ${h}`} role="img" data-testid="rating-plot"
      aria-label={`${pt("prof.plot")}: ${pts.map((p) => pt("prof.plotPoint", { rating: p.rating, date: dayText(p.at) })).join(", ")}`}>
      <path d={band} fill="#facc1533" stroke="none" />
      <path d={line} fill="none" stroke="#facc15" stroke-width="2.5" />
      {pts.map((p, i) => (
        <circle cx={x(i)} cy={y(p.rating)} r="3.5" fill="#facc15">
          <title>{pt("prof.plotPoint", { rating: p.rating, date: whenText(p.at) })}</title>
        </circle>
      ))}
      <line x1={pad} x2={w - pad} y1={bottom + 6} y2={bottom + 6} stroke="#ffffff55" stroke-width="1" />
      {dated.map((i) => (
        <text class="plot-date" data-at={pts[i].at} x={pts.length === 1 ? x(i) : i === 0 ? pad - 6 : i === pts.length - 1 ? w - pad + 6 : x(i)}
          y={h - 10} fill="#fff" font-size="16" text-anchor={anchor(i)}>{dayText(pts[i].at)}</text>
      ))}
      <text x="4" y={y(max) + 12} fill="#fff" font-size="16">{Math.round(max)}</text>
      <text x="4" y={y(min)} fill="#fff" font-size="16">{Math.round(min)}</text>
    </svg>
  );
}

export function ProfilePage(props: { name: string; levelName: (l: string) => string }) {
  useLang();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [missing, setMissing] = useState(false);
  const [picking, setPicking] = useState(false);
  useEffect(() => {
    send<Profile>("GET", `/api/players/${encodeURIComponent(props.name)}`).then(setProfile)
      .catch(() => setMissing(true));
  }, [props.name]);
  useEffect(() => { document.title = pt("prof.title", { name: props.name }); });
  return (
    <div class="page profile">
      <Header />
      <main>
        {missing && <p class="error" role="alert">{pt("prof.notFound")}</p>}
        {profile && (
          <>
            <h1 data-testid="profile-name" class="with-avatar"><Avatar id={profile.avatar} size="l" />{pt("prof.title", { name: profile.username })}</h1>
            {profile.wait && <p class="error">{pt("acc.wait", { until: whenText(profile.wait.until), why: waitWhy(profile.wait) })}</p>}
            {isAccount(savedGuest()) && savedGuest()?.nickname.toLowerCase() !== profile.username.toLowerCase() && (
              <p><ReportButton username={profile.username} context="profile" /></p>
            )}
            {isAccount(savedGuest()) && savedGuest()?.nickname.toLowerCase() === profile.username.toLowerCase() && (<>
              <p class="profile-own"><button type="button" aria-expanded={picking} data-testid="change-avatar" onClick={() => setPicking(!picking)}>
                {t("avatar.change")}</button>
                {" "}<a class="button" href="/account" onClick={navigate} data-testid="account-link">{t("acct.link")}</a></p>
              {picking && <section class="panel"><AvatarPicker current={profile.avatar}
                onSaved={(avatar) => setProfile({ ...profile, avatar })} /></section>}
            </>)}
            <section class="panel">
              <h2>{pt("prof.ratings")}</h2>
              {Object.keys(profile.ratings).length === 0 && <p>{pt("acc.unrated")}</p>}
              {Object.entries(profile.ratings).map(([form, r]) => (
                <div class="rating-form">
                  <p><strong>{pt(`form.${form}` as Key)}</strong>: {r.rating} ± {r.deviation} · {pt("prof.matches")} {r.matches}</p>
                  {profile.history[form] && (
                    <figure><figcaption>{pt("prof.plot")}</figcaption><RatingPlot points={profile.history[form]} /></figure>
                  )}
                </div>
              ))}
            </section>
            {Object.keys(profile.stats).length > 0 && (
              <section class="panel">
                <h2>{pt("prof.stats")}</h2>
                <table class="stats">
                  <thead><tr><th />{Object.keys(profile.stats).map((f) => <th>{pt(`form.${f}` as Key)}</th>)}</tr></thead>
                  <tbody>
                    {([["prof.matches", "matches"], ["prof.won", "won"], ["prof.hands", "hands"], ["prof.meanMp", "mean_mp"],
                      ["prof.closings", "closings"], ["prof.pozzetti", "pozzetti"], ["prof.abandoned", "abandoned"]] as [Key, keyof Stats][])
                      .map(([label, field]) => (
                        <tr><th>{pt(label)}</th>{Object.values(profile.stats).map((s) => <td>{typeof s[field] === "number" ? formatNumber(s[field] as number) : "–"}</td>)}</tr>
                      ))}
                    <tr><th>{pt("prof.burraco")}</th>{Object.values(profile.stats).map((s) => (
                      <td>{Object.entries(s.burraco).map(([k, n]) => `${burracoKind(k)} ${n}`).join(", ") || "0"}</td>))}</tr>
                  </tbody>
                </table>
              </section>
            )}
            <section class="panel">
              <h2>{pt("prof.recent")}</h2>
              {profile.recent.length === 0 ? <p>{pt("prof.none")}</p> : (
                <ul class="tables" data-testid="matches">
                  {profile.recent.map((m) => (
                    <li class="table-row">
                      <div>
                        <strong class={`result ${m.result}`}>{pt(`res.${m.result}` as Key)}</strong>
                        {m.abandoned && <> ({pt("res.abandoned")})</>}
                        {" · "}{pt(`form.${m.form}` as Key)} · {pt(m.rated ? "prof.rated" : "prof.casual")}
                        {" · "}{m.scores.join(" – ")}
                        {m.rating_after !== null && <> · {m.rating_before} → {m.rating_after}</>}
                        <div class="note">
                          {m.partner && <>{pt("prof.with")} <WhoLink who={m.partner} levelName={props.levelName} />{" "}</>}
                          {pt("prof.vs")} {m.opponents.map((o, i) => <>{i ? ", " : ""}<WhoLink who={o} levelName={props.levelName} /></>)}
                          {" · "}{whenText(m.finished_at)}
                        </div>
                      </div>
                      <div class="table-actions">
                        {m.replays.map((link, i) => <a href={link} onClick={navigate}>{pt("prof.hand", { n: i + 1 })}</a>)}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
        {profile && <ProfileEvents events={profile.events} badges={profile.badges} />}
        {profile && (profile.tournaments ?? []).length > 0 && (
          <section class="panel">
            <h2>{pt("prof.tournaments")}</h2>
            <ul class="tables" data-testid="tournaments">
              {(profile.tournaments ?? []).map((e) => (
                <li class="table-row">
                  <div>
                    <a href={`/tournaments/${encodeURIComponent(e.id)}/standings`}><strong>{e.name}</strong></a>
                    {" · "}{pt("prof.place", { rank: e.rank, of: e.of, vp: e.vp })}
                    <div class="note">{e.pair} {e.pair_name}</div>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        )}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{pt("nav.backToLobby")}</a>
          {" · "}<a href="/leaderboard" onClick={navigate}>{pt("acc.leaderboard")}</a></p>
      </main>
    </div>
  );
}

// --- the leaderboard ----------------------------------------------------------------------

interface Entry { rank: number; username: string; avatar?: string; rating: number; deviation: number; matches: number }
interface Board { entries: Entry[]; total: number; page: number; page_size: number;
  me?: (Entry & { page: number }) | null }

export function LeaderboardPage() {
  useLang();
  const params = new URLSearchParams(location.search);
  const [form, setForm] = useState(params.get("players") === "4" ? "4" : "2");
  const [period, setPeriod] = useState(params.get("period") ?? "all");
  const [page, setPage] = useState(Number(params.get("page") ?? 1) || 1);
  const [board, setBoard] = useState<Board | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    send<Board>("GET", `/api/leaderboard?players=${form}&period=${period}&page=${page}`)
      .then(setBoard).catch((err) => setError(accountError(err)));
    history.replaceState(null, "", `/leaderboard?players=${form}&period=${period}&page=${page}`);
  }, [form, period, page]);
  useEffect(() => { document.title = pt("lb.title"); });
  const mine = savedGuest()?.nickname;
  const pages = board ? Math.max(1, Math.ceil(board.total / board.page_size)) : 1;
  return (
    <div class="page leaderboard">
      <Header />
      <main>
        <h1>{pt("lb.title")}</h1>
        {error && <p class="error" role="alert">{error}</p>}
        <div class="seat-row">
          <select name="players" aria-label={pt("lb.formLabel")} value={form} onChange={(e) => { setForm((e.target as HTMLSelectElement).value); setPage(1); }}>
            <option value="2">{pt("form.2")}</option><option value="4">{pt("form.4")}</option>
          </select>
          <select name="period" aria-label={pt("lb.periodLabel")} value={period} onChange={(e) => { setPeriod((e.target as HTMLSelectElement).value); setPage(1); }}>
            {["all", "month", "week"].map((p) => <option value={p}>{pt(`lb.period.${p}` as Key)}</option>)}
          </select>
          {board?.me && (
            <span data-testid="my-rank">
              {pt("lb.me", { rank: board.me.rank })}{" "}
              <button type="button" onClick={() => setPage(board.me!.page)}>{pt("lb.findMe")}</button>
            </span>
          )}
        </div>
        {board && board.entries.length === 0 && <p>{pt("lb.empty")}</p>}
        {board && board.entries.length > 0 && (
          <table class="lb-table" data-testid="board">
            <thead><tr><th>{pt("lb.rank")}</th><th>{pt("lb.player")}</th><th>{pt("lb.rating")}</th><th>{pt("lb.matches")}</th></tr></thead>
            <tbody>
              {board.entries.map((e) => (
                <tr class={e.username === mine ? "me" : ""}>
                  <td>{e.rank}</td>
                  <td><a href={`/players/${encodeURIComponent(e.username)}`} onClick={navigate} class="with-avatar">
                    <Avatar id={e.avatar} />{e.username}</a></td>
                  <td>{e.rating} <span class="note">± {e.deviation}</span></td>
                  <td>{e.matches}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div class="seat-row">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>{pt("lb.prev")}</button>
          <span>{page} / {pages}</span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>{pt("lb.next")}</button>
        </div>
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{pt("nav.backToLobby")}</a></p>
      </main>
    </div>
  );
}

