/** A failed call in the page's language: the server's reason, or the network's. */
import { ApiError } from "./api";
import { reasonText, t } from "./i18n";

export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "network") return t("common.network");
    return reasonText(err.code, err.detail);
  }
  return String(err);
}
