/**
 * Company at the table: quick messages from a fixed list, muting a player (remembered per
 * table in this browser), and "Play again" once the match is over (docs/protocol.md).
 */
import { useEffect, useState } from "preact/hooks";
import { errorText } from "../lobby";
import { go } from "../components";
import type { TableConnection, TableState } from "../connection";
import { capitalise, t } from "../i18n";
import { isQuickId, mutedSeats, QUICK_IDS, quickKey, setMuted, type QuickId } from "../quick";
import { askRematch, takeRematchSeat } from "./extras-api";
import { savedGuest } from "../api";
import { isAccount } from "../players";
import { FlagIcon, ReportButton, ReportDialog } from "../report";

export interface Said {
  seat: number;
  msg: QuickId;
  at: number;
  key: number;
}

export interface RematchOffer {
  table: string;
  by: string | null;
  seat?: number;
  token?: string;
}

export interface Company {
  said: Said[];
  rematch: RematchOffer | null;
  muted: Set<number>;
  toggleMute: (seat: number) => void;
}

const SHOWN_MS = 9000;
let said = 0;

/** What the table's frames say about company: the recent quick messages and the rematch. */
export function useCompany(conn: TableConnection): Company {
  const [messages, setMessages] = useState<Said[]>([]);
  const [rematch, setRematch] = useState<RematchOffer | null>(null);
  const [muted, setMutedState] = useState<Set<number>>(() => mutedSeats(conn.tableId));
  useEffect(() => conn.onFrame((frame) => {
    if (frame.t === "quick" && isQuickId(frame.msg) && Number.isInteger(frame.seat)) {
      const entry = { seat: frame.seat as number, msg: frame.msg, at: Date.now(), key: said++ };
      setMessages((list) => [...list.slice(-5), entry]);
    } else if (frame.t === "rematch" && typeof frame.table === "string") {
      setRematch({ table: frame.table, by: frame.by ?? null, seat: frame.seat, token: frame.token });
    }
  }), [conn]);
  useEffect(() => {
    if (!messages.length) return;
    const timer = setTimeout(() => setMessages((list) => list.filter((m) => Date.now() - m.at < SHOWN_MS)), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [messages]);
  const toggleMute = (seat: number) => setMutedState(setMuted(conn.tableId, seat, !muted.has(seat)));
  return { said: messages, rematch, muted, toggleMute };
}

/** Who may be reported at a table: another seat's holder that is an account, by an account
 * (a guest's nickname may be somebody else's username: never reported by name). */
function reportable(state: TableState, seat: number): string | null {
  if (seat === state.seat || !isAccount(savedGuest())) return null;
  const presence = state.seats[seat];
  if (!presence || presence.kind !== "human" || !presence.nickname || !presence.account) {
    return null;
  }
  return presence.nickname;
}

/** The quick-message buttons, the mute switches of the other players, and reporting them. */
export function QuickBar(props: { conn: TableConnection; state: TableState; company: Company; name: (seat: number) => string }) {
  const { state, company } = props;
  const me = state.seat;
  const others = state.seats.filter((s) => s.seat !== me && s.kind === "human").map((s) => s.seat);
  return (
    <details class="quick-bar" data-testid="quick-bar">
      <summary>{t("say.title")}</summary>
      {me !== null && (
        <div class="quick-buttons" role="group" aria-label={t("say.title")}>
          {QUICK_IDS.map((id) => (
            <button type="button" data-quick={id} onClick={() => props.conn.send({ t: "quick", msg: id })}>{t(quickKey(id))}</button>
          ))}
        </div>
      )}
      {others.length > 0 && (
        <div class="mutes">
          {others.map((seat) => {
            const off = company.muted.has(seat);
            const holder = reportable(state, seat);
            return (
              <>
                <button type="button" data-mute={seat} aria-pressed={off} class={off ? "on" : ""}
                  onClick={() => company.toggleMute(seat)}>
                  {t(off ? "say.unmute" : "say.mute", { name: props.name(seat) })}
                </button>
                {holder && <ReportButton username={holder} context="table" tableId={props.conn.tableId}
                  class="seat-report" label={t("report.button", { name: holder })} />}
              </>
            );
          })}
        </div>
      )}
    </details>
  );
}

/** The quick messages of the last seconds, the muted players' left out; another account's
 * message may be reported (the dialog stays when the message fades). */
export function QuickFeed(props: { company: Company; name: (seat: number) => string; me: number | null;
  state?: TableState; tableId?: string }) {
  const [reporting, setReporting] = useState<{ username: string; message: QuickId } | null>(null);
  const shown = props.company.said.filter((m) => !props.company.muted.has(m.seat));
  return (
    <>
      <ul class="quick-feed" aria-live="polite" data-testid="quick-feed">
        {shown.map((m) => {
          const holder = props.state ? reportable(props.state, m.seat) : null;
          return (
            <li key={m.key} data-said={m.msg} data-seat={m.seat} class={m.seat === props.me ? "mine" : ""}>
              <strong>{m.seat === props.me ? capitalise(t("table.you")) : props.name(m.seat)}</strong>: {t(quickKey(m.msg))}
              {holder && (
                <button type="button" class="said-report" data-testid="report-message" aria-haspopup="dialog"
                  aria-label={t("report.message", { name: holder })} title={t("report.message", { name: holder })}
                  onClick={() => setReporting({ username: holder, message: m.msg })}><FlagIcon /></button>
              )}
            </li>
          );
        })}
      </ul>
      {reporting && <ReportDialog username={reporting.username} context="message" message={reporting.message}
        tableId={props.tableId} onClose={() => setReporting(null)} />}
    </>
  );
}

/** "Play again" in the match-over dialog, and the offer when another player asked first. */
export function PlayAgain(props: { tableId: string; seated: boolean; offer: RematchOffer | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!props.seated) return null;
  const offer = props.offer;
  const join = () => {
    if (offer?.token !== undefined && offer.seat !== undefined) {
      takeRematchSeat(offer.table, offer.seat, offer.token);
      go(`/play/${encodeURIComponent(offer.table)}`);
      return;
    }
    setBusy(true);
    askRematch(props.tableId).then((r) => go(`/play/${encodeURIComponent(r.table_id)}`))
      .catch((err) => { setError(errorText(err)); setBusy(false); });
  };
  return (
    <div class="play-again">
      {offer?.by && offer.token && <p class="note" data-testid="rematch-offer">{t("rematch.offered", { name: offer.by })}</p>}
      <button type="button" class="primary" data-testid="play-again" disabled={busy} onClick={join}>
        {offer?.token ? t("rematch.join") : t("rematch.ask")}
      </button>
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
