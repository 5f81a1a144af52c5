/**
 * "You are offline": the browser says it lost the network (navigator.onLine and its events),
 * or the table's WebSocket is down; a banner on every page says so until it is back.
 */
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n";

export function useOnline(): boolean {
  const [online, setOnline] = useState(typeof navigator === "undefined" ? true : navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** ``socketDown``: the page's WebSocket is reconnecting (the table page passes it). */
export function OfflineBanner(props: { socketDown?: boolean }) {
  const online = useOnline();
  if (online && !props.socketDown) return null;
  return (
    <p class="banner offline" role="status" data-testid="offline">
      <strong>{online ? t("offline.socket") : t("offline.title")}</strong> {t("offline.text")}
    </p>
  );
}
