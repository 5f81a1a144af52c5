/**
 * The account's page (/account): the sanctions in force first (with their reason and end),
 * the recovery codes left and new ones, the account's data as a file, and deleting the
 * account (the password, and the username typed again). The lobby's notice of a sanction
 * is here too.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, forgetGuest, savedGuest, type GuestInfo } from "./api";
import { go, Header, navigate } from "./components";
import { t, useLang } from "./i18n";
import { NoticeBell } from "./notices";
import { isAccount, me, type Me } from "./players";
import { RecoveryCodes } from "./recovery";
import {
  deleteAccount, exportData, gravest, isModerator, newRecoveryCodes, saveFile, sanctionEffect, sanctionLine,
  trustErrorText, TrustError, type Sanction,
} from "./trust";
import "./trust.css";

const DELETED = "burraco:deleted";

/** The note a guest sees on an account's page: log in first. */
export function AccountsOnly() {
  useLang();
  return (
    <section class="panel" data-testid="accounts-only">
      <p>{t("trust.accountsOnly")}</p>
      <p><a class="button primary" href="/" onClick={navigate}>{t("pool.login")}</a></p>
    </section>
  );
}

/** The sanctions one is under, each with what it stops. */
export function SanctionList(props: { sanctions: Sanction[] }) {
  useLang();
  if (!props.sanctions.length) return null;
  return (
    <section class="panel sanctions" data-testid="sanctions" role="alert">
      <h2>{t("sanction.title")}</h2>
      <ul>
        {props.sanctions.map((s) => {
          const effect = sanctionEffect(s.kind);
          return (
            <li data-kind={s.kind}>
              <strong>{sanctionLine(s)}</strong>
              {effect && <div class="note">{effect}</div>}
            </li>
          );
        })}
      </ul>
      <p class="note">{t("sanction.appeal")}</p>
    </section>
  );
}

/** The lobby's notice: a sanction in force (the gravest named), or an account deleted just now. */
export function LobbyNotice(props: { guest: GuestInfo | null }) {
  useLang();
  const [sanctions, setSanctions] = useState<Sanction[]>([]);
  const [deleted, setDeleted] = useState(false);
  useEffect(() => {
    try {
      if (sessionStorage.getItem(DELETED)) {
        sessionStorage.removeItem(DELETED);
        setDeleted(true);
      }
    } catch {
      /* no storage: nothing to say */
    }
  }, []);
  useEffect(() => {
    if (!isAccount(props.guest)) return setSanctions([]);
    me().then((m) => setSanctions(m.sanctions ?? [])).catch(() => setSanctions([]));
  }, [props.guest?.token]);
  const first = gravest(sanctions);
  return (
    <>
      {deleted && <p class="panel trust-notice" role="status" data-testid="deleted-notice">{t("acct.deletedNotice")}</p>}
      {first && (
        <div class="panel trust-notice warn" role="alert" data-testid="sanction-notice" data-kind={first.kind}>
          <p><strong>{sanctionLine(first)}</strong></p>
          {sanctionEffect(first.kind) && <p class="note">{sanctionEffect(first.kind)}</p>}
          {sanctions.length > 1 && <p class="note">{t("sanction.more", { n: sanctions.length - 1 })}</p>}
          <p><a href="/account" onClick={navigate}>{t("sanction.see")}</a></p>
        </div>
      )}
    </>
  );
}

function NewCodes(props: { username: string; onMade: () => void }) {
  useLang();
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} username={props.username} onDone={() => { setCodes(null); props.onMade(); }} />;
  if (!asking) {
    return <p><button type="button" data-testid="new-codes" onClick={() => setAsking(true)}>{t("acct.newCodes")}</button></p>;
  }
  const make = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await newRecoveryCodes(password);
      setPassword("");
      setAsking(false);
      setCodes(answer.recovery_codes);
    } catch (err) {
      setError(trustErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="trust-form" onSubmit={make} data-testid="new-codes-form">
      <p class="note">{t("acct.newCodesText")}</p>
      <label>{t("acct.yourPassword")}
        <input name="codes-password" type="password" value={password} required autoComplete="current-password"
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
      </label>
      <div class="buttons">
        <button type="submit" class="primary" data-testid="new-codes-submit" disabled={busy}>{t("acct.makeCodes")}</button>
        <button type="button" onClick={() => { setAsking(false); setError(null); }}>{t("common.cancel")}</button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

function ExportData() {
  useLang();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const file = await exportData();
      saveFile(file.name, file.blob);
      setNote(t("acct.exported", { file: file.name }));
    } catch (err) {
      setError(err instanceof ApiError && err.status === 429 ? t("acct.exportLimited") : trustErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel" data-testid="export">
      <h2>{t("acct.dataTitle")}</h2>
      <p>{t("acct.dataText")}</p>
      <p><button type="button" data-testid="export-data" disabled={busy} onClick={download}>{t("acct.download")}</button></p>
      {note && <p class="note" role="status">{note}</p>}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

function DeleteAccount(props: { username: string }) {
  useLang();
  const [password, setPassword] = useState("");
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tables, setTables] = useState<string[]>([]);
  const matches = typed.trim().toLowerCase() === props.username.toLowerCase();
  const remove = async (ev: Event) => {
    ev.preventDefault();
    if (!matches) return setError(t("acct.typeName", { name: props.username }));
    setBusy(true);
    setError(null);
    setTables([]);
    try {
      await deleteAccount(password);
      forgetGuest();
      try { sessionStorage.setItem(DELETED, "1"); } catch { /* the lobby just says nothing */ }
      go("/");
      window.scrollTo(0, 0);
    } catch (err) {
      if (err instanceof TrustError && err.code === "at_table") {
        setError(t("acct.atTable"));
        setTables(Array.isArray(err.body.tables) ? err.body.tables.filter((x): x is string => typeof x === "string") : []);
      } else setError(trustErrorText(err));
      setBusy(false);
    }
  };
  return (
    <section class="panel danger" data-testid="delete">
      <h2>{t("acct.deleteTitle")}</h2>
      <p>{t("acct.deleteText")}</p>
      <ul class="trust-list">
        <li>{t("acct.deleted1")}</li>
        <li>{t("acct.deleted2")}</li>
        <li>{t("acct.anonymised")}</li>
        <li>{t("acct.kept")}</li>
      </ul>
      <p class="note">{t("acct.deleteFirst")}</p>
      <form class="trust-form" onSubmit={remove} data-testid="delete-form">
        <label>{t("acct.yourPassword")}
          <input name="delete-password" type="password" value={password} required autoComplete="current-password"
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        <label>{t("acct.typeName", { name: props.username })}
          <input name="delete-username" value={typed} required autoComplete="off" spellcheck={false}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="danger" data-testid="delete-submit" disabled={busy || !matches || !password}>
          {t("acct.deleteButton")}</button>
        {error && <p class="error" role="alert" data-testid="delete-error">{error}</p>}
        {tables.length > 0 && (
          <p class="buttons">{tables.map((id, i) => (
            <a class="button" href={`/play/${encodeURIComponent(id)}`} onClick={navigate} data-table={id}>
              {t("mod.matchN", { n: i + 1 })}</a>
          ))}</p>
        )}
      </form>
    </section>
  );
}

export function AccountPage() {
  useLang();
  const guest = savedGuest();
  const account = isAccount(guest);
  const [info, setInfo] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => me().then(setInfo).catch((err) => setError(trustErrorText(err)));
  useEffect(() => { if (account) void load(); }, []);
  useEffect(() => { document.title = `${t("acct.title")} · ${t("app.title")}`; });
  const name = info?.username ?? guest?.nickname ?? "";
  return (
    <div class="page trust">
      <Header>{account && <NoticeBell />}</Header>
      <main>
        <h1>{t("acct.title")}</h1>
        {!account ? <AccountsOnly /> : (
          <>
            {error && <p class="error" role="alert">{error}</p>}
            {info && <SanctionList sanctions={info.sanctions ?? []} />}
            {info && (
              <>
                <p class="account-who">{t("acc.loggedIn", { name })}
                  {" · "}<a href={`/players/${encodeURIComponent(name)}`} onClick={navigate}>{t("acc.profile")}</a>
                  {isModerator(info.roles) && <>{" · "}<a href="/mod" onClick={navigate} data-testid="mod-link">{t("mod.link")}</a></>}
                </p>
                <section class="panel" data-testid="recovery">
                  <h2>{t("acct.codesTitle")}</h2>
                  <p data-testid="codes-left">{t("rec.left", { n: info.recovery_codes_left ?? 0 })}</p>
                  {(info.recovery_codes_left ?? 0) <= 3 && <p class="note">{t("rec.fewLeft")}</p>}
                  <p class="note">{t("acct.codesText")}</p>
                  <NewCodes username={name} onMade={() => void load()} />
                </section>
                <ExportData />
                <DeleteAccount username={name} />
              </>
            )}
            {!info && !error && <p>{t("common.loading")}</p>}
          </>
        )}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a>
          {" · "}<a href="/privacy" onClick={navigate} data-testid="privacy-link">{t("privacy.title")}</a></p>
      </main>
    </div>
  );
}
