/** The client's pages: the lobby, a table (invite links point here), a table's replays, the score pad, players,
 * friends, clubs, online tournaments; trust and safety: recovering an account, privacy, the account's
 * settings, moderation. */
export type Route = { page: "lobby" } | { page: "table"; id: string } | { page: "replay"; id: string } | { page: "pad" }
  | { page: "profile"; name: string } | { page: "leaderboard" } | { page: "help" } | { page: "notfound" }
  | { page: "friends" } | { page: "clubs" } | { page: "club"; id: string }
  | { page: "events" } | { page: "event"; id: string }
  | { page: "recover" } | { page: "privacy" } | { page: "account" } | { page: "mod" };

export function route(path: string): Route {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "play" && parts[1]) return { page: "table", id: parts[1] };
  if (parts[0] === "replay" && parts[1]) return { page: "replay", id: parts[1] };
  if (parts[0] === "pad") return { page: "pad" };
  if (parts[0] === "players" && parts[1]) return { page: "profile", name: parts[1] };
  if (parts[0] === "leaderboard") return { page: "leaderboard" };
  if (parts[0] === "friends" && parts.length === 1) return { page: "friends" };
  if (parts[0] === "clubs" && parts.length === 1) return { page: "clubs" };
  if (parts[0] === "clubs" && parts.length === 2) return { page: "club", id: parts[1] };
  if (parts[0] === "events" && parts.length === 1) return { page: "events" };
  if (parts[0] === "events" && parts.length === 2) return { page: "event", id: parts[1] };
  if (parts[0] === "help" || parts[0] === "rules") return { page: "help" };
  if (parts.length === 1 && (parts[0] === "recover" || parts[0] === "privacy" || parts[0] === "account" || parts[0] === "mod")) {
    return { page: parts[0] };
  }
  // the server answers an unknown address with this page and a 404: say so, not the lobby
  if (parts.length === 0 || parts[0] === "index.html") return { page: "lobby" };
  return { page: "notfound" };
}
