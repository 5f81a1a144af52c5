/**
 * Reporting a player to the moderators: from their profile, from their seat at a table, or
 * from a quick message they sent. A small dialog: the reason, an optional text, Send; then
 * a confirmation, or the refusal in words (a guest, oneself, ten reports a day).
 */
import { useState } from "preact/hooks";
import { ApiError } from "./api";
import { Dialog } from "./components";
import { t, useLang } from "./i18n";
import { quickKey, isQuickId } from "./quick";
import { REPORT_REASONS, reasonName, sendReport, trustErrorText, type ReportBody, type ReportReason } from "./trust";
import "./trust.css";

export interface ReportTarget {
  username: string;
  context: ReportBody["context"];
  tableId?: string;
  /** the quick message's id (context "message") */
  message?: string;
}

/** The refusal of a report in words. */
export function reportErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status === 422 && (err as ApiError & { field?: string | null }).field === "username") {
    return t("report.self");
  }
  if (err instanceof ApiError && err.code === "player_not_found") return t("report.notFound");
  return trustErrorText(err);
}

export function ReportDialog(props: ReportTarget & { onClose: () => void }) {
  useLang();
  const [reason, setReason] = useState<ReportReason | "">("");
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const send = async (ev: Event) => {
    ev.preventDefault();
    if (!reason) return setError(t("report.pickReason"));
    setBusy(true);
    setError(null);
    const body: ReportBody = { username: props.username, reason, context: props.context };
    if (text.trim()) body.text = text.trim();
    if (props.tableId) body.table_id = props.tableId;
    if (props.message) body.message = props.message;
    try {
      await sendReport(body);
      setSent(true);
    } catch (err) {
      setError(reportErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  const quoted = props.message && isQuickId(props.message) ? t(quickKey(props.message)) : null;
  return (
    <Dialog title={t("report.title", { name: props.username })} onClose={props.onClose} class="report-dialog">
      {sent ? (
        <div data-testid="report-sent">
          <p role="status"><strong>{t("report.thanks")}</strong></p>
          <p class="note">{t("report.next")}</p>
          <div class="buttons">
            <button type="button" class="primary" data-testid="report-done" onClick={props.onClose}>{t("dialog.close")}</button>
          </div>
        </div>
      ) : (
        <form class="trust-form" onSubmit={send} data-testid="report-form">
          {quoted && <p class="note" data-testid="report-quote">{t("report.aboutMessage", { text: quoted })}</p>}
          {props.context === "table" && <p class="note">{t("report.aboutTable")}</p>}
          <fieldset class="choices">
            <legend>{t("report.reason")}</legend>
            {REPORT_REASONS.map((r) => (
              <label class="choice">
                <input type="radio" name="report-reason" value={r} checked={reason === r}
                  onChange={() => setReason(r)} />
                {reasonName(r)}
              </label>
            ))}
          </fieldset>
          <label>{t("report.text")}
            <textarea name="report-text" rows={3} maxLength={1000} value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          </label>
          <p class="note">{t("report.private")}</p>
          <div class="buttons">
            <button type="submit" class="primary" data-testid="report-send" disabled={busy}>{t("report.send")}</button>
            <button type="button" onClick={props.onClose}>{t("common.cancel")}</button>
          </div>
          {error && <p class="error" role="alert" data-testid="report-error">{error}</p>}
        </form>
      )}
    </Dialog>
  );
}

/** A small flag (no text: the button's label says what it does). */
export function FlagIcon() {
  return (
    <svg class="flag-icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" fill="currentColor">
      <path d="M5 2h2v20H5zM8 3h10l-2.5 4.5L18 12H8z" />
    </svg>
  );
}

/** "Report": opens the dialog. */
export function ReportButton(props: ReportTarget & { class?: string; label?: string; small?: boolean }) {
  useLang();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class={`report-button ${props.class ?? ""}`} data-testid="report"
        data-report={props.username} aria-haspopup="dialog"
        aria-label={props.label ?? t("report.button", { name: props.username })}
        title={props.label ?? t("report.button", { name: props.username })} onClick={() => setOpen(true)}>
        {props.small ? <FlagIcon /> : t("report.short")}
      </button>
      {open && <ReportDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
