/**
 * What an invite link offers, said in words before anything else: who invites, to which table,
 * which seat, with which partner and against whom. The server reads it from the seat token
 * (GET /api/tables/{id}/invite); a bad or stale link simply shows nothing here.
 */
import { useEffect, useState } from "preact/hooks";
import { levelName } from "../lobby";
import { t } from "../i18n";
import { invitation, type Invitation, type SeatLabel } from "./extras-api";

/** The seat and token an invite address carries, read before the page forgets the address. */
export function inviteOf(search: string): { seat: number; token: string } | null {
  const query = new URLSearchParams(search);
  const seat = query.get("seat");
  const token = query.get("token");
  if (seat === null || !token || !/^\d+$/.test(seat)) return null;
  return { seat: Number(seat), token };
}

function who(label: SeatLabel): string {
  if (label.kind === "bot") return t("seat.bot", { n: label.seat + 1, level: levelName(label.level) });
  return label.nickname ?? t("invite.free", { n: label.seat + 1 });
}

/** The sentence, for tests and for the page: "Marco invites you to table X, seat 2, partner Bot". */
export function invitationText(inv: Invitation): string {
  const table = inv.table_id.slice(0, 8);
  const base = inv.by ? t("invite.by", { name: inv.by, table, n: inv.seat + 1 })
    : t("invite.anon", { table, n: inv.seat + 1 });
  const parts = [base];
  if (inv.partners.length) parts.push(t("invite.partner", { names: inv.partners.map(who).join(", ") }));
  if (inv.opponents.length) parts.push(t("invite.against", { names: inv.opponents.map(who).join(", ") }));
  return parts.join(" · ");
}

export function InviteNote({ tableId, invite }: { tableId: string; invite: { seat: number; token: string } | null }) {
  const [info, setInfo] = useState<Invitation | null>(null);
  useEffect(() => {
    if (!invite) return;
    invitation(tableId, invite.token).then(setInfo).catch(() => setInfo(null));
  }, [tableId, invite?.token]);
  if (!info || info.status === "finished") return null;
  return <p class="banner invite-note" data-testid="invite-note">{invitationText(info)}</p>;
}
