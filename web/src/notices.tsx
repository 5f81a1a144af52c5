/**
 * The bell: what waits for an account (docs/protocol.md §14.7), asked every 20 s while the page
 * shows (at once when it shows again; every 3 s while a challenge sent waits for its answer).
 * A count on the bell, and a list to act on: a challenge (Accept, Decline), a challenge
 * accepted or a pool match (go to the table), a friend's invitation to queue in the pool as
 * partners (Accept: the lobby shows the wait; Decline), a club invitation (Join), a club request (Accept),
 * a new follower (Follow back), a tournament of one's about to start (open its page), one's
 * table at a tournament ready (Sit down). Each item is shown once per key: one dealt with or
 * dismissed is remembered on the device.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { go, navigate } from "./components";
import { eventNotices, playPath, type EventNotice } from "./eventapi";
import { formatDate, t, useLang } from "./i18n";
import { acceptInvitation, formatLabel, leavePool, poolErrorText, poolLine, poolNews } from "./pool";
import {
  acceptChallenge, acceptRequest, declineChallenge, dismissedKeys, dismissKey, follow, freshNotices,
  getNotices, joinClub, noticeDelay, seatPath, socialErrorText, type Notice,
} from "./social";
import "./social.css";

const SLOT = "\u0001";
const SLOT2 = "\u0002";

/** A message with links in its placeholders' places (each language puts them where it will). */
export function linked(text: string, first: ComponentChildren, second?: ComponentChildren): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  for (const piece of text.split(/([\u0001\u0002])/)) {
    if (piece === SLOT) out.push(first);
    else if (piece === SLOT2) out.push(second ?? null);
    else if (piece) out.push(piece);
  }
  return out;
}

type Item = Notice | EventNotice;

/** Every item the bell shows: the social ones (not an invitation run out), then the tournaments'. */
function shown(raw: unknown, dismissed: ReadonlySet<string>, now = Date.now()): Item[] {
  const social = freshNotices(raw, dismissed)
    .filter((n) => n.kind !== "party_invite" || !(typeof n.expires === "number" && n.expires * 1000 < now));
  return [...social, ...eventNotices(raw, dismissed)];
}

/** The keys of the invitations to a party among the notifications ("" when none). */
function partyKeys(raw: unknown[]): string {
  return raw.filter((n): n is { kind: string; key: string } => !!n && typeof n === "object"
    && (n as { kind?: unknown }).kind === "party_invite").map((n) => String(n.key)).join(" ");
}

function NoticeItem(props: { item: Item; onDone: (key: string) => void; onError: (e: string) => void; onClose: () => void }) {
  const { item } = props;
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<unknown>, describe: (err: unknown) => string = socialErrorText) => {
    setBusy(true);
    try {
      await work();
      props.onDone(item.key);
    } catch (err) {
      props.onError(describe(err));
      setBusy(false);
    }
  };
  const goTo = (path: string | null) => () => act(async () => { if (path) go(path); });
  const eventLink = (e: EventNotice) => <a href={`/events/${encodeURIComponent(e.event)}`} onClick={navigate}>{e.name}</a>;
  const who = (name: string) => <a href={`/players/${encodeURIComponent(name)}`} onClick={navigate}>{name}</a>;
  const clubLink = <a href={`/clubs/${encodeURIComponent(item.kind === "club_invite" || item.kind === "club_request" ? item.club : "")}`}
    onClick={navigate}>{item.kind === "club_invite" ? item.name : item.kind === "club_request" ? item.club : ""}</a>;
  let text;
  let actions;
  switch (item.kind) {
    case "challenge":
      text = <>{linked(t("notice.challenge", { name: SLOT }), who(item.from))}
        <span class="note"> · {formatLabel(item.format)} · {t(item.rated ? "pool.rated" : "pool.casual")}</span></>;
      actions = <>
        <button type="button" class="primary" data-testid="notice-accept" disabled={busy}
          onClick={() => act(async () => {
            const answer = await acceptChallenge(item.id);
            const path = seatPath(answer);
            if (path) go(path);
          })}>{t("notice.accept")}</button>
        <button type="button" data-testid="notice-decline" disabled={busy}
          onClick={() => act(() => declineChallenge(item.id))}>{t("notice.decline")}</button>
      </>;
      break;
    case "party_invite":
      text = <>{linked(t("notice.partyInvite", { name: SLOT }), who(item.by))}
        {item.pool && <span class="note"> · {poolLine(item.pool)}</span>}</>;
      actions = <>
        <button type="button" class="primary" data-testid="notice-accept" disabled={busy}
          onClick={() => act(async () => {
            await acceptInvitation(item.by);
            // the lobby's card shows the wait the two now share
            go("/");
            poolNews("check");
            props.onClose();
          }, poolErrorText)}>{t("notice.accept")}</button>
        <button type="button" data-testid="notice-decline" disabled={busy}
          onClick={() => act(async () => { await leavePool(); poolNews("left"); }, poolErrorText)}>
          {t("notice.decline")}</button>
      </>;
      break;
    case "challenge_accepted":
      text = <>{linked(t("notice.accepted", { name: SLOT }), who(item.to))}</>;
      actions = <button type="button" class="primary" data-testid="notice-go" disabled={busy}
        onClick={goTo(seatPath(item))}>{t("notice.goTable")}</button>;
      break;
    case "pool_match":
      text = <>{t("notice.poolMatch")}</>;
      actions = <button type="button" class="primary" data-testid="notice-go" disabled={busy}
        onClick={goTo(seatPath(item))}>{t("pool.goSeat")}</button>;
      break;
    case "club_invite":
      text = <>{linked(t("notice.clubInvite", { club: SLOT }), clubLink)}</>;
      actions = <button type="button" class="primary" data-testid="notice-join" disabled={busy}
        onClick={() => act(async () => { await joinClub(item.club); go(`/clubs/${encodeURIComponent(item.club)}`); })}>
        {t("clubs.join")}</button>;
      break;
    case "club_request":
      text = <>{linked(t("notice.clubRequest", { name: SLOT, club: SLOT2 }), who(item.username), clubLink)}</>;
      actions = <button type="button" class="primary" data-testid="notice-club-accept" disabled={busy}
        onClick={() => act(() => acceptRequest(item.club, item.username))}>{t("notice.accept")}</button>;
      break;
    case "follower":
      text = <>{linked(t("notice.follower", { name: SLOT }), who(item.username))}</>;
      actions = <button type="button" class="primary" data-testid="notice-follow" disabled={busy}
        onClick={() => act(() => follow(item.username))}>{t("friends.followBack")}</button>;
      break;
    case "event_starting":
      text = <>{linked(t("notice.eventStarting", { name: SLOT }), eventLink(item))}
        {typeof item.starts === "number" && <span class="note"> · {formatDate(item.starts, { hour: "2-digit", minute: "2-digit" })}</span>}</>;
      actions = <button type="button" class="primary" data-testid="notice-event" disabled={busy}
        onClick={goTo(`/events/${encodeURIComponent(item.event)}`)}>{t("events.view")}</button>;
      break;
    case "event_game":
      text = <>{linked(t("notice.eventGame", { name: SLOT }), eventLink(item))}</>;
      actions = <button type="button" class="primary" data-testid="notice-sit" disabled={busy}
        onClick={goTo(playPath(item.url))}>
        {t("events.sit")}</button>;
      break;
  }
  return (
    <li class="notice" data-kind={item.kind} data-key={item.key}>
      <p class="notice-text">{text}</p>
      <div class="notice-actions">
        {actions}
        <button type="button" class="notice-dismiss" aria-label={t("notice.dismiss")} title={t("notice.dismiss")}
          onClick={() => props.onDone(item.key)}>×</button>
      </div>
    </li>
  );
}

const hiddenPage = () => document.visibilityState === "hidden";

/** The bell in a page's top bar (an account's pages only). */
export function NoticeBell() {
  useLang();
  const [items, setItems] = useState<Item[]>([]);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const raw = useRef<unknown[]>([]);
  const invites = useRef("");
  const wrap = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let live = true;
    let asking = false;
    const ask = async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!live || asking || hiddenPage()) return;
      asking = true;
      try {
        const answer = await getNotices();
        raw.current = Array.isArray(answer.notifications) ? answer.notifications : [];
        if (live) setItems(shown(raw.current, dismissedKeys()));
        // a friend's invitation came (or went): the lobby's card asks the pool where it stands
        const parties = partyKeys(raw.current);
        if (live && parties !== invites.current) {
          invites.current = parties;
          if (parties) poolNews("check");
        }
      } catch {
        /* a missed poll: the next one tries again */
      } finally {
        asking = false;
        if (live && !hiddenPage()) timer = setTimeout(ask, noticeDelay());
      }
    };
    const visible = () => { if (document.visibilityState !== "hidden") void ask(); };
    const soon = () => { if (timer) { clearTimeout(timer); timer = setTimeout(ask, noticeDelay()); } };
    document.addEventListener("visibilitychange", visible);
    window.addEventListener("burraco:notices-soon", soon);
    window.addEventListener("burraco:notices-now", visible);
    void ask();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      document.removeEventListener("visibilitychange", visible);
      window.removeEventListener("burraco:notices-soon", soon);
      window.removeEventListener("burraco:notices-now", visible);
    };
  }, []);

  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => { if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false); };
    const key = (e: KeyboardEvent) => { if (e.key === "Escape") setOpen(false); };
    document.addEventListener("pointerdown", away);
    document.addEventListener("keydown", key);
    return () => { document.removeEventListener("pointerdown", away); document.removeEventListener("keydown", key); };
  }, [open]);

  const done = (key: string) => setItems(shown(raw.current, dismissKey(key)));
  const n = items.length;
  return (
    <div class="bell-wrap" ref={wrap}>
      <button type="button" class={`bell ${n ? "has" : ""}`} data-testid="bell" aria-expanded={open}
        aria-label={t("notice.bell", { n })} title={t("notice.bell", { n })} onClick={() => { setOpen(!open); setError(null); }}>
        <svg class="bell-icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
          <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
        </svg>
        {n > 0 && <span class="bell-count" data-testid="bell-count" aria-hidden="true">{n > 9 ? "9+" : n}</span>}
      </button>
      {open && (
        <div class="bell-panel" role="region" aria-label={t("notice.title")} data-testid="bell-panel">
          <h2>{t("notice.title")}</h2>
          {n === 0 ? <p class="note">{t("notice.none")}</p> : (
            <ul class="notices">
              {items.map((item) => <NoticeItem key={item.key} item={item} onDone={done} onError={setError}
                onClose={() => setOpen(false)} />)}
            </ul>
          )}
          {error && <p class="error" role="alert">{error}</p>}
        </div>
      )}
    </div>
  );
}

/** The links an account's pages share: friends, clubs, online tournaments. */
export function SocialLinks() {
  useLang();
  const here = typeof location === "undefined" ? "" : location.pathname;
  return (
    <nav class="social-links" aria-label={t("social.nav")}>
      <a class="button" href="/friends" onClick={navigate} data-testid="friends-link"
        aria-current={here === "/friends" ? "page" : undefined}>{t("friends.title")}</a>
      <a class="button" href="/clubs" onClick={navigate} data-testid="clubs-link"
        aria-current={here === "/clubs" ? "page" : undefined}>{t("clubs.title")}</a>
      <a class="button" href="/events" onClick={navigate} data-testid="events-link"
        aria-current={here === "/events" || here.startsWith("/events/") ? "page" : undefined}>{t("events.title")}</a>
    </nav>
  );
}
