/** The client's pages: the lobby, a table (invite links point here), a table's replays, the score pad. */
export type Route = { page: "lobby" } | { page: "table"; id: string } | { page: "replay"; id: string } | { page: "pad" };

export function route(path: string): Route {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "play" && parts[1]) return { page: "table", id: parts[1] };
  if (parts[0] === "replay" && parts[1]) return { page: "replay", id: parts[1] };
  if (parts[0] === "pad") return { page: "pad" };
  return { page: "lobby" };
}
