/**
 * Online tournaments ("events", docs/protocol.md, "Online tournaments"): `/events`, the
 * running, upcoming and recently finished ones (Join / Leave on each) and the form that
 * schedules one; `/events/<id>`, one event: its state with a countdown, Join (a pairs event
 * with the partner's username) / Leave / Withdraw, the button to one's table when a game is
 * ready, the live standings (asked again every 2.5 s until it is over), the games with their
 * watch links, the entrants. Reading is for everyone; scheduling and joining for accounts.
 * The profile's section of finished events with the podium badges is here too.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { formOptions, savedGuest } from "./api";
import { Dialog, go, Header, navigate } from "./components";
import {
  BADGES, clock, createEvent, eventError, EVENT_POLL_MS, getEvent, grouped, joinEvent, kindLine,
  leaveEvent, listEvents, LIST_POLL_MS, live, localInputs, localSeconds, MEDAL, mySeatPath, playPath,
  proposedStart, SOON, type Badge, type EventDetail, type EventGame, type EventSummary, type Kind,
  type NewEvent, type PastEvent, type StandingRow,
} from "./eventapi";
import { formatDate, formatNumber, presetName, t, useLang, type Key } from "./i18n";
import { NoticeBell, SocialLinks } from "./notices";
import { isAccount } from "./players";
import { formatLabel, POOL_FORMATS } from "./pool";
import { listClubs, noticesChanged, type Club } from "./social";
import "./social.css";
import "./events.css";

// --- shared pieces -------------------------------------------------------------------------

/** Seconds since the epoch, again every second while the page shows. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function EventsFrame(props: { title: string; children: ComponentChildren }) {
  useLang();
  const account = isAccount(savedGuest());
  useEffect(() => { document.title = `${props.title} · ${t("app.title")}`; });
  return (
    <div class="page social events">
      <Header>{account && <NoticeBell />}</Header>
      <main>
        <h1>{props.title}</h1>
        {account && <SocialLinks />}
        {props.children}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a></p>
      </main>
    </div>
  );
}

const PHASE_KEYS: Record<string, Key> = {
  open: "events.phase.open", running: "events.phase.running", finished: "events.phase.finished",
  cancelled: "events.phase.cancelled",
};

function when(seconds: number): string {
  return formatDate(seconds, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** Where the event is: its start and the time to it, its round, the arena's end, its end. */
export function Status(props: { e: EventSummary; now: number; chip?: boolean }) {
  const { e, now } = props;
  let text: ComponentChildren;
  if (e.phase === "open") {
    text = <>{t("events.startsAt", { date: when(e.starts) })}
      {" · "}<strong class="countdown" data-testid="countdown">
        {e.starts > now ? t("events.startsIn", { time: clock(e.starts - now) }) : t("events.starting")}</strong></>;
  } else if (e.phase === "running") {
    text = e.kind === "swiss"
      ? <strong>{t("events.round", { n: Math.max(e.round, 1), of: e.rounds ?? 0 })}</strong>
      : <>{props.chip === false && <>{t("events.phase.running")}{e.ends ? " · " : null}</>}
        {e.ends ? <strong class="countdown" data-testid="countdown">
          {e.ends > now ? t("events.endsIn", { time: clock(e.ends - now) }) : t("events.ending")}</strong> : null}</>;
  } else if (e.phase === "finished") {
    text = t("events.ended", { date: when(e.finished ?? e.starts) });
  } else {
    text = t("events.cancelledWhy");
  }
  return (
    <p class="event-status" data-testid="event-status" data-phase={e.phase}>
      {props.chip !== false && <span class={`phase-chip ${e.phase}`}>{t(PHASE_KEYS[e.phase] ?? "events.phase.open")}</span>}
      {" "}<span>{text}</span>
    </p>
  );
}

function entrantsText(e: Pick<EventSummary, "form" | "entered">): string {
  return t(e.form === "4" ? "events.pairs" : "events.entrants", { n: e.entered });
}

/** "Swiss · 3 rounds · 2 players · One hand · Rated". */
export function Facts(props: { e: EventSummary }) {
  const { e } = props;
  return (
    <span class="event-facts">
      {kindLine(e)} · {t(e.form === "4" ? "form.4" : "form.2")} · {formatLabel(e.format)}
      {" · "}{t(e.rated ? "pool.rated" : "pool.casual")}
      {e.min_rating !== null && <> · {t("events.minRatingShort", { n: Math.round(e.min_rating) })}</>}
      {e.club && <> · <a href={`/clubs/${encodeURIComponent(e.club)}`} onClick={navigate}>{t("events.clubOnly")}</a></>}
    </span>
  );
}

// --- the list ------------------------------------------------------------------------------

function EventRow(props: { e: EventSummary; now: number; account: boolean; busy: boolean;
  onJoin: (e: EventSummary) => void; onLeave: (e: EventSummary) => void }) {
  const { e, now, account } = props;
  const href = `/events/${encodeURIComponent(e.id)}`;
  return (
    <li class="event-row" data-event={e.id} data-phase={e.phase}>
      <div class="event-main">
        <a class="event-name" href={href} onClick={navigate}><strong>{e.name}</strong></a>
        {e.registered && <span class="in-chip" data-testid="registered">{t("events.youAreIn")}</span>}
        <div class="note"><Facts e={e} /></div>
        <Status e={e} now={now} chip={false} />
      </div>
      <div class="event-side">
        <span class="event-count">{entrantsText(e)}</span>
        {account && e.phase === "open" && e.starts > now && (e.registered
          ? <button type="button" data-testid="event-leave" disabled={props.busy} onClick={() => props.onLeave(e)}>{t("events.leave")}</button>
          : e.form === "4"
            ? <a class="button primary" href={href} onClick={navigate} data-testid="event-join">{t("events.join")}</a>
            : <button type="button" class="primary" data-testid="event-join" disabled={props.busy}
              onClick={() => props.onJoin(e)}>{t("events.join")}</button>)}
        {e.phase === "running" && e.registered && (
          <a class="button primary" href={href} onClick={navigate} data-testid="event-open">{t("events.toMyGames")}</a>)}
      </div>
    </li>
  );
}

const START_CHOICES: { value: string; label: () => string }[] = [
  { value: "at", label: () => t("events.startAt") },
  ...SOON.map((s) => ({ value: String(s), label: () => s < 60 ? t("events.inSeconds", { n: s })
    : s < 3600 ? t("events.inMinutes", { n: s / 60 }) : t("events.inHours", { n: s / 3600 }) })),
];

interface Draft { name: string; kind: Kind; form: "2" | "4"; format: string; rules: string; rounds: string;
  minutes: string; start: string; date: string; time: string; turn: string; rated: boolean; club: string;
  maxEntrants: string; minRating: string; show: string }

function freshDraft(): Draft {
  const at = localInputs(proposedStart(Date.now()));
  return { name: "", kind: "swiss", form: "2", format: "505", rules: "fibur", rounds: "5", minutes: "60",
    start: "at", date: at.date, time: at.time, turn: "60", rated: false, club: "", maxEntrants: "256",
    minRating: "", show: "120" };
}

/** The draft as the server's body, or the field that cannot be read. */
function bodyOf(d: Draft, nowSeconds: number): NewEvent | { field: string } {
  const starts = d.start === "at" ? localSeconds(d.date, d.time) : nowSeconds + Number(d.start);
  if (starts === null) return { field: "starts" };
  const int = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : NaN);
  const minRating = d.minRating.trim() === "" ? null : Number(d.minRating);
  if (minRating !== null && !Number.isFinite(minRating)) return { field: "min_rating" };
  return {
    name: d.name.trim(), starts, kind: d.kind, form: d.form, rules: d.rules, format: d.format,
    rounds: d.kind === "swiss" ? int(d.rounds) : null, minutes: d.kind === "arena" ? int(d.minutes) : null,
    turn_seconds: Number(d.turn), rated: d.rated, min_rating: minRating, club: d.club || null,
    max_entrants: int(d.maxEntrants), show_seconds: Number(d.show),
  };
}

/** The fields under "More options" (opened when one is refused). */
const MORE_FIELDS = new Set(["rules", "max_entrants", "min_rating", "show_seconds"]);
const SHOWN_FIELDS = new Set(["name", "starts", "kind", "form", "format", "rules", "rounds", "minutes",
  "turn_seconds", "rated", "club", "max_entrants", "min_rating", "show_seconds"]);

function CreateForm(props: { onCreated: (e: EventDetail) => void }) {
  useLang();
  const [draft, setDraft] = useState<Draft>(freshDraft);
  const [clubs, setClubs] = useState<Club[]>([]);
  const [presets, setPresets] = useState<string[]>(["fibur"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const more = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    listClubs().then((r) => setClubs(r.clubs.filter((c) => c.role === "founder" || c.role === "admin"))).catch(() => undefined);
    formOptions().then((o) => { if (o.presets.length) setPresets(o.presets.map((p) => p.name)); }).catch(() => undefined);
  }, []);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: keyof Draft) => (e: Event) => set(key, (e.target as HTMLInputElement).value as never);
  const err = (field: string) => errors[field]
    ? <p class="error field-error" role="alert" data-field-error={field}>{errors[field]}</p> : null;
  const submit = async (ev: Event) => {
    ev.preventDefault();
    const body = bodyOf(draft, Math.floor(Date.now() / 1000));
    if ("field" in body) {
      setErrors({ [body.field]: t(body.field === "starts" ? "events.error.starts" : "events.error.minRating") });
      if (MORE_FIELDS.has(body.field) && more.current) more.current.open = true;
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      props.onCreated(await createEvent(body));
    } catch (caught) {
      const { field, text: said } = eventError(caught, "create");
      setErrors({ [field && SHOWN_FIELDS.has(field) ? field : "form"]: said });
      if (field && MORE_FIELDS.has(field) && more.current) more.current.open = true;
      setBusy(false);
    }
  };
  const swiss = draft.kind === "swiss";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <form class="event-form" onSubmit={submit} data-testid="create-form">
      <label class="wide">{t("events.name")}
        <input name="event-name" value={draft.name} required maxLength={80} autoComplete="off"
          aria-invalid={!!errors.name} onInput={text("name")} />
        {err("name")}
      </label>
      <label>{t("events.kind")}
        <select name="event-kind" value={draft.kind} onChange={text("kind")}>
          <option value="swiss">{t("events.kind.swiss")}</option>
          <option value="arena">{t("events.kind.arena")}</option>
        </select>
        <span class="note">{t(swiss ? "events.kind.swissNote" : "events.kind.arenaNote")}</span>
        {err("kind")}
      </label>
      {swiss ? (
        <label>{t("events.rounds")}
          <input name="event-rounds" type="number" inputMode="numeric" min={1} max={15} required value={draft.rounds}
            aria-invalid={!!errors.rounds} onInput={text("rounds")} />
          {err("rounds")}
        </label>
      ) : (
        <label>{t("events.minutes")}
          <input name="event-minutes" type="number" inputMode="numeric" min={1} max={720} required value={draft.minutes}
            aria-invalid={!!errors.minutes} onInput={text("minutes")} />
          {err("minutes")}
        </label>
      )}
      <label>{t("lb.formLabel")}
        <select name="event-form" value={draft.form} onChange={text("form")}>
          <option value="2">{t("form.2")}</option>
          <option value="4">{t("form.4")}</option>
        </select>
        {err("form")}
      </label>
      <label>{t("quick.format")}
        <select name="event-format" value={draft.format} onChange={text("format")}>
          {POOL_FORMATS.map((f) => <option value={f}>{formatLabel(f)}</option>)}
        </select>
        {err("format")}
      </label>
      <fieldset class="wide event-start">
        <legend>{t("events.start")}</legend>
        <select name="event-start" aria-label={t("events.start")} value={draft.start} onChange={text("start")}>
          {START_CHOICES.map((c) => <option value={c.value}>{c.label()}</option>)}
        </select>
        {draft.start === "at" && <div class="start-at">
          <label>{t("events.date")}
            <input name="event-date" type="date" required value={draft.date} aria-invalid={!!errors.starts} onInput={text("date")} />
          </label>
          <label>{t("events.time")}
            <input name="event-time" type="time" required value={draft.time} aria-invalid={!!errors.starts} onInput={text("time")} />
          </label>
        </div>}
        <span class="note">{t("events.localTime", { zone })}</span>
        {err("starts")}
      </fieldset>
      <label>{t("events.turn")}
        <input name="event-turn" type="number" inputMode="numeric" min={5} max={600} required value={draft.turn}
          aria-invalid={!!errors.turn_seconds} onInput={text("turn")} />
        {err("turn_seconds")}
      </label>
      <label>{t("pool.kind")}
        <select name="event-rated" value={draft.rated ? "rated" : "casual"}
          onChange={(e) => set("rated", (e.target as HTMLSelectElement).value === "rated")}>
          <option value="casual">{t("pool.casual")}</option>
          <option value="rated">{t("pool.rated")}</option>
        </select>
        {err("rated")}
      </label>
      {clubs.length > 0 && (
        <label class="wide">{t("events.club")}
          <select name="event-club" value={draft.club} onChange={text("club")}>
            <option value="">{t("events.everyone")}</option>
            {clubs.map((c) => <option value={c.id}>{t("events.clubMembers", { club: c.name })}</option>)}
          </select>
          {err("club")}
        </label>
      )}
      <details class="wide more" ref={more}>
        <summary>{t("events.more")}</summary>
        <div class="more-fields">
          <label>{t("create.rules")}
            <select name="event-rules" value={draft.rules} onChange={text("rules")}>
              {presets.map((p) => <option value={p}>{presetName(p)}</option>)}
            </select>
            {err("rules")}
          </label>
          <label>{t("events.maxEntrants")}
            <input name="event-max" type="number" inputMode="numeric" min={2} max={10000} required value={draft.maxEntrants}
              aria-invalid={!!errors.max_entrants} onInput={text("maxEntrants")} />
            {err("max_entrants")}
          </label>
          <label>{t("events.minRating")}
            <input name="event-min-rating" type="number" inputMode="numeric" value={draft.minRating}
              aria-invalid={!!errors.min_rating} onInput={text("minRating")} />
            {err("min_rating")}
          </label>
          <label>{t("events.show")}
            <input name="event-show" type="number" inputMode="numeric" min={10} max={900} required value={draft.show}
              aria-invalid={!!errors.show_seconds} onInput={text("show")} />
            {err("show_seconds")}
          </label>
        </div>
      </details>
      <div class="wide buttons">
        <button type="submit" class="primary" data-testid="create-submit" disabled={busy || !draft.name.trim()}>
          {t(busy ? "events.creating" : "events.submit")}</button>
      </div>
      {err("form")}
    </form>
  );
}

export function EventsPage() {
  useLang();
  const account = isAccount(savedGuest());
  const now = useNow();
  const [events, setEvents] = useState<EventSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const load = () => listEvents().then((r) => { setEvents(r.events); }).catch((err) => setError(eventError(err, "read").text));
  useEffect(() => {
    void load();
    const timer = setInterval(() => { if (document.visibilityState !== "hidden") void load(); }, LIST_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  const act = async (e: EventSummary, work: () => Promise<unknown>, doing: "join" | "leave") => {
    setBusy(e.id);
    setError(null);
    try {
      await work();
      noticesChanged();
      await load();
    } catch (err) {
      setError(eventError(err, doing).text);
    } finally {
      setBusy(null);
    }
  };
  const groups = grouped(events ?? []);
  const list = (items: EventSummary[], id: string, empty: Key) => items.length === 0
    ? <p class="note">{t(empty)}</p> : (
      <ul class="event-list" data-testid={id}>
        {items.map((e) => <EventRow e={e} now={now} account={account} busy={busy === e.id}
          onJoin={(x) => act(x, () => joinEvent(x.id), "join")} onLeave={(x) => act(x, () => leaveEvent(x.id), "leave")} />)}
      </ul>
    );
  return (
    <EventsFrame title={t("events.title")}>
      <p class="events-intro">{t("events.intro")}</p>
      {error && <p class="error" role="alert" data-testid="events-error">{error}</p>}
      {events === null ? <p>{t("common.loading")}</p> : <>
        {groups.running.length > 0 && (
          <section class="panel">
            <h2>{t("events.running")}</h2>
            {list(groups.running, "running-events", "events.noneRunning")}
          </section>
        )}
        <section class="panel">
          <h2>{t("events.upcoming")}</h2>
          {list(groups.upcoming, "upcoming-events", "events.noneUpcoming")}
        </section>
      </>}
      <section class="panel">
        {account ? (
          <details>
            <summary><h2>{t("events.create")}</h2></summary>
            <CreateForm onCreated={(e) => go(`/events/${encodeURIComponent(e.id)}`)} />
          </details>
        ) : <>
          <h2>{t("events.create")}</h2>
          <p>{t("events.accountsOnly")}</p>
          <p><a class="button primary" href="/" onClick={navigate}>{t("pool.login")}</a></p>
        </>}
      </section>
      {events !== null && groups.over.length > 0 && (
        <section class="panel">
          <h2>{t("events.over")}</h2>
          {list(groups.over, "finished-events", "events.noneOver")}
        </section>
      )}
    </EventsFrame>
  );
}

// --- one event -----------------------------------------------------------------------------

function namesOf(names: string[]): ComponentChildren {
  return names.map((n, i) => <>{i ? " & " : ""}<a href={`/players/${encodeURIComponent(n)}`} onClick={navigate}>{n}</a></>);
}

function Standings(props: { e: EventDetail; mine: string | null }) {
  const { e } = props;
  const swiss = e.kind === "swiss";
  const score = (r: StandingRow) => formatNumber(r.score);
  return (
    <table class="lb-table standings" data-testid="standings">
      <thead><tr>
        <th>{t("lb.rank")}</th><th>{t(e.form === "4" ? "events.col.pair" : "lb.player")}</th>
        <th class="num">{t("events.col.score")}</th>
        <th class="num">{t("events.col.wdl")}</th>
        {swiss ? <th class="num wide-only" title={t("events.col.buchholzLong")}>{t("events.col.buchholz")}</th>
          : <th class="num wide-only">{t("events.col.perf")}</th>}
      </tr></thead>
      <tbody>
        {e.standings.map((r) => (
          <tr class={`${r.entrant === props.mine ? "me" : ""} ${r.withdrawn ? "withdrawn" : ""}`} data-entrant={r.entrant}>
            <td>{r.rank}</td>
            <td class="who">{namesOf(r.names)}
              {r.on_fire && <> <span class="fire" title={t("events.onFire")} aria-label={t("events.onFire")}>×2</span></>}
              {r.withdrawn && <span class="note"> ({t("events.withdrawnMark")})</span>}</td>
            <td class="num"><strong>{score(r)}</strong></td>
            <td class="num">{r.wins}–{r.draws}–{r.losses}</td>
            {swiss ? <td class="num wide-only">{formatNumber(r.buchholz ?? 0)}</td>
              : <td class="num wide-only">{r.performance ?? "–"}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function resultText(g: EventGame, side: number): ComponentChildren {
  const r = g.result;
  if (!r) return null;
  if (r.absent.length && r.points === null) return null;
  const pts = r.vp ?? r.points;
  return pts ? <span class="pts">{formatNumber(pts[side])}</span> : null;
}

function GameRow(props: { g: EventGame; swiss: boolean }) {
  const { g } = props;
  const r = g.result;
  const watch = playPath(g.watch);
  const side = (k: number) => (
    <span class={`game-side ${r && r.winner === k ? "won" : ""}`}>{namesOf(g.sides[k] ?? [])} {resultText(g, k)}</span>
  );
  const info: ComponentChildren[] = [];
  if (props.swiss) info.push(t("events.roundN", { n: g.round }));
  if (r === null) info.push(t("events.inPlay"));
  else if (r.absent.length) info.push(t("events.noShow"));
  else if (r.winner === null) info.push(t("events.draw"));
  if (r?.vp && !r.absent.length) info.push(t("events.vp"));
  if (watch) info.push(<a href={watch} onClick={navigate} data-testid="watch">{t("tables.watch")}</a>);
  return (
    <li class="game-row" data-game={g.id} data-done={r ? "" : undefined}>
      <div class="game-sides">{side(0)}<span class="vs">{t("prof.vs")}</span>{side(1)}</div>
      {info.length > 0 && <div class="game-info note">{info.map((part, i) => <>{i ? " · " : ""}{part}</>)}</div>}
    </li>
  );
}

function JoinPanel(props: { e: EventDetail; busy: boolean; onJoin: (partner?: string) => void }) {
  useLang();
  const [partner, setPartner] = useState("");
  const pairs = props.e.form === "4";
  const submit = (ev: Event) => {
    ev.preventDefault();
    props.onJoin(pairs ? partner.trim() : undefined);
  };
  return (
    <form class="join-form" onSubmit={submit} data-testid="join-form">
      {pairs && <>
        <label>{t("events.partner")}
          <input name="partner" value={partner} maxLength={20} required autoComplete="off"
            onInput={(e) => setPartner((e.target as HTMLInputElement).value)} />
        </label>
        <p class="note">{t("events.partnerNote")}</p>
      </>}
      <button type="submit" class="primary big" data-testid="event-join" disabled={props.busy || (pairs && !partner.trim())}>
        {t(pairs ? "events.joinPair" : "events.join")}</button>
    </form>
  );
}

/** What waits for me: my seat, the next game, the start; or the Join form. */
function MyPanel(props: { e: EventDetail; now: number; account: boolean; busy: boolean;
  onJoin: (partner?: string) => void; onLeave: () => void }) {
  const { e, now } = props;
  const me = e.me;
  const seat = mySeatPath(me?.game);
  if (!props.account) {
    return live(e.phase) ? (
      <section class="panel my-panel">
        <p>{t("events.accountsOnly")}</p>
        <p><a class="button primary" href="/" onClick={navigate}>{t("pool.login")}</a></p>
      </section>
    ) : null;
  }
  if (!me) {
    if (e.phase !== "open") return null;
    if (e.starts <= now) return <section class="panel my-panel"><p class="note">{t("events.error.closed")}</p></section>;
    return <section class="panel my-panel"><JoinPanel e={e} busy={props.busy} onJoin={props.onJoin} /></section>;
  }
  let state: ComponentChildren;
  if (me.withdrawn) state = <p data-testid="my-state">{t("events.withdrawn")}</p>;
  else if (seat && me.game) {
    state = <>
      <a class="button primary big sit-down" href={seat} onClick={navigate} data-testid="sit-down">{t("events.sitDown")}</a>
      <p class="note" data-testid="sit-by">{t("events.sitWithin", { time: clock(me.game.sit_by - now) })}</p>
    </>;
  } else if (e.phase === "open") state = <p data-testid="my-state">{t("events.waitStart")}</p>;
  else if (e.phase === "running") state = <p data-testid="my-state">{t(e.kind === "swiss" ? "events.waitRound" : "events.waitArena")}</p>;
  else state = null;
  // a place means something once games are played
  const mine = e.standings.find((r) => r.entrant === me.entrant && (r.games > 0 || e.phase === "finished"));
  return (
    <section class={`panel my-panel ${seat ? "ready" : ""}`} data-testid="my-panel">
      <p class="in-line"><span class="in-chip">{t(e.phase === "finished" ? "events.youPlayed" : "events.youAreIn")}</span>
        {mine && e.phase === "finished" && mine.rank <= BADGES.length && <Medal badge={BADGES[mine.rank - 1]} />}
        {mine && <span data-testid="my-place">{t("events.myPlace", { rank: mine.rank, of: e.standings.length })}</span>}</p>
      {state}
      {me.missed === 1 && !me.withdrawn && <p class="note">{t("events.missedOne")}</p>}
      {live(e.phase) && !me.withdrawn && (e.phase === "running" || e.starts > now) && (
        <div class="buttons">
          <button type="button" data-testid="event-leave" disabled={props.busy} onClick={props.onLeave}>
            {t(e.phase === "open" ? "events.leave" : "events.withdraw")}</button>
        </div>
      )}
    </section>
  );
}

export function EventPage(props: { id: string }) {
  useLang();
  const account = isAccount(savedGuest());
  const now = useNow();
  const [e, setE] = useState<EventDetail | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const phase = useRef<string>("open");
  const load = () => getEvent(props.id).then((got) => { phase.current = got.phase; setE(got); })
    .catch((err) => { if (!e) setMissing(eventError(err, "read").text); });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let alive = true;
    const tick = async () => {
      if (document.visibilityState !== "hidden") await load();
      if (alive && live(phase.current as EventSummary["phase"])) timer = setTimeout(tick, EVENT_POLL_MS);
    };
    void tick();
    return () => { alive = false; if (timer) clearTimeout(timer); };
  }, [props.id]);
  const act = async (work: () => Promise<EventDetail>, doing: "join" | "leave") => {
    setBusy(true);
    setError(null);
    try {
      const got = await work();
      phase.current = got.phase;
      setE(got);
      noticesChanged();
    } catch (err) {
      setError(eventError(err, doing).text);
    } finally {
      setBusy(false);
    }
  };
  const leave = () => {
    if (e?.phase === "running") setConfirming(true);
    else void act(() => leaveEvent(props.id), "leave");
  };
  return (
    <EventsFrame title={e?.name ?? t("events.title")}>
      {missing && !e && <p class="error" role="alert">{missing}</p>}
      {!e && !missing && <p>{t("common.loading")}</p>}
      {e && <>
        <section class="panel event-head" data-testid="event-page" data-phase={e.phase}>
          <p class="note"><Facts e={e} /></p>
          <Status e={e} now={now} />
          <p class="note">
            {entrantsText(e)}{e.max_entrants < 256 && <> / {formatNumber(e.max_entrants)}</>}
            {" · "}{t("create.clockSeconds", { n: e.turn_seconds })}
            {" · "}{t("events.showShort", { n: e.show_seconds })}
            {e.recurring && <> · {t("events.recurring")}</>}
          </p>
        </section>
        {error && <p class="error" role="alert" data-testid="event-error">{error}</p>}
        <MyPanel e={e} now={now} account={account} busy={busy}
          onJoin={(partner) => act(() => joinEvent(props.id, partner), "join")} onLeave={leave} />
        {e.phase !== "open" && e.phase !== "cancelled" && (
          <section class="panel">
            <h2>{t("events.standings")}{e.phase === "running" && <span class="live-dot" title={t("events.live")} />}</h2>
            {e.standings.length ? <Standings e={e} mine={e.me?.entrant ?? null} /> : <p class="note">{t("events.noStandings")}</p>}
          </section>
        )}
        {e.games.length > 0 && (
          <section class="panel">
            <h2>{t("events.games")}</h2>
            <ul class="game-list" data-testid="games">{e.games.map((g) => <GameRow g={g} swiss={e.kind === "swiss"} />)}</ul>
          </section>
        )}
        <section class="panel">
          <h2>{t(e.form === "4" ? "events.pairsTitle" : "events.entrantsTitle")} <small>({e.entrants.length})</small></h2>
          {e.entrants.length === 0 ? <p class="note">{t("events.noEntrants")}</p> : (
            <ul class="entrant-list" data-testid="entrants">
              {e.entrants.map((x) => (
                <li data-entrant={x.id} class={x.withdrawn ? "withdrawn" : ""}>
                  <span class="who">{namesOf(x.names)}</span>
                  <span class="note">{formatNumber(x.rating)}{x.withdrawn && <> · {t("events.withdrawnMark")}</>}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </>}
      <p><a href="/events" onClick={navigate} data-testid="all-events">{t("events.all")}</a></p>
      {confirming && e && (
        <Dialog title={t("events.withdrawTitle", { name: e.name })} onClose={() => setConfirming(false)}>
          <p>{t("events.withdrawText")}</p>
          <div class="buttons">
            <button type="button" class="primary" data-testid="withdraw-yes"
              onClick={() => { setConfirming(false); void act(() => leaveEvent(props.id), "leave"); }}>{t("events.withdraw")}</button>
            <button type="button" onClick={() => setConfirming(false)}>{t("pool.cancel")}</button>
          </div>
        </Dialog>
      )}
    </EventsFrame>
  );
}

// --- the profile's section -----------------------------------------------------------------

const BADGE_KEYS: Record<Badge, Key> = { gold: "events.badge.gold", silver: "events.badge.silver", bronze: "events.badge.bronze" };
const MEDAL_COLOURS: Record<Badge, [string, string]> = {
  gold: ["#f2c14e", "#a16207"], silver: ["#d4d4d8", "#71717a"], bronze: ["#d08a4e", "#7c3f12"],
};

/** A podium medal (drawn, so that it shows without an emoji font; its emoji is its text). */
export function Medal(props: { badge: Badge }) {
  const [face, rim] = MEDAL_COLOURS[props.badge];
  const place = BADGES.indexOf(props.badge) + 1;
  return (
    <svg class={`medal-icon ${props.badge}`} viewBox="0 0 24 28" width="22" height="26" role="img"
      aria-label={`${MEDAL[props.badge]} ${t(BADGE_KEYS[props.badge])}`}>
      <path d="M6 0h5l3 9H9z" fill="#2563eb" /><path d="M13 0h5l-3 9h-5z" fill="#c0392b" />
      <circle cx="12" cy="17" r="9" fill={face} stroke={rim} stroke-width="2" />
      <text x="12" y="21.5" text-anchor="middle" font-size="12" font-weight="700" fill={rim}>{place}</text>
    </svg>
  );
}

/** A player's finished online tournaments, newest first, and their podium badges. */
export function ProfileEvents(props: { events?: PastEvent[] | null; badges?: Partial<Record<Badge, number>> | null }) {
  useLang();
  const events = props.events ?? [];
  const counts = BADGES.map((b) => [b, props.badges?.[b] ?? 0] as const);
  if (events.length === 0 && counts.every(([, n]) => n === 0)) return null;
  return (
    <section class="panel profile-events" data-testid="profile-events">
      <h2>{t("events.profileTitle")}</h2>
      <p class="medals" data-testid="medals" aria-label={t("events.medals", { gold: counts[0][1], silver: counts[1][1], bronze: counts[2][1] })}>
        {counts.map(([b, n]) => (
          <span class={`medal ${b} ${n ? "" : "none"}`} title={t(BADGE_KEYS[b])} data-badge={b} aria-hidden="true">
            <Medal badge={b} /> <strong>{n}</strong></span>
        ))}
      </p>
      {events.length > 0 && (
        <ul class="tables" data-testid="event-history">
          {events.map((x) => (
            <li class="table-row" data-event={x.event}>
              <div>
                {x.badge && <span class="medal-mark" title={t(BADGE_KEYS[x.badge])}><Medal badge={x.badge} /> </span>}
                <a href={`/events/${encodeURIComponent(x.event)}`} onClick={navigate}><strong>{x.name}</strong></a>
                {" · "}{t("events.placeOf", { rank: x.rank, of: x.entrants })}
                {" · "}{t("events.scoreN", { score: formatNumber(x.score) })}
                <div class="note">{t(x.kind === "arena" ? "events.kind.arena" : "events.kind.swiss")} · {when(x.finished)}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
