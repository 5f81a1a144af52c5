/** The client's pages: the lobby, a table (invite links point here), a table's replays, the score pad, players. */
export type Route = { page: "lobby" } | { page: "table"; id: string } | { page: "replay"; id: string } | { page: "pad" }
  | { page: "profile"; name: string } | { page: "leaderboard" };

export function route(path: string): Route {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "play" && parts[1]) return { page: "table", id: parts[1] };
  if (parts[0] === "replay" && parts[1]) return { page: "replay", id: parts[1] };
  if (parts[0] === "pad") return { page: "pad" };
  if (parts[0] === "players" && parts[1]) return { page: "profile", name: parts[1] };
  if (parts[0] === "leaderboard") return { page: "leaderboard" };
  return { page: "lobby" };
}
