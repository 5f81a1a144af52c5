/**
 * The lobby's "Play with people" card: a format, two or four players, rated or casual, and
 * (casual) when bots may fill the empty seats; with four players an account may pick a friend
 * as partner. Play joins the matchmaking pool (or invites the friend), and a panel takes the
 * card's place: the wait (ticking, the rating window, how many wait, the partner, Cancel)
 * until the player is matched and taken to their seat; the invitation sent (its time left,
 * Cancel); a friend's invitation received (Accept, Decline, its time left). The choices are
 * remembered on the device (the partner is not). The calls and the polling are `pool.ts`.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { keptTable, savedGuest, type GuestInfo } from "./api";
import { go, navigate } from "./components";
import { lang, localeOf, t, useLang, type Key } from "./i18n";
import { ensureGuest } from "./play";
import {
  acceptInvitation, BOTS_AFTER_CHOICES, botsAfterLabel, browserEnv, clockText, formatLabel, joinBody, joinPool,
  keepPoolChoice, leavePool, leavePoolOnExit, matchPath, onPoolNews, POOL_FORMATS, PoolError, poolErrorText,
  poolLine, poolStatus, PoolWatch, savedPoolChoice, timeLeft, windowText, type PoolChoice, type PoolFormat,
  type PoolMatch, type PoolName, type PoolStatus, type Watched,
} from "./pool";
import { getFriends, noticesChanged } from "./social";
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

/** A note in the card: its message and the message's values. */
interface Note { key: Key; params?: Record<string, string> }

/** Does this answer of `GET /api/pool` call for the panel (a wait, an invitation, a table being made)? */
function watchable(status: PoolStatus): boolean {
  return status.state === "waiting" || status.state === "inviting" || status.state === "invited"
    || (status.state === "matched" && status.match.pending);
}

export function PoolCard(props: { guest: GuestInfo | null; account: boolean; onGuest: (g: GuestInfo) => void }) {
  useLang();
  const [choice, setChoice] = useState<PoolChoice>(savedPoolChoice);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [watched, setWatched] = useState<Watched | null>(null);
  /** The account's friends (usernames), who may be invited as partners; null: not known yet. */
  const [friends, setFriends] = useState<string[] | null>(null);
  /** The friend to invite as partner ("": queue alone). */
  const [partner, setPartner] = useState("");
  const [partnerError, setPartnerError] = useState<string | null>(null);
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
  /** The friend of the last invitation shown (sent: the partner; received: who sent it). */
  const inviteWith = useRef("");
  const phaseNow = useRef<Watched["phase"] | null>(null);
  const tokenNow = useRef<string | null>(props.guest?.token ?? null);
  tokenNow.current = props.guest?.token ?? null;

  useEffect(() => {
    const w = new PoolWatch(browserEnv(() => waitingAs.current ?? undefined), (report) => {
      // a wait, or an invitation sent, ends with the page (an invitation received does not)
      queued.current = report.phase === "waiting" || report.phase === "seating" || report.phase === "inviting";
      phaseNow.current = report.phase;
      if (report.phase === "waiting" || report.phase === "inviting" || report.phase === "invited") {
        lastPool.current = report.status.pool;
      }
      if (report.phase === "inviting") inviteWith.current = report.status.partner;
      if (report.phase === "invited") inviteWith.current = report.status.by;
      if (report.phase === "gone") {
        setWatched(null);
        phaseNow.current = null;
        const name = inviteWith.current;
        setNote(report.after === "inviting" ? { key: "pool.inviteEnded", params: { name } }
          : report.after === "invited" ? { key: "pool.invitationEnded", params: { name } } : { key: "pool.gone" });
      } else if (report.phase === "failed") {
        setWatched(null);
        phaseNow.current = null;
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

  /** Ask the pool where the player stands (as `token`): waiting, inviting or invited shows the
   * panel; a table they never went to, its link. */
  const look = async (token: string, live: () => boolean) => {
    const status = await poolStatus(undefined, token);
    if (!live() || watch.current?.active) return;
    if (watchable(status)) {
      waitingAs.current = token;
      setNote(null);
      watch.current?.start(status);
    } else if (status.state === "matched" && status.match.table) {
      const path = matchPath(status.match);
      const kept = keptTable(status.match.table);
      if (path && !kept?.seats[status.match.seat]) setReady(path);
    }
  };

  // news from the bell: an invitation came, or was accepted there (ask again, at once); the
  // invitation was declined there (the card comes back, nothing to say)
  useEffect(() => onPoolNews((news) => {
    const w = watch.current;
    if (news === "left") {
      if (phaseNow.current === "invited") {
        w?.stop();
        phaseNow.current = null;
        setWatched(null);
      }
      return;
    }
    if (w?.active) w.start();
    else if (tokenNow.current) void look(tokenNow.current, () => true).catch(() => undefined);
  }), []);

  // on arrival, and as the player logs in or out: still waiting (another tab, a restored
  // page), invited, or seated at a table they never went to
  useEffect(() => {
    const token = props.guest?.token ?? null;
    const old = queued.current && waitingAs.current && waitingAs.current !== token ? waitingAs.current : null;
    if (old) {
      // logged in or out while waiting: the wait under the old name ends (no table waits for it)
      watch.current?.stop();
      queued.current = false;
      waitingAs.current = null;
      phaseNow.current = null;
      setWatched(null);
      setNote({ key: "pool.gone" });
    } else if (waitingAs.current && waitingAs.current !== token && watch.current?.active) {
      // an invitation received under the old name stays theirs: only the card forgets it
      watch.current.stop();
      waitingAs.current = null;
      phaseNow.current = null;
      setWatched(null);
    }
    let live = true;
    (async () => {
      if (old) await leavePool(undefined, old).catch(() => undefined);
      if (!token || !live) return;
      await look(token, () => live);
    })().catch(() => undefined);
    return () => { live = false; };
  }, [props.guest?.token]);

  // an account's friends, for a partner in a game of four (asked as four players are picked)
  const four = props.account && choice.form === "4";
  useEffect(() => {
    if (!four) return;
    let live = true;
    getFriends().then((f) => {
      if (!live) return;
      const names = (Array.isArray(f?.friends) ? f.friends : []).map((p) => p.username).filter((n) => typeof n === "string");
      setFriends(names);
      setPartner((now) => (names.includes(now) ? now : ""));
    }).catch(() => { if (live) setFriends((now) => now ?? []); });
    return () => { live = false; };
  }, [four, props.guest?.token]);

  const phase = watched?.phase ?? null;
  useEffect(() => {
    if (phase !== "waiting" && phase !== "inviting" && phase !== "invited") return;
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
    setPartnerError(null);
  };

  /** A refusal where it belongs: under the partner's field when it names it, else the card's. */
  const refused = (err: unknown, rated = false) => {
    const text = poolErrorText(err, rated);
    if (err instanceof PoolError && err.field === "partner") setPartnerError(text);
    else setError(text);
  };

  const play = async () => {
    setBusy(true);
    setError(null);
    setPartnerError(null);
    setNote(null);
    setReady(null);
    const body = joinBody(choice, props.account, partner);
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
          refused(again, body.rated);
        }
      } else {
        refused(err, body.rated);
      }
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    watch.current?.stop();
    queued.current = false;
    phaseNow.current = null;
    focusNext.current = "card";
    setWatched(null);
    setError(null);
    leavePool(undefined, waitingAs.current ?? undefined)
      .then(noticesChanged)
      .catch((err) => setError(t("pool.error.cancel", { reason: poolErrorText(err) })));
  };

  /** Accept the friend's invitation: the two wait together. */
  const accept = async (by: string) => {
    setBusy(true);
    setError(null);
    try {
      const token = waitingAs.current ?? props.guest?.token ?? undefined;
      const joined = await acceptInvitation(by);
      waitingAs.current = token ?? null;
      watch.current?.start(joined);
      noticesChanged();
    } catch (err) {
      if (err instanceof PoolError && err.code === "no_invitation") {
        watch.current?.stop();
        phaseNow.current = null;
        focusNext.current = "card";
        setWatched(null);
      }
      setError(poolErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  const toAccount = () => {
    const panel = document.querySelector<HTMLElement>("section.panel.account");
    panel?.scrollIntoView({ behavior: "smooth", block: "start" });
    panel?.querySelector<HTMLInputElement>("input[name=username]")?.focus({ preventScroll: true });
  };

  if (watched && (watched.phase === "inviting" || watched.phase === "invited")) {
    const sent = watched.phase === "inviting" ? watched.status : null;
    const received = watched.phase === "invited" ? watched.status : null;
    const left = clockText(timeLeft(watched, Date.now()));
    return (
      <section class="panel pool pool-waiting pool-invite" aria-labelledby="pool-title" data-testid="pool-waiting"
        data-phase={watched.phase}>
        <div role="status">
          <h2 id="pool-title" tabIndex={-1} ref={heading}>
            {sent ? t("pool.invitingTitle", { name: sent.partner }) : t("pool.invitedTitle")}
          </h2>
        </div>
        {received ? (
          <p class="pool-invite-text" data-testid="pool-invited">
            {t("pool.invited", { name: received.by, pool: poolLine(received.pool) })}
          </p>
        ) : (
          <p class="pool-what" data-testid="pool-what">{poolLine(watched.status.pool)}</p>
        )}
        <p class="pool-clock">
          {sent && <span class="pool-spinner" aria-hidden="true" />}
          <span class="pool-clock-label">{t("pool.timeLeft")}</span>
          <strong data-testid="pool-left">{left}</strong>
        </p>
        {watched.trouble > 0 && <p class="note" role="status">{t("pool.trouble")}</p>}
        {received ? (
          <div class="pool-answer">
            <button type="button" class="primary big" data-testid="pool-accept" disabled={busy}
              onClick={() => accept(received.by)}>{t("notice.accept")}</button>
            <button type="button" class="big" data-testid="pool-decline" disabled={busy}
              onClick={cancel}>{t("notice.decline")}</button>
          </div>
        ) : (
          <button type="button" class="big pool-cancel" data-testid="pool-cancel" onClick={cancel}>
            {t("pool.cancel")}
          </button>
        )}
        {error && <p class="error" role="alert" data-testid="pool-error">{error}</p>}
      </section>
    );
  }

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
        {waiting?.status.partner && (
          <p class="pool-partner" data-testid="pool-partner">{t("pool.with", { names: waiting.status.partner })}</p>
        )}
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
        {four && friends !== null && friends.length === 0 && (
          <p class="note pool-partner-none" data-testid="pool-no-friends">
            {t("pool.noFriends")}{" "}
            <a href="/friends" onClick={navigate}>{t("friends.title")}</a>
          </p>
        )}
        {four && (friends === null || friends.length > 0) && (
          <Select name="pool-partner" class="pool-partner-field" label={t("pool.partner")} value={partner}
            disabled={friends === null} describedBy={partnerError ? "pool-partner-error" : undefined}
            options={[["", t("pool.alone")], ...(friends ?? []).map((n): [string, string] => [n, n])]}
            onPick={(v) => { setPartner(v); setPartnerError(null); setError(null); }} />
        )}
        {four && partnerError && (
          <p class="error pool-partner-error" id="pool-partner-error" role="alert" data-testid="pool-partner-error">
            {partnerError}
          </p>
        )}
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
      {note && <p class="note" role="status" data-testid="pool-note">{t(note.key, note.params)}</p>}
      {error && <p class="error" role="alert" data-testid="pool-error">{error}</p>}
    </section>
  );
}
