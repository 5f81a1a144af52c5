/**
 * The tables this browser keeps (created, invited to, sat at) that the public list does not
 * show: each read with its watch or seat token, so the lobby names them like the others and
 * files the finished ones under the finished games.
 */
import { ApiError, keptTable, tableInfo, type TableSummary } from "./api";

const MAX_KEPT = 12;

/** The token that opens a kept table: its watch token, else a seat's. */
export function openingToken(id: string): string | null {
  const kept = keptTable(id);
  if (!kept) return null;
  return kept.watch ?? Object.values(kept.seats)[0] ?? null;
}

/** Summaries of the kept tables not in ``listed`` (unknown or gone tables are left out). */
export async function keptSummaries(ids: string[], listed: Set<string>): Promise<TableSummary[]> {
  const wanted = ids.filter((id) => !listed.has(id)).slice(0, MAX_KEPT);
  const rows = await Promise.all(wanted.map(async (id) => {
    try {
      const info = await tableInfo(id, openingToken(id));
      return { seats: null, ...info, id } as unknown as TableSummary;
    } catch (err) {
      if (err instanceof ApiError && err.status !== 0) return null;
      throw err;
    }
  }));
  return rows.filter((r): r is TableSummary => r !== null);
}

/** How often the lobby reads the tables again (a new public table shows without Refresh). */
export const LOBBY_POLL_MS = 3000;
