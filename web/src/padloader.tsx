/** The score pad is loaded only when opened, so the lobby's first page stays small. */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { t } from "./i18n";

type Page = FunctionComponent<{ path: string }>;
let loaded: Page | null = null;

/** Fetch the pad while the network is there, so that it opens offline later (from the lobby). */
export function prefetchPad(): void {
  const load = () => void import("./scorepad/page").then((m) => { loaded = m.PadPage; }).catch(() => undefined);
  if ("requestIdleCallback" in window) window.requestIdleCallback(load);
  else setTimeout(load, 2000);
}

export function PadLoader(props: { path: string }) {
  const [page, setPage] = useState<{ Page: Page } | null>(loaded ? { Page: loaded } : null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (page) return;
    import("./scorepad/page")
      .then((m) => { loaded = m.PadPage; setPage({ Page: m.PadPage }); })
      .catch((err) => setError(String(err)));
  }, []);
  if (error) return <p class="error" role="alert">{t("common.error", { reason: error })}</p>;
  if (!page) return <p class="note">{t("common.loading")}</p>;
  return <page.Page path={props.path} />;
}
