/**
 * The waiting room: who the match still waits for, the invite links of the open seats, and
 * (for the table's creator, while nobody else has sat down) cancelling the table.
 */
import { useState } from "preact/hooks";
import { cancelTable, type KeptTable, type Presence } from "../api";
import { go } from "../components";
import { t } from "../i18n";
import { CopyLink, errorText } from "../lobby";

/** The held seats whose holder has not come to the table yet (the match waits for them). */
export function awaitedNames(seats: Presence[]): string[] {
  return seats.filter((p) => p.kind === "human" && p.nickname && p.arrived === false).map((p) => p.nickname!);
}

/** Whether the creator may still cancel: no human seat held by someone else. */
export function cancellable(seats: Presence[], mySeat: number | null): boolean {
  return !seats.some((p) => p.kind === "human" && p.nickname && p.seat !== mySeat);
}

export function WaitingPanel(props: { tableId: string; seats: Presence[]; kept: KeptTable | null; mySeat: number | null }) {
  const { kept, seats } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const awaited = awaitedNames(seats);
  const creator = kept !== null && Object.keys(kept.invites).length > 0;
  // the open seats' links only: a seat somebody holds needs none, and no link, no promise of one
  const links = kept ? Object.entries(kept.invites).filter(([s]) => !kept.seats[Number(s)]
    && !seats.some((p) => p.seat === Number(s) && p.nickname)) : [];
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelTable(props.tableId);
      go("/");
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <section class="panel waiting">
      {awaited.length > 0 && <p data-awaited>{t("table.awaiting", { names: awaited.join(", ") })}</p>}
      <p>{t(links.length > 0 ? "table.waiting" : "table.waitingPlain")}</p>
      {links.map(([s, url]) => <CopyLink label={t("invite.seat", { n: Number(s) + 1 })} url={url} />)}
      {creator && cancellable(seats, props.mySeat) && (
        <p>
          <button type="button" class="secondary" data-cancel-table disabled={busy} onClick={cancel}>
            {busy ? t("table.cancelling") : t("table.cancel")}
          </button>
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
