/**
 * A club's room on its page (`/clubs/<id>`): the members here now (online, at a table with a
 * link to watch a public one, or looking for players), the club's online tournaments, and, for
 * its admins, the members of the club evenings held here (when the director linked them to
 * this club) with one button to invite those not in the club yet. Refreshed every 20 s while
 * the page shows.
 */
import { useEffect, useState } from "preact/hooks";
import { Avatar } from "./avatars";
import { navigate } from "./components";
import { type EventSummary } from "./eventapi";
import { Facts, Status } from "./events";
import { t, useLang, type Key } from "./i18n";
import { localPath, presenceKey, social, socialErrorText, type Role } from "./social";

const enc = encodeURIComponent;

export interface RoomMember {
  username: string; avatar?: string | null; role: Role; online: boolean;
  table: string | null; watch: string | null; pool: string | null;
}
export interface Room { members: RoomMember[]; events: EventSummary[] }
export interface EveningMember { number: string; name: string; username: string; role: Role | null }

export const getRoom = (id: string) => social<Room>("GET", `/api/clubs/${enc(id)}/room`);
export const getEveningMembers = (id: string) =>
  social<{ linked: boolean; members: EveningMember[] }>("GET", `/api/clubs/${enc(id)}/evening-members`);
export const inviteEveningMembers = (id: string) =>
  social<{ invited: string[]; skipped: { username: string; code: string }[] }>(
    "POST", `/api/clubs/${enc(id)}/evening-members/invite`);

export const ROOM_POLL_MS = 20_000;

/** The members here now: those online, at a table or in a pool. */
export function hereNow(room: Room | null): RoomMember[] {
  return (room?.members ?? []).filter((m) => m.online || m.table || m.pool);
}

export function ClubRoom(props: { id: string; admin: boolean; member: boolean }) {
  useLang();
  const [room, setRoom] = useState<Room | null>(null);
  const [evening, setEvening] = useState<{ linked: boolean; members: EveningMember[] } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now() / 1000);
  const load = () => {
    getRoom(props.id).then(setRoom).catch(() => setRoom(null));
    if (props.admin) getEveningMembers(props.id).then(setEvening).catch(() => setEvening(null));
  };
  useEffect(() => {
    load();
    const timer = setInterval(() => {
      if (document.visibilityState !== "hidden") { setNow(Date.now() / 1000); load(); }
    }, ROOM_POLL_MS);
    return () => clearInterval(timer);
  }, [props.id, props.admin]);

  const invite = async () => {
    setError(null);
    setNote(null);
    try {
      const sent = await inviteEveningMembers(props.id);
      setNote(t("clubs.eveningInvited", { n: sent.invited.length }));
      load();
    } catch (err) {
      setError(socialErrorText(err));
    }
  };
  if (room === null) return null;
  const here = hereNow(room);
  const outside = (evening?.members ?? []).filter((m) => m.role === null);
  return <>
    <section class="panel" data-testid="club-here">
      <h2>{t("clubs.here")} <small>({here.length})</small></h2>
      {here.length === 0 ? <p class="note">{t("clubs.nobodyHere")}</p> : (
        <ul class="people">
          {here.map((m) => {
            const watch = localPath(m.watch);
            return (
              <li class="person" data-person={m.username}>
                <div class="person-who">
                  <a href={`/players/${encodeURIComponent(m.username)}`} onClick={navigate} class="with-avatar">
                    <Avatar id={m.avatar ?? undefined} />{m.username}</a>
                  <span class="presence on" data-presence={presenceKey(m)}>
                    <span class="dot" aria-hidden="true" />{t(presenceKey(m))}
                    {watch && <>{" · "}<a href={watch} onClick={navigate}>{t("tables.watch")}</a></>}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
    <section class="panel" data-testid="club-events">
      <h2>{t("clubs.events")}</h2>
      {room.events.length === 0 ? <p class="note">{t("clubs.noEvents")}</p> : (
        <ul class="people">
          {room.events.map((e) => (
            <li class="person" data-event={e.id}>
              <div class="person-who">
                <a href={`/events/${encodeURIComponent(e.id)}`} onClick={navigate}><strong>{e.name}</strong></a>
                <span class="note"><Facts e={e} /></span>
                <Status e={e} now={now} chip={false} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {props.admin && <p><a class="button" href="/events" onClick={navigate} data-testid="club-schedule">
        {t("clubs.scheduleEvent")}</a></p>}
    </section>
    {props.admin && evening && (
      <section class="panel" data-testid="club-evening">
        <h2>{t("clubs.evening")}</h2>
        {!evening.linked ? <p class="note">{t("clubs.eveningNotLinked")}</p> : <>
          <p class="note">{t("clubs.eveningLinked", { n: evening.members.length })}{" "}
            {outside.length > 0 ? t("clubs.eveningOutside", { n: outside.length }) : t("clubs.eveningAllIn")}</p>
          {outside.length > 0 && <p><button type="button" class="primary" data-testid="evening-invite"
            onClick={() => void invite()}>{t("clubs.eveningInvite", { n: outside.length })}</button></p>}
          <ul class="people">
            {evening.members.map((m) => (
              <li class="person" data-person={m.username}>
                <div class="person-who">
                  <span>{m.name} <span class="note">#{m.number} · {m.username}</span></span>
                  <span class="role-chip">{m.role ? t(`clubs.role.${m.role}` as Key) : t("clubs.notInClub")}</span>
                </div>
              </li>
            ))}
          </ul>
        </>}
        {note && <p class="note" role="status">{note}</p>}
        {error && <p class="error" role="alert">{error}</p>}
      </section>
    )}
  </>;
}
