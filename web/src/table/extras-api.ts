/** The server's calls around a table that are not play: tutorial, rematch, invitation. */
import { call, keepTable, newGuest, savedGuest, updateKept, type CreatedTable, type GuestInfo } from "../api";

export interface Rematch {
  table_id: string;
  seat: number;
  token: string;
  by: string;
}

export interface SeatLabel {
  seat: number;
  kind: "human" | "bot";
  level: string | null;
  nickname: string | null;
}

export interface Invitation {
  table_id: string;
  seat: number;
  by: string | null;
  status: string;
  players: number;
  holder: string | null;
  partners: SeatLabel[];
  opponents: SeatLabel[];
}

/** A guest to act as: the saved one, or a new one named ``fallback`` (the tutorial's newcomer). */
async function someGuest(fallback: string): Promise<GuestInfo> {
  return savedGuest() ?? newGuest(fallback);
}

export async function createTutorial(fallbackName: string): Promise<CreatedTable> {
  await someGuest(fallbackName);
  const created = await call<CreatedTable>("POST", "/api/tutorial");
  const mine = created.seats.find((s) => s.token);
  keepTable(created.table_id, { seats: mine ? { [mine.seat]: mine.token! } : {}, watch: created.watch_token,
    created: Date.now(), invites: {} });
  return created;
}

/** Ask for the rematch of a finished table; remembers the new seat's token. */
export async function askRematch(tableId: string): Promise<Rematch> {
  const offer = await call<Rematch>("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`);
  takeRematchSeat(offer.table_id, offer.seat, offer.token);
  return offer;
}

export function takeRematchSeat(tableId: string, seat: number, token: string): void {
  updateKept(tableId, (k) => { k.seats = { [seat]: token }; });
}

export function invitation(tableId: string, token: string): Promise<Invitation> {
  return call("GET", `/api/tables/${encodeURIComponent(tableId)}/invite?token=${encodeURIComponent(token)}`);
}
