/** The help page is loaded only when opened, so the first page carries none of the rules. */
import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Header } from "../components";
import { t } from "../i18n";

let loaded: FunctionComponent | null = null;

export function HelpLoader() {
  const [page, setPage] = useState<{ Page: FunctionComponent } | null>(loaded ? { Page: loaded } : null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (page) return;
    import("./HelpPage")
      .then((m) => { loaded = m.HelpPage; setPage({ Page: m.HelpPage }); })
      .catch((err) => setError(String(err)));
  }, []);
  if (error) return <div class="page"><Header /><p class="error" role="alert">{t("common.error", { reason: error })}</p></div>;
  if (!page) return <div class="page"><Header /><p class="note">{t("common.loading")}</p></div>;
  return <page.Page />;
}
