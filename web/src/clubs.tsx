/**
 * Online clubs (docs/protocol.md §14.4): `/clubs`, the public clubs and one's own, and the form
 * to found one; `/clubs/<id>`, a club: its members with their roles, its leaderboards for 2 and
 * 4 players, Join / Ask to join / Leave; an admin invites by username, accepts or removes
 * requests and removes members; the founder makes and unmakes admins.
 */
import { useEffect, useState } from "preact/hooks";
import { savedGuest } from "./api";
import { Avatar } from "./avatars";
import { ClubRoom } from "./clubroom";
import { go, navigate } from "./components";
import { t, useLang, type Key } from "./i18n";
import { SocialFrame } from "./friends";
import { isAccount } from "./players";
import {
  acceptRequest, foundClub, getClub, inviteToClub, joinClub, leaveClub, listClubs, removeMember,
  noticesChanged, setAdmin, socialErrorText, type Club, type ClubView, type Role,
} from "./social";
import "./social.css";

const ROLE_KEYS: Record<Role, Key> = {
  founder: "clubs.role.founder", admin: "clubs.role.admin", member: "clubs.role.member",
  invited: "clubs.role.invited", asked: "clubs.role.asked",
};

export function roleText(role: Role | null | undefined): string {
  return role && ROLE_KEYS[role] ? t(ROLE_KEYS[role]) : "";
}

function FoundForm(props: { onFounded: (c: Club) => void }) {
  useLang();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onFounded(await foundClub(name.trim(), description.trim(), open));
    } catch (err) {
      setError(socialErrorText(err));
      setBusy(false);
    }
  };
  return (
    <section class="panel">
      <details>
        <summary><h2>{t("clubs.found")}</h2></summary>
        <form class="club-form" onSubmit={submit} data-testid="found-form">
          <label>{t("clubs.name")}
            <input name="club-name" value={name} required minLength={3} maxLength={40}
              onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <label>{t("clubs.description")}
            <textarea name="club-description" value={description} maxLength={500} rows={3}
              onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)} />
          </label>
          <fieldset>
            <legend>{t("clubs.who")}</legend>
            <label class="inline"><input type="radio" name="club-public" value="public" checked={open}
              onChange={() => setOpen(true)} />{t("clubs.public")}</label>
            <label class="inline"><input type="radio" name="club-public" value="invitation" checked={!open}
              onChange={() => setOpen(false)} />{t("clubs.byInvitation")}</label>
          </fieldset>
          <button type="submit" class="primary" data-testid="found-submit" disabled={busy || name.trim().length < 3}>
            {t("clubs.foundSubmit")}</button>
          {error && <p class="error" role="alert">{error}</p>}
        </form>
      </details>
    </section>
  );
}

export function ClubsPage() {
  useLang();
  const [clubs, setClubs] = useState<Club[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    listClubs().then((r) => setClubs(r.clubs)).catch((err) => setError(socialErrorText(err)));
  }, []);
  const mine = (clubs ?? []).filter((c) => c.role);
  const others = (clubs ?? []).filter((c) => !c.role);
  const list = (items: Club[], id: string) => (
    <ul class="clubs" data-testid={id}>
      {items.map((c) => (
        <li class="club-row" data-club={c.id}>
          <a href={`/clubs/${encodeURIComponent(c.id)}`} onClick={navigate}><strong>{c.name}</strong></a>
          <span class="note">
            {" "}{t("clubs.members", { n: c.members })} · {t(c.public ? "clubs.public" : "clubs.byInvitation")}
            {c.role && <> · {roleText(c.role)}</>}
          </span>
          {c.description && <p class="club-desc">{c.description}</p>}
        </li>
      ))}
    </ul>
  );
  return (
    <SocialFrame title={t("clubs.title")}>
      {error && <p class="error" role="alert">{error}</p>}
      <FoundForm onFounded={(c) => go(`/clubs/${encodeURIComponent(c.id)}`)} />
      {clubs === null ? <p>{t("common.loading")}</p> : <>
        <section class="panel">
          <h2>{t("clubs.mine")}</h2>
          {mine.length ? list(mine, "my-clubs") : <p class="note">{t("clubs.noneMine")}</p>}
        </section>
        <section class="panel">
          <h2>{t("clubs.others")}</h2>
          {others.length ? list(others, "other-clubs") : <p class="note">{t("clubs.noneOthers")}</p>}
        </section>
      </>}
    </SocialFrame>
  );
}

export function ClubPage(props: { id: string }) {
  useLang();
  const me = savedGuest()?.nickname.toLowerCase() ?? "";
  const account = isAccount(savedGuest());
  const [club, setClub] = useState<ClubView | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [invite, setInvite] = useState("");
  const load = () => getClub(props.id).then(setClub).catch((err) => setMissing(socialErrorText(err)));
  useEffect(() => { if (account) void load(); }, [props.id]);

  const run = async (work: () => Promise<unknown>, done?: string) => {
    setError(null);
    setNote(null);
    try {
      await work();
      if (done) setNote(done);
      noticesChanged();
      await load();
    } catch (err) {
      setError(socialErrorText(err));
    }
  };
  const role = club?.role ?? null;
  const admin = role === "founder" || role === "admin";
  const founder = role === "founder";
  const sendInvite = (ev: Event) => {
    ev.preventDefault();
    const who = invite.trim();
    if (!who) return;
    void run(async () => { await inviteToClub(props.id, who); setInvite(""); }, t("clubs.invited", { name: who }));
  };

  return (
    <SocialFrame title={club?.name ?? t("clubs.title")}>
      {missing && <p class="error" role="alert">{missing}</p>}
      {club && <>
        <section class="panel club-head" data-testid="club">
          {club.description && <p class="club-desc">{club.description}</p>}
          <p class="note">
            {t("clubs.members", { n: club.members })} · {t(club.public ? "clubs.public" : "clubs.byInvitation")}
            {role && <> · <span data-testid="my-role">{t("clubs.yourRole", { role: roleText(role) })}</span></>}
          </p>
          <div class="buttons">
            {(role === null || role === "invited") && (
              <button type="button" class="primary" data-testid="club-join"
                onClick={() => run(() => joinClub(props.id))}>
                {club.public || role === "invited" ? t("clubs.join") : t("clubs.ask")}</button>
            )}
            {role === "asked" && <span class="note">{t("clubs.asked")}</span>}
            {(role === "admin" || role === "member" || role === "asked" || role === "invited") && (
              <button type="button" data-testid="club-leave" onClick={() => run(() => leaveClub(props.id))}>
                {role === "asked" || role === "invited" ? t("clubs.withdraw") : t("clubs.leave")}</button>
            )}
          </div>
        </section>
        {note && <p class="note" role="status">{note}</p>}
        {error && <p class="error" role="alert" data-testid="club-error">{error}</p>}
        {(club.public || (role !== null && role !== "invited" && role !== "asked")) && (
          <ClubRoom id={props.id} admin={admin} member={role !== null && role !== "invited" && role !== "asked"} />)}
        {admin && (
          <section class="panel">
            <h2>{t("clubs.invite")}</h2>
            <form class="field-row" onSubmit={sendInvite}>
              <input name="invite" aria-label={t("acc.username")} value={invite} maxLength={20} required autoComplete="off"
                onInput={(e) => setInvite((e.target as HTMLInputElement).value)} />
              <button type="submit" class="primary" data-testid="invite-submit">{t("clubs.inviteSubmit")}</button>
            </form>
            {(club.pending ?? []).length > 0 && <>
              <h3>{t("clubs.pending")}</h3>
              <ul class="people" data-testid="pending">
                {(club.pending ?? []).map((p) => (
                  <li class="person" data-person={p.username}>
                    <div class="person-who">
                      <a href={`/players/${encodeURIComponent(p.username)}`} onClick={navigate} class="with-avatar">
                        <Avatar id={p.avatar ?? undefined} />{p.username}</a>
                      <span class="note">{roleText(p.role)}</span>
                    </div>
                    <div class="person-actions">
                      {p.role === "asked" && <button type="button" class="primary" data-action="accept"
                        onClick={() => run(() => acceptRequest(props.id, p.username))}>{t("notice.accept")}</button>}
                      <button type="button" data-action="remove"
                        onClick={() => run(() => removeMember(props.id, p.username))}>{t("clubs.remove")}</button>
                    </div>
                  </li>
                ))}
              </ul>
            </>}
          </section>
        )}
        {club.members_list ? <>
          <section class="panel">
            <h2>{t("clubs.memberList")}</h2>
            <ul class="people" data-testid="members">
              {club.members_list.map((m) => {
                const self = m.username.toLowerCase() === me;
                const canRemove = !self && m.role !== "founder" && (founder || (admin && m.role === "member"));
                return (
                  <li class="person" data-person={m.username} data-role={m.role}>
                    <div class="person-who">
                      <a href={`/players/${encodeURIComponent(m.username)}`} onClick={navigate} class="with-avatar">
                        <Avatar id={m.avatar ?? undefined} />{m.username}</a>
                      <span class={`role-chip ${m.role}`}>{roleText(m.role)}</span>
                    </div>
                    <div class="person-actions">
                      {founder && !self && m.role === "member" && <button type="button" data-action="make-admin"
                        onClick={() => run(() => setAdmin(props.id, m.username, true))}>{t("clubs.makeAdmin")}</button>}
                      {founder && !self && m.role === "admin" && <button type="button" data-action="unmake-admin"
                        onClick={() => run(() => setAdmin(props.id, m.username, false))}>{t("clubs.unmakeAdmin")}</button>}
                      {canRemove && <button type="button" data-action="remove"
                        onClick={() => run(() => removeMember(props.id, m.username))}>{t("clubs.remove")}</button>}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
          <section class="panel" data-testid="club-leaderboard">
            <h2>{t("clubs.leaderboard")}</h2>
            <div class="club-boards">
              {(["2", "4"] as const).map((form) => {
                const rows = club.leaderboard?.[form] ?? [];
                return (
                  <div class="club-board" data-form={form}>
                    <h3>{t(`form.${form}` as Key)}</h3>
                    {rows.length === 0 ? <p class="note">{t("clubs.noRated")}</p> : (
                      <table class="lb-table">
                        <thead><tr><th>{t("lb.rank")}</th><th>{t("lb.player")}</th><th>{t("lb.rating")}</th><th>{t("lb.matches")}</th></tr></thead>
                        <tbody>{rows.map((r) => (
                          <tr class={r.username.toLowerCase() === me ? "me" : ""}><td>{r.rank}</td>
                            <td><a href={`/players/${encodeURIComponent(r.username)}`} onClick={navigate}>{r.username}</a></td>
                            <td>{Math.round(r.rating)}</td><td>{r.matches}</td></tr>))}</tbody>
                      </table>
                    )}
                  </div>
                );
              })}
            </div>
          </section>
        </> : <p class="note">{t("clubs.membersOnly")}</p>}
      </>}
      <p><a href="/clubs" onClick={navigate}>{t("clubs.all")}</a></p>
    </SocialFrame>
  );
}
