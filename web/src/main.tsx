/** The client's entry: a tiny path router over the lobby, a table, the replays and the score pad. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { lang, t, useLang } from "./i18n";
import { Lobby } from "./lobby";
import { ReplayPage } from "./replay";
import { route } from "./route";
import { PadLoader } from "./padloader";
import { TablePage } from "./table";
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
    document.title = current.page === "replay" ? `${t("replay.title")} · ${t("app.title")}`
      : current.page === "pad" ? `${t("pad.link")} · ${t("app.title")}` : t("app.title");
  });
  if (current.page === "table") return <TablePage key={path} id={current.id} />;
  if (current.page === "replay") return <ReplayPage key={path} id={current.id} />;
  if (current.page === "pad") return <PadLoader key={path} path={path} />;
  return <Lobby />;
}

document.documentElement.lang = lang();
render(<App />, document.getElementById("app")!);
