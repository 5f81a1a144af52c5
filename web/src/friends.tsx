/**
 * The friends page (`/friends`, accounts only): friends with their presence (refreshed every
 * 20 s while the page shows), the players one follows, one's followers (Follow back), the
 * blocked (Unblock); a field to follow a player by username; on each person Challenge (a small
 * form: the pool's formats, casual or rated), Unfollow, Block (confirmed first); the challenges
 * sent, each open one with its time left and Withdraw, an accepted one with its seat.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { savedGuest } from "./api";
import { Avatar } from "./avatars";
import { Dialog, Header, navigate } from "./components";
import { t, useLang, type Key } from "./i18n";
import { NoticeBell, SocialLinks } from "./notices";
import { isAccount } from "./players";
import { formatLabel, POOL_FORMATS } from "./pool";
import {
  block, challenge, expectAnswer, noticesChanged, follow, getChallenges, getFriends, getPresence, localPath, presenceKey,
  seatPath, socialErrorText, unblock, unfollow, withdrawChallenge, type ChallengeItem, type FriendPresence, type Friends,
  type Person,
} from "./social";
import "./social.css";

export const PRESENCE_POLL_MS = 20_000;

/** The note a guest sees on an account's page: log in first. */
export function AccountsOnly() {
  useLang();
  return (
    <section class="panel" data-testid="accounts-only">
      <p>{t("social.accountsOnly")}</p>
      <p><a class="button primary" href="/" onClick={navigate}>{t("pool.login")}</a></p>
    </section>
  );
}

/** The frame of the social pages: the top bar with the bell, the links, the page. */
export function SocialFrame(props: { title: string; children: ComponentChildren }) {
  useLang();
  const account = isAccount(savedGuest());
  useEffect(() => { document.title = `${props.title} · ${t("app.title")}`; });
  return (
    <div class="page social">
      <Header>{account && <NoticeBell />}</Header>
      <main>
        <h1>{props.title}</h1>
        {account ? <><SocialLinks />{props.children}</> : <AccountsOnly />}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a></p>
      </main>
    </div>
  );
}

function ChallengeForm(props: { to: string; onClose: () => void; onSent: (text: string) => void }) {
  useLang();
  const [format, setFormat] = useState<string>("1005");
  const [rated, setRated] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await challenge(props.to, format, rated);
      expectAnswer();
      props.onSent(t("friends.challengeSent", { name: props.to }));
    } catch (err) {
      setError(socialErrorText(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title={t("friends.challengeTitle", { name: props.to })} onClose={props.onClose}>
      <form class="challenge-form" onSubmit={send} data-testid="challenge-form">
        <label>{t("quick.format")}
          <select name="challenge-format" value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value)}>
            {POOL_FORMATS.map((f) => <option value={f}>{formatLabel(f)}</option>)}
          </select>
        </label>
        <label>{t("pool.kind")}
          <select name="challenge-rated" value={rated ? "rated" : "casual"}
            onChange={(e) => setRated((e.target as HTMLSelectElement).value === "rated")}>
            <option value="casual">{t("pool.casual")}</option>
            <option value="rated">{t("pool.rated")}</option>
          </select>
        </label>
        <p class="note">{t("friends.challengeNote")}</p>
        <div class="buttons">
          <button type="submit" class="primary" data-testid="challenge-send" disabled={busy}>{t("friends.challengeSend")}</button>
          <button type="button" onClick={props.onClose}>{t("pool.cancel")}</button>
        </div>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </Dialog>
  );
}

function ConfirmBlock(props: { name: string; onClose: () => void; onYes: () => void }) {
  useLang();
  return (
    <Dialog title={t("friends.blockTitle", { name: props.name })} onClose={props.onClose}>
      <p>{t("friends.blockText")}</p>
      <div class="buttons">
        <button type="button" class="primary" data-testid="block-yes" onClick={props.onYes}>{t("friends.block")}</button>
        <button type="button" onClick={props.onClose}>{t("pool.cancel")}</button>
      </div>
    </Dialog>
  );
}

/** The challenges the player sent: open ones may be withdrawn, an accepted one seats them. */
function SentChallenges(props: { items: ChallengeItem[]; onWithdraw: (id: string) => void }) {
  useLang();
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section class="panel" data-testid="sent-challenges">
      <h2>{t("friends.sent")} <small>({props.items.length})</small></h2>
      {props.items.length === 0 ? <p class="note">{t("friends.noSent")}</p> : (
        <ul class="people sent">
          {props.items.map((c) => {
            const left = Math.max(0, Math.round(c.expires - now));
            const open = c.state === "open" && left > 0;
            const seat = c.state === "accepted" ? seatPath(c) : null;
            return (
              <li data-challenge={c.id} data-state={open ? "open" : c.state}>
                <span class="who">{c.to}</span>
                <span class="what">{formatLabel(c.format)} · {c.rated ? t("pool.rated") : t("pool.casual")}</span>
                <span class="state">{open
                  ? t("friends.sentOpen", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` })
                  : t(`friends.sentState.${c.state === "open" ? "expired" : c.state}` as Key)}</span>
                {open && <button type="button" data-action="withdraw" onClick={() => props.onWithdraw(c.id)}>{t("friends.withdraw")}</button>}
                {seat && <a class="button primary" href={seat} onClick={navigate}>{t("friends.sitDown")}</a>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

type Action = "challenge" | "unfollow" | "follow" | "block" | "unblock";

function PersonRow(props: { person: Person; presence?: FriendPresence; actions: Action[];
  onAction: (a: Action, name: string) => void }) {
  const { person, presence } = props;
  const watch = localPath(presence?.watch);
  const labels: Record<Action, string> = {
    challenge: t("friends.challenge"), unfollow: t("friends.unfollow"), follow: t("friends.followBack"),
    block: t("friends.block"), unblock: t("friends.unblock"),
  };
  return (
    <li class="person" data-person={person.username}>
      <div class="person-who">
        <a href={`/players/${encodeURIComponent(person.username)}`} onClick={navigate} class="with-avatar">
          <Avatar id={person.avatar ?? undefined} />{person.username}</a>
        {presence && (
          <span class={`presence ${presence.online || presence.table || presence.pool ? "on" : ""}`} data-presence={presenceKey(presence)}>
            <span class="dot" aria-hidden="true" />{t(presenceKey(presence))}
            {watch && <>{" · "}<a href={watch} onClick={navigate} data-testid="watch">{t("tables.watch")}</a></>}
          </span>
        )}
      </div>
      <div class="person-actions">
        {props.actions.map((a) => (
          <button type="button" class={a === "challenge" || a === "follow" ? "primary" : ""} data-action={a}
            onClick={() => props.onAction(a, person.username)}>{labels[a]}</button>
        ))}
      </div>
    </li>
  );
}

export function FriendsPage() {
  useLang();
  const account = isAccount(savedGuest());
  const [friends, setFriends] = useState<Friends | null>(null);
  const [presence, setPresence] = useState<Record<string, FriendPresence>>({});
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [challenging, setChallenging] = useState<string | null>(null);
  const [blocking, setBlocking] = useState<string | null>(null);

  const [sent, setSent] = useState<ChallengeItem[]>([]);
  const loadSent = () => getChallenges().then((r) => setSent(r.outgoing)).catch(() => undefined);
  const load = () => {
    void loadSent();
    return getFriends().then(setFriends).catch((err) => setError(socialErrorText(err)));
  };
  const lookAround = () => getPresence()
    .then((r) => setPresence(Object.fromEntries(r.friends.map((f) => [f.username, f])))).catch(() => undefined);
  useEffect(() => {
    if (!account) return;
    void load();
    void lookAround();
    const timer = setInterval(() => {
      if (document.visibilityState !== "hidden") { void lookAround(); void loadSent(); }
    }, PRESENCE_POLL_MS);
    const visible = () => { if (document.visibilityState !== "hidden") void lookAround(); };
    document.addEventListener("visibilitychange", visible);
    return () => { clearInterval(timer); document.removeEventListener("visibilitychange", visible); };
  }, []);

  const run = async (work: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNote(null);
    try {
      await work();
      if (done) setNote(done);
      noticesChanged();
      await load();
      void lookAround();
    } catch (err) {
      setError(socialErrorText(err));
    }
  };
  const onAction = (a: Action, who: string) => {
    if (a === "challenge") setChallenging(who);
    else if (a === "block") setBlocking(who);
    else if (a === "unfollow") void run(() => unfollow(who));
    else if (a === "follow") void run(() => follow(who));
    else void run(() => unblock(who));
  };
  const submit = (ev: Event) => {
    ev.preventDefault();
    const who = name.trim();
    if (!who) return;
    void run(async () => { await follow(who); setName(""); }, t("friends.nowFollowing", { name: who }));
  };

  const section = (title: string, id: string, people: Person[], actions: Action[], empty: string, live = false) => (
    <section class="panel" data-testid={id}>
      <h2>{title} <small>({people.length})</small></h2>
      {people.length === 0 ? <p class="note">{empty}</p> : (
        <ul class="people">
          {people.map((p) => <PersonRow person={p} presence={live ? presence[p.username] ?? { ...p, online: false } : undefined}
            actions={actions} onAction={onAction} />)}
        </ul>
      )}
    </section>
  );

  return (
    <SocialFrame title={t("friends.title")}>
      <form class="panel follow-form" onSubmit={submit}>
        <label>{t("friends.followLabel")}
          <span class="field-row">
            <input name="follow" value={name} maxLength={20} autoComplete="off" required
              onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <button type="submit" class="primary" data-testid="follow-submit">{t("friends.follow")}</button>
          </span>
        </label>
        <p class="note">{t("friends.explain")}</p>
      </form>
      {note && <p class="note" role="status" data-testid="friends-note">{note}</p>}
      {error && <p class="error" role="alert" data-testid="friends-error">{error}</p>}
      {friends === null ? <p>{t("common.loading")}</p> : <>
        {section(t("friends.friends"), "friends", friends.friends, ["challenge", "unfollow", "block"], t("friends.noFriends"), true)}
        <SentChallenges items={sent} onWithdraw={(id) => void run(() => withdrawChallenge(id), t("friends.withdrawn"))} />
        {section(t("friends.followers"), "followers", friends.followers, ["follow", "challenge", "block"], t("friends.noFollowers"))}
        {section(t("friends.following"), "following", friends.following, ["challenge", "unfollow", "block"], t("friends.noFollowing"))}
        {section(t("friends.blocked"), "blocked", friends.blocked, ["unblock"], t("friends.noBlocked"))}
      </>}
      {challenging && <ChallengeForm to={challenging} onClose={() => setChallenging(null)}
        onSent={(text) => { setChallenging(null); setNote(text); void loadSent(); }} />}
      {blocking && <ConfirmBlock name={blocking} onClose={() => setBlocking(null)}
        onYes={() => { const who = blocking; setBlocking(null); void run(() => block(who)); }} />}
    </SocialFrame>
  );
}
