/**
 * Moderation (/mod, moderators and admins): the reports waiting (who reported whom and why,
 * the evidence: the table's replay, the match's summary, the quick messages; the target's
 * earlier sanctions and reports), each closed by an action (warn, mute, suspend from rated
 * play, ban, rename) or dismissed, always with a reason; the closed reports; the log of
 * every action (and a form to act on any player, lifting a sanction too); the screening's
 * flags of unusual play.
 */
import { useEffect, useState } from "preact/hooks";
import { savedGuest } from "./api";
import { Header, navigate } from "./components";
import { formatDate, t, useLang, type Key } from "./i18n";
import { levelName } from "./lobby";
import { NoticeBell } from "./notices";
import { isAccount, me } from "./players";
import { isQuickId, quickKey } from "./quick";
import { AccountsOnly } from "./account";
import {
  ACTION_DAYS, actionBody, actionProblem, closeReport, flagName, flagText, historyLine, isModerator, MOD_ACTIONS, modAction,
  modLog, modReports, modScreening, outcomeText, reasonName, sanctionName, statText, trustErrorText, untilText,
  type ActionForm, type Flag, type LoggedAction, type MatchSummary, type ModActionKind, type Report,
} from "./trust";
import "./trust.css";

type Tab = "open" | "closed" | "log" | "screening";
const TABS: Tab[] = ["open", "closed", "log", "screening"];

const when = (seconds: number) => formatDate(seconds, { dateStyle: "medium", timeStyle: "short" });

function PlayerLink(props: { name: string }) {
  return <a href={`/players/${encodeURIComponent(props.name)}`} onClick={navigate} data-player={props.name}>{props.name}</a>;
}

function ReplayLink(props: { href: string; label?: string }) {
  return <a class="button" href={props.href} onClick={navigate} data-testid="evidence-replay">{props.label ?? t("mod.replay")}</a>;
}

/** A quick message in the moderator's language (an id the client does not know as it is). */
function quickText(id: string): string {
  return isQuickId(id) ? t(quickKey(id)) : id;
}

function MatchLine(props: { match: MatchSummary }) {
  const { match } = props;
  const name = (s: MatchSummary["seats"][number]) =>
    s.bot ? t("prof.bot", { level: levelName(typeof s.bot === "string" ? s.bot : null) }) : s.name ?? "?";
  const sides = [...new Set(match.seats.map((s) => s.side))].sort((a, b) => a - b);
  return (
    <p class="note" data-testid="evidence-match">
      {sides.map((side, k) => (
        <>{k ? " – " : ""}{match.seats.filter((s) => s.side === side).map(name).join(" & ")}{" "}
          <strong>{match.scores[side] ?? ""}</strong></>
      ))}
      {" · "}{t("mod.hands", { n: match.hands })}
      {match.finished_at ? <>{" · "}{when(match.finished_at)}</> : null}
    </p>
  );
}

/** What a moderator does about a player: the action, its days or new name, and the reason. */
export function ActionPanel(props: {
  username?: string; reportId?: string; onDone: (text: string) => void;
}) {
  useLang();
  const choices: ModActionKind[] = MOD_ACTIONS.filter((a) => (props.reportId ? a !== "lift" : a !== "dismiss"));
  const [form, setForm] = useState<ActionForm>({ action: choices[0], reason: "", days: "7", forever: false, newName: "" });
  const [who, setWho] = useState(props.username ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (change: Partial<ActionForm>) => setForm({ ...form, ...change });
  const apply = async (ev: Event) => {
    ev.preventDefault();
    setError(null);
    const username = who.trim();
    if (!username) return setError(t("mod.needUser"));
    if (username.toLowerCase() === (savedGuest()?.nickname ?? "").toLowerCase()) return setError(t("mod.self"));
    const problem = actionProblem(form);
    if (problem) return setError(t(problem));
    setBusy(true);
    try {
      if (form.action === "dismiss" && props.reportId) {
        await closeReport(props.reportId, `dismiss: ${form.reason.trim()}`);
        props.onDone(t("mod.dismissed"));
      } else {
        const done = await modAction(actionBody(username, form, props.reportId));
        props.onDone(t("mod.applied", { what: sanctionName(done.sanction.kind), name: done.sanction.username ?? username }));
      }
      setForm({ ...form, reason: "", newName: "" });
    } catch (err) {
      setError(trustErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  const days = ACTION_DAYS.has(form.action);
  return (
    <form class="trust-form mod-action" onSubmit={apply} data-testid="mod-action-form" noValidate>
      {props.username === undefined && (
        <label>{t("acc.username")}
          <input name="mod-username" value={who} required autoComplete="off" spellcheck={false}
            onInput={(e) => setWho((e.target as HTMLInputElement).value)} />
        </label>
      )}
      <label>{t("mod.action")}
        <select name="mod-action" value={form.action}
          onChange={(e) => set({ action: (e.target as HTMLSelectElement).value as ModActionKind })}>
          {choices.map((a) => <option value={a}>{t(`mod.do.${a}` as Key)}</option>)}
        </select>
      </label>
      {days && !(form.action === "ban" && form.forever) && (
        <label>{t("mod.days")}
          <input name="mod-days" type="number" inputMode="numeric" min={1} max={3650} step={1} value={form.days}
            onInput={(e) => set({ days: (e.target as HTMLInputElement).value })} />
        </label>
      )}
      {form.action === "ban" && (
        <label class="choice">
          <input type="checkbox" name="mod-forever" checked={form.forever}
            onChange={(e) => set({ forever: (e.target as HTMLInputElement).checked })} />
          {t("mod.forever")}
        </label>
      )}
      {form.action === "rename" && (
        <label>{t("mod.newName")}
          <input name="mod-new-name" value={form.newName} required pattern="[A-Za-z0-9_\-]{3,20}" title={t("acc.nameHint")}
            onInput={(e) => set({ newName: (e.target as HTMLInputElement).value })} />
        </label>
      )}
      <p class="note">{t(`mod.explain.${form.action}` as Key)}</p>
      <label>{t("mod.reason")}
        <textarea name="mod-reason" rows={2} maxLength={500} required value={form.reason}
          placeholder={t("mod.reasonHint")}
          onInput={(e) => set({ reason: (e.target as HTMLTextAreaElement).value })} />
      </label>
      <div class="buttons">
        <button type="submit" class="primary" data-testid="mod-apply" disabled={busy}>{t("mod.apply")}</button>
      </div>
      {error && <p class="error" role="alert" data-testid="mod-error">{error}</p>}
    </form>
  );
}

function ReportCard(props: { report: Report; open: boolean; onDone: (id: string, text: string) => void }) {
  useLang();
  const r = props.report;
  const evidence = r.evidence;
  // the server gives the replay once the match is over (a live table shows nothing of its hands)
  const replay = evidence?.replay ?? null;
  const others = (evidence?.messages ?? []).filter((m) => m !== r.message);
  return (
    <li class="report" data-report-id={r.report_id} data-target={r.target.username}>
      <div class="report-head">
        <span class="chip">{reasonName(r.reason)}</span>
        <strong class="report-target"><PlayerLink name={r.target.username} /></strong>
        <span class="note">{t(`mod.context.${r.context}` as Key)} · {when(r.created)}</span>
      </div>
      <p class="note">{t("mod.by")} <PlayerLink name={r.reporter.username} /></p>
      {r.text ? <blockquote class="report-text" data-testid="report-text">{r.text}</blockquote>
        : <p class="note">{t("mod.noText")}</p>}
      <div class="evidence">
        <h3>{t("mod.evidence")}</h3>
        {r.message && <p data-testid="evidence-message">{t("mod.message", { text: quickText(r.message) })}</p>}
        {evidence?.match && <MatchLine match={evidence.match} />}
        {others.length > 0 && (
          <p class="note" data-testid="evidence-messages">{t("mod.messages")}{" "}
            {others.map((m, i) => <>{i ? ", " : ""}<q>{quickText(m)}</q></>)}</p>
        )}
        {replay && <p><ReplayLink href={replay} /></p>}
        {!r.message && !evidence?.match && !replay && others.length === 0 && <p class="note">{t("mod.noEvidence")}</p>}
        {r.table_id && !evidence?.match && <p class="note" data-testid="evidence-live">{t("mod.liveTable")}</p>}
      </div>
      <div class="history">
        <p class="note" data-testid="target-reports">{t("mod.reportsOf", { n: r.target_reports, name: r.target.username })}</p>
        {r.target_sanctions.length > 0 ? (
          <ul class="trust-list" data-testid="target-sanctions">
            {r.target_sanctions.map((s) => <li>{historyLine(s)}</li>)}
          </ul>
        ) : <p class="note">{t("mod.noSanctions")}</p>}
      </div>
      {props.open ? (
        <details class="act">
          <summary data-testid="mod-act">{t("mod.act")}</summary>
          <ActionPanel username={r.target.username} reportId={r.report_id}
            onDone={(text) => props.onDone(r.report_id, text)} />
        </details>
      ) : (
        <p class="note" data-testid="outcome">{t("mod.outcome", { outcome: outcomeText(r.outcome) || r.status })}</p>
      )}
    </li>
  );
}

function Reports(props: { status: "open" | "closed" }) {
  useLang();
  const [reports, setReports] = useState<Report[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () => modReports(props.status).then((r) => setReports(r.reports)).catch((err) => setError(trustErrorText(err)));
  useEffect(() => { void load(); }, [props.status]);
  const done = (id: string, text: string) => {
    setNote(text);
    setReports((list) => (list ?? []).filter((r) => r.report_id !== id));
  };
  return (
    <section data-testid={`reports-${props.status}`}>
      {note && <p class="panel trust-notice" role="status" data-testid="mod-note">{note}</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {reports === null && !error && <p>{t("common.loading")}</p>}
      {reports && reports.length === 0 && <p class="panel">{t(props.status === "open" ? "mod.noneOpen" : "mod.noneClosed")}</p>}
      {reports && reports.length > 0 && (
        <ul class="reports">{reports.map((r) => <ReportCard key={r.report_id} report={r} open={props.status === "open"} onDone={done} />)}</ul>
      )}
    </section>
  );
}

function LogLine(props: { entry: LoggedAction }) {
  const e = props.entry;
  return (
    <li data-kind={e.kind} data-player={e.username ?? undefined}>
      <div><strong>{sanctionName(e.kind)}</strong> · {e.username ? <PlayerLink name={e.username} /> : t("mod.deletedPlayer")}
        {(e.kind === "mute" || e.kind === "suspend" || e.kind === "ban") && <> · {t("mod.until", { until: untilText(e.until) })}</>}
        {e.lifted_at ? <> {t("sanction.lifted")}</> : null}
      </div>
      <div class="note">{t("mod.logBy", { name: e.moderator, date: when(e.at) })}</div>
      <div>{e.reason}</div>
      {e.detail && <div class="note">{e.detail}</div>}
    </li>
  );
}

function Log() {
  useLang();
  const [entries, setEntries] = useState<LoggedAction[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = () => modLog().then((r) => setEntries(r.actions)).catch((err) => setError(trustErrorText(err)));
  useEffect(() => { void load(); }, []);
  return (
    <section data-testid="mod-log">
      <details class="panel">
        <summary><h2>{t("mod.actOnAny")}</h2></summary>
        <ActionPanel onDone={(text) => { setNote(text); void load(); }} />
      </details>
      {note && <p class="panel trust-notice" role="status" data-testid="mod-note">{note}</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {entries === null && !error && <p>{t("common.loading")}</p>}
      {entries && entries.length === 0 && <p class="panel">{t("mod.logEmpty")}</p>}
      {entries && entries.length > 0 && <ul class="reports log">{entries.map((e) => <LogLine entry={e} />)}</ul>}
    </section>
  );
}

export function FlagCard(props: { flag: Flag }) {
  const f = props.flag;
  const what = flagText(f.kind);
  return (
    <li class="report flag" data-kind={f.kind}>
      <div class="report-head"><span class="chip">{flagName(f.kind)}</span>
        {f.players.map((p, i) => <>{i ? " · " : ""}<strong><PlayerLink name={p.username} /></strong></>)}
      </div>
      {what && <p class="note">{what}</p>}
      <p data-testid="flag-numbers">{t("mod.flagNumbers", { statistic: statText(f.statistic), baseline: statText(f.baseline),
        threshold: statText(f.threshold) })}</p>
      {f.explanation && <p class="note flag-explanation" lang="en">{f.explanation}</p>}
      {f.matches.length > 0 && (
        <p class="flag-matches">{t("mod.flagMatches")}{" "}
          {f.matches.map((id, i) => <a class="button" href={`/replay/${encodeURIComponent(id)}`} onClick={navigate}>
            {t("mod.matchN", { n: i + 1 })}</a>)}
        </p>
      )}
    </li>
  );
}

function Screening() {
  useLang();
  const [flags, setFlags] = useState<Flag[] | null>(null);
  const [checked, setChecked] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    modScreening().then((r) => { setFlags(r.flags); setChecked(r.checked ?? {}); })
      .catch((err) => setError(trustErrorText(err)));
  }, []);
  const count = (key: string) => (typeof checked[key] === "number" ? checked[key] as number : null);
  return (
    <section data-testid="mod-screening">
      <p class="note">{t("mod.screeningText")}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {flags === null && !error && <p>{t("common.loading")}</p>}
      {flags && flags.length === 0 && <p class="panel">{t("mod.noFlags")}</p>}
      {flags && flags.length > 0 && <ul class="reports">{flags.map((f) => <FlagCard flag={f} />)}</ul>}
      {count("matches") !== null && (
        <p class="note" data-testid="screening-checked">
          {t("mod.checkedLine", { matches: count("matches") ?? 0, players: count("players") ?? 0, pairs: count("pairs") ?? 0 })}</p>
      )}
    </section>
  );
}

function tabFromUrl(): Tab {
  const wanted = new URLSearchParams(location.search).get("tab");
  return (TABS as string[]).includes(wanted ?? "") ? wanted as Tab : "open";
}

export function ModPage() {
  useLang();
  const account = isAccount(savedGuest());
  const [allowed, setAllowed] = useState<boolean | null>(null);
  const [tab, setTabState] = useState<Tab>(tabFromUrl);
  useEffect(() => {
    if (account) me().then((m) => setAllowed(isModerator(m.roles))).catch(() => setAllowed(false));
  }, []);
  useEffect(() => { document.title = `${t("mod.title")} · ${t("app.title")}`; });
  const setTab = (next: Tab) => {
    setTabState(next);
    history.replaceState(null, "", next === "open" ? "/mod" : `/mod?tab=${next}`);
  };
  return (
    <div class="page trust mod">
      <Header>{account && <NoticeBell />}</Header>
      <main>
        <h1>{t("mod.title")}</h1>
        {!account ? <AccountsOnly /> : allowed === null ? <p>{t("common.loading")}</p> : !allowed ? (
          <p class="panel error" role="alert" data-testid="mod-forbidden">{t("mod.forbidden")}</p>
        ) : (
          <>
            <div class="tabs trust-tabs" role="tablist">
              {TABS.map((k) => (
                <button type="button" role="tab" aria-selected={tab === k} class={tab === k ? "primary" : ""}
                  data-testid={`mod-tab-${k}`} onClick={() => setTab(k)}>{t(`mod.tab.${k}` as Key)}</button>
              ))}
            </div>
            {tab === "open" && <Reports key="open" status="open" />}
            {tab === "closed" && <Reports key="closed" status="closed" />}
            {tab === "log" && <Log />}
            {tab === "screening" && <Screening />}
          </>
        )}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a>
          {" · "}<a href="/account" onClick={navigate}>{t("acct.title")}</a></p>
      </main>
    </div>
  );
}
