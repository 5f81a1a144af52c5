/**
 * The lobby's "Play with people" card: a format, two or four players, rated or casual, and
 * (casual) when bots may fill the empty seats; Play joins the matchmaking pool, and a waiting
 * panel takes the card's place (the wait ticking, the rating window, how many wait, Cancel)
 * until the player is matched and taken to their seat. The choices are remembered on the
 * device. The calls and the polling are `pool.ts`.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { keptTable, savedGuest, type GuestInfo } from "./api";
import { go, navigate } from "./components";
import { lang, localeOf, t, useLang, type Key } from "./i18n";
import { ensureGuest } from "./play";
import {
  BOTS_AFTER_CHOICES, botsAfterLabel, browserEnv, clockText, formatLabel, joinBody, joinPool,
  keepPoolChoice, leavePool, leavePoolOnExit, matchPath, POOL_FORMATS, PoolError, poolErrorText,
  poolLine, poolStatus, PoolWatch, savedPoolChoice, windowText, type PoolChoice, type PoolFormat,
  type PoolMatch, type PoolName, type Watched,
} from "./pool";
import "./pool.css";

/** How long "Found! Seating you…" shows before the seat opens. */
const FOUND_MS = 700;

/** "Ada and 2 bots": the others at the table, as the language lists them. */
function companyText(match: PoolMatch, me: string | null): string {
  const names = match.players.filter((n): n is string => !!n);
  const mine = me ? names.indexOf(me) : -1;
  if (mine >= 0) names.splice(mine, 1);
  const parts = [...names, ...(match.bots.length ? [t("pool.bots", { n: match.bots.length })] : [])];
  if (!parts.length) return "";
  const list = new Intl.ListFormat(localeOf(lang()), { type: "conjunction" }).format(parts);
  return t("pool.with", { names: list });
}

function Select(props: {
  name: string; label: string; class?: string; value: string; options: [string, string, boolean?][];
  onPick: (v: string) => void; disabled?: boolean; describedBy?: string;
}) {
  return (
    <label class={props.class}>
      {props.label}
      <select name={props.name} value={props.value} disabled={props.disabled} aria-describedby={props.describedBy}
        onChange={(e) => props.onPick((e.target as HTMLSelectElement).value)}>
        {props.options.map(([v, text, off]) => <option value={v} disabled={off}>{text}</option>)}
      </select>
    </label>
  );
}

export function PoolCard(props: { guest: GuestInfo | null; account: boolean; onGuest: (g: GuestInfo) => void }) {
  useLang();
  const [choice, setChoice] = useState<PoolChoice>(savedPoolChoice);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<Key | null>(null);
  const [watched, setWatched] = useState<Watched | null>(null);
  /** A table the pool seated this player at, found on arrival, whose seat they never took. */
  const [ready, setReady] = useState<string | null>(null);
  const [, tick] = useState(0);
  const watch = useRef<PoolWatch | null>(null);
  const queued = useRef(false);
  /** Whose token the wait is under (a login or logout meanwhile changes the saved one). */
  const waitingAs = useRef<string | null>(null);
  const lastPool = useRef<PoolName | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const playButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<"panel" | "card" | null>(null);

  useEffect(() => {
    const w = new PoolWatch(browserEnv(() => waitingAs.current ?? undefined), (report) => {
      queued.current = report.phase === "waiting" || report.phase === "seating";
      if (report.phase === "waiting") lastPool.current = report.status.pool;
      if (report.phase === "gone") {
        setWatched(null);
        setNote("pool.gone");
      } else if (report.phase === "failed") {
        setWatched(null);
        setError(poolErrorText(report.error));
      } else {
        setWatched(report);
      }
    });
    watch.current = w;
    const visible = () => w.visibility();
    // a closed or reloaded page leaves the pool: a table must not wait for someone gone
    const exit = () => { if (queued.current) leavePoolOnExit(waitingAs.current ?? undefined); };
    const back = (e: PageTransitionEvent) => { if (e.persisted && queued.current) w.start(); };
    document.addEventListener("visibilitychange", visible);
    window.addEventListener("pagehide", exit);
    window.addEventListener("pageshow", back);
    return () => {
      w.stop();
      document.removeEventListener("visibilitychange", visible);
      window.removeEventListener("pagehide", exit);
      window.removeEventListener("pageshow", back);
      // the lobby left for another page while waiting: out of the pool too
      if (queued.current) {
        queued.current = false;
        void leavePool(undefined, waitingAs.current ?? undefined).catch(() => undefined);
      }
    };
  }, []);

  // on arrival, and as the player logs in or out: still waiting (another tab, a restored
  // page), or seated at a table they never went to
  useEffect(() => {
    const token = props.guest?.token ?? null;
    const old = queued.current && waitingAs.current && waitingAs.current !== token ? waitingAs.current : null;
    if (old) {
      // logged in or out while waiting: the wait under the old name ends (no table waits for it)
      watch.current?.stop();
      queued.current = false;
      waitingAs.current = null;
      setWatched(null);
      setNote("pool.gone");
    }
    let live = true;
    (async () => {
      if (old) await leavePool(undefined, old).catch(() => undefined);
      if (!token || !live) return;
      const status = await poolStatus(undefined, token);
      if (!live || watch.current?.active) return;
      if (status.state === "waiting" || (status.state === "matched" && status.match.pending)) {
        waitingAs.current = token;
        setNote(null);
        watch.current?.start(status);
      } else if (status.state === "matched" && status.match.table) {
        const path = matchPath(status.match);
        const kept = keptTable(status.match.table);
        if (path && !kept?.seats[status.match.seat]) setReady(path);
      }
    })().catch(() => undefined);
    return () => { live = false; };
  }, [props.guest?.token]);

  const phase = watched?.phase ?? null;
  useEffect(() => {
    if (phase !== "waiting") return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [phase]);

  useEffect(() => {
    if (watched?.phase !== "matched") return;
    const timer = setTimeout(() => go(watched.path), FOUND_MS);
    return () => clearTimeout(timer);
  }, [watched]);

  // the focus follows the panel that takes the other's place (keyboards, screen readers)
  useEffect(() => {
    if (focusNext.current === "panel") heading.current?.focus({ preventScroll: true });
    if (focusNext.current === "card") playButton.current?.focus({ preventScroll: true });
    focusNext.current = null;
  }, [phase === null]);

  const choose = (change: Partial<PoolChoice>) => {
    const next = { ...choice, ...change };
    setChoice(next);
    keepPoolChoice(next);
    setError(null);
  };

  const play = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    setReady(null);
    const body = joinBody(choice, props.account);
    try {
      const guest = await ensureGuest(props.guest);
      if (guest !== props.guest) props.onGuest(guest);
      const joined = await joinPool(body);
      focusNext.current = "panel";
      waitingAs.current = guest.token;
      watch.current?.start(joined);
    } catch (err) {
      if (err instanceof PoolError && (err.code === "already_queued" || err.code === "being_seated")) {
        // waiting already (another tab): show that wait rather than a refusal
        try {
          focusNext.current = "panel";
          waitingAs.current = savedGuest()?.token ?? null;
          watch.current?.start(await poolStatus());
        } catch (again) {
          setError(poolErrorText(again, body.rated));
        }
      } else {
        setError(poolErrorText(err, body.rated));
      }
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    watch.current?.stop();
    queued.current = false;
    focusNext.current = "card";
    setWatched(null);
    setError(null);
    leavePool(undefined, waitingAs.current ?? undefined)
      .catch((err) => setError(t("pool.error.cancel", { reason: poolErrorText(err) })));
  };

  const toAccount = () => {
    const panel = document.querySelector<HTMLElement>("section.panel.account");
    panel?.scrollIntoView({ behavior: "smooth", block: "start" });
    panel?.querySelector<HTMLInputElement>("input[name=username]")?.focus({ preventScroll: true });
  };

  if (watched && watched.phase !== "gone" && watched.phase !== "failed") {
    const waiting = watched.phase === "waiting" ? watched : null;
    const match = watched.phase === "waiting" ? null : watched.match;
    const pool = waiting?.status.pool ?? match?.pool ?? lastPool.current;
    const waited = waiting ? waiting.status.waited + (Date.now() - waiting.at) / 1000 : 0;
    const trouble = watched.phase === "matched" ? 0 : watched.trouble;
    return (
      <section class="panel pool pool-waiting" aria-labelledby="pool-title" data-testid="pool-waiting"
        data-phase={watched.phase}>
        <div role="status">
          <h2 id="pool-title" tabIndex={-1} ref={heading}>{waiting ? t("pool.looking") : t("pool.found")}</h2>
        </div>
        {pool && <p class="pool-what" data-testid="pool-what">{poolLine(pool)}</p>}
        {waiting ? (
          <>
            <p class="pool-clock">
              <span class="pool-spinner" aria-hidden="true" />
              <span class="pool-clock-label">{t("pool.waited")}</span>
              <strong data-testid="pool-waited">{clockText(waited)}</strong>
            </p>
            <ul class="pool-facts">
              <li data-testid="pool-window">{t("pool.window", { range: windowText(waiting.status.window) })}</li>
              {waiting.status.waiting !== null && (
                <li data-testid="pool-count">{t("pool.count", { n: waiting.status.waiting })}</li>
              )}
              <li data-testid="pool-bots">
                {waiting.status.bots_after !== null && !waiting.status.pool.rated
                  ? t("pool.botsAt", { time: clockText(waiting.status.bots_after) }) : t("pool.noBots")}
              </li>
            </ul>
          </>
        ) : (
          <p class="pool-company" data-testid="pool-company">
            {match && companyText(match, props.guest?.nickname ?? null)}
          </p>
        )}
        {trouble > 0 && <p class="note" role="status">{t("pool.trouble")}</p>}
        {watched.phase !== "matched" && (
          <button type="button" class="big pool-cancel" data-testid="pool-cancel" onClick={cancel}>
            {t("pool.cancel")}
          </button>
        )}
        {error && <p class="error" role="alert">{error}</p>}
      </section>
    );
  }

  const rated = props.account && choice.rated;
  return (
    <section class="panel pool" aria-labelledby="pool-title" data-testid="pool-card">
      <h2 id="pool-title">{t("pool.title")}</h2>
      <button type="button" class="primary big play-now" data-testid="pool-play" ref={playButton}
        disabled={busy} onClick={play}>
        {busy ? t("pool.joining") : t("pool.play")}
      </button>
      <div class="pool-choices">
        <Select name="pool-format" class="pool-format" label={t("quick.format")} value={choice.format}
          options={POOL_FORMATS.map((f) => [f, formatLabel(f)])}
          onPick={(v) => choose({ format: v as PoolFormat })} />
        <Select name="pool-form" label={t("create.players")} value={choice.form}
          options={[["2", t("pool.players2")], ["4", t("pool.players4")]]}
          onPick={(v) => choose({ form: v === "4" ? "4" : "2" })} />
        <Select name="pool-rated" label={t("pool.kind")} value={rated ? "rated" : "casual"}
          describedBy={props.account ? undefined : "pool-why"}
          options={[["casual", t("pool.casual")], ["rated", t("pool.rated"), !props.account]]}
          onPick={(v) => choose({ rated: v === "rated" })} />
        <Select name="pool-bots" class="pool-bots" label={t("pool.botsLabel")} value={rated ? "never" : String(choice.botsAfter ?? "never")}
          disabled={rated} describedBy={rated ? "pool-why" : undefined}
          options={[...BOTS_AFTER_CHOICES.map((s): [string, string] => [String(s), botsAfterLabel(s)]),
            ["never", botsAfterLabel(null)]]}
          onPick={(v) => choose({ botsAfter: v === "never" ? null : Number(v) })} />
      </div>
      {props.account ? (
        rated && <p class="note pool-why" id="pool-why">{t("pool.ratedNote")}</p>
      ) : (
        <p class="note pool-why" id="pool-why">
          {t("pool.ratedNeedsAccount")}{" "}
          <button type="button" class="link" data-testid="pool-login" onClick={toAccount}>{t("pool.login")}</button>
        </p>
      )}
      {ready && (
        <p class="pool-ready" data-testid="pool-ready">
          {t("pool.ready")}{" "}
          <a class="button" href={ready} onClick={navigate}>{t("pool.goSeat")}</a>
        </p>
      )}
      {note && <p class="note" role="status" data-testid="pool-note">{t(note)}</p>}
      {error && <p class="error" role="alert" data-testid="pool-error">{error}</p>}
    </section>
  );
}
