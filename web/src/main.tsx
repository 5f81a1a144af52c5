/** The client's entry: a tiny path router over the lobby, a table, the replays and the score pad. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { lang, loadLang, t, useLang } from "./i18n";
import { levelName, Lobby } from "./lobby";
import { LeaderboardPage, ProfilePage } from "./players";
import { ReplayPage } from "./replay";
import { route } from "./route";
import { PadLoader } from "./padloader";
import { HelpLoader } from "./help/loader";
import { TablePage } from "./table";
import { applyDeckClass } from "./feedback/prefs";
import { registerServiceWorker } from "./pwa/register";
import { NotFoundPage } from "./notfound";
import { FriendsPage } from "./friends";
import { ClubPage, ClubsPage } from "./clubs";
import { EventPage, EventsPage } from "./events";
import { RecoverPage } from "./recovery";
import { AccountPage } from "./account";
import { PrivacyPage } from "./privacy";
import { ModPage } from "./mod";
import "./style.css";


function App() {
  useLang();
  const [path, setPath] = useState(location.pathname + location.search);
  useEffect(() => {
    const update = () => setPath(location.pathname + location.search);
    window.addEventListener("popstate", update);
    window.addEventListener("burraco:navigate", update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener("burraco:navigate", update);
    };
  }, []);
  const current = route(location.pathname);
  useEffect(() => {
    // they set their own (a table says in the title when it is the player's turn)
    if (current.page === "profile" || current.page === "leaderboard" || current.page === "table"
        || current.page === "help" || current.page === "friends" || current.page === "clubs"
        || current.page === "club" || current.page === "events" || current.page === "event"
        || current.page === "recover" || current.page === "privacy" || current.page === "account"
        || current.page === "mod") return;
    document.title = current.page === "replay" ? `${t("replay.title")} · ${t("app.title")}`
      : current.page === "pad" ? `${t("pad.link")} · ${t("app.title")}`
      : current.page === "notfound" ? `${t("notFound.title")} · ${t("app.title")}` : t("app.title");
  });
  if (current.page === "table") return <TablePage key={path} id={current.id} />;
  if (current.page === "replay") return <ReplayPage key={path} id={current.id} />;
  if (current.page === "pad") return <PadLoader key={path} path={path} />;
  if (current.page === "profile") return <ProfilePage key={path} name={current.name} levelName={levelName} />;
  if (current.page === "leaderboard") return <LeaderboardPage key={path} />;
  if (current.page === "help") return <HelpLoader />;
  if (current.page === "friends") return <FriendsPage key={path} />;
  if (current.page === "clubs") return <ClubsPage key={path} />;
  if (current.page === "club") return <ClubPage key={path} id={current.id} />;
  if (current.page === "events") return <EventsPage key={path} />;
  if (current.page === "event") return <EventPage key={path} id={current.id} />;
  if (current.page === "recover") return <RecoverPage key={path} />;
  if (current.page === "privacy") return <PrivacyPage key={path} />;
  if (current.page === "account") return <AccountPage key={path} />;
  if (current.page === "mod") return <ModPage key={path} />;
  if (current.page === "notfound") return <NotFoundPage />;
  return <Lobby />;
}

document.documentElement.lang = lang();
applyDeckClass();
registerServiceWorker();
// the page's language first (its catalog is a chunk of its own), English if it cannot load
void loadLang(lang()).catch(() => undefined).then(() => render(<App />, document.getElementById("app")!));
