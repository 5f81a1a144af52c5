/**
 * Recovery codes: the ten codes shown once (at registration, and when new ones are made on
 * the account page), with Copy, Download (.txt) and "I saved them"; and the page /recover,
 * where a forgotten password is replaced with one code (the person is then logged in and told
 * how many codes are left).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { GuestInfo } from "./api";
import { Header, navigate } from "./components";
import { t, useLang } from "./i18n";
import { adoptSession } from "./players";
import { codesFile, codesFileName, recover, saveFile, trustErrorText } from "./trust";
import "./trust.css";

/** The codes, once: what they are for, the list, Copy, Download, "I saved them". */
export function RecoveryCodes(props: { codes: string[]; username: string; onDone: () => void }) {
  useLang();
  const [copied, setCopied] = useState(false);
  const [saved, setSaved] = useState(false);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: "start", behavior: "smooth" });
    box.current?.focus({ preventScroll: true });
  }, []);
  const text = () => codesFile(props.codes, props.username, Date.now() / 1000, location.host);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setCopied(true);
    } catch {
      /* no clipboard here: the codes can be selected by hand, or downloaded */
    }
  };
  const download = () => {
    saveFile(codesFileName(props.username), new Blob([text()], { type: "text/plain;charset=utf-8" }));
    setSaved(true);
  };
  return (
    <section class="recovery-codes" data-testid="recovery-codes" ref={box} tabIndex={-1}
      role="region" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{t("rec.codesTitle")}</h2>
      <p>{t("rec.codesText")}</p>
      <p class="note">{t("rec.codesOnce")}</p>
      <ol class="codes" data-testid="codes-list">
        {props.codes.map((code) => <li><code>{code}</code></li>)}
      </ol>
      <div class="buttons">
        <button type="button" data-testid="codes-copy" onClick={copy}>{copied ? t("common.copied") : t("rec.copy")}</button>
        <button type="button" data-testid="codes-download" onClick={download}>{t("rec.download")}</button>
        <button type="button" class="primary" data-testid="codes-saved" onClick={props.onDone}>{t("rec.saved")}</button>
      </div>
      {saved && <p class="note" role="status">{t("rec.downloaded")}</p>}
    </section>
  );
}

/** /recover: username, one code, the new password twice. */
export function RecoverPage() {
  useLang();
  const [name, setName] = useState("");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ who: GuestInfo; left: number } | null>(null);
  useEffect(() => { document.title = `${t("rec.title")} · ${t("app.title")}`; });
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setError(null);
    if (password !== again) return setError(t("rec.mismatch"));
    setBusy(true);
    try {
      const answer = await recover(name, code, password);
      const who = await adoptSession(answer.token, answer.username);
      setDone({ who, left: answer.codes_left });
    } catch (err) {
      setError(trustErrorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="page trust">
      <Header />
      <main>
        <h1>{t("rec.title")}</h1>
        {done ? (
          <section class="panel" data-testid="recovered">
            <p role="status"><strong>{t("rec.done", { name: done.who.nickname })}</strong></p>
            <p data-testid="codes-left">{t("rec.left", { n: done.left })}</p>
            {done.left <= 3 && <p class="note">{t("rec.fewLeft")}</p>}
            <div class="buttons">
              <a class="button primary" href="/" onClick={navigate} data-testid="recovered-lobby">{t("nav.backToLobby")}</a>
              <a class="button" href="/account" onClick={navigate}>{t("acct.title")}</a>
            </div>
          </section>
        ) : (
          <form class="panel trust-form" onSubmit={submit} data-testid="recover-form">
            <p>{t("rec.text")}</p>
            <label>{t("acc.username")}
              <input name="username" value={name} required minLength={3} maxLength={20} autoComplete="username"
                onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            </label>
            <label>{t("rec.code")}
              <input name="code" value={code} required autoComplete="one-time-code" spellcheck={false}
                autoCapitalize="characters" placeholder="XXXX-XXXX-XXXX"
                onInput={(e) => setCode((e.target as HTMLInputElement).value)} />
            </label>
            <label>{t("rec.newPassword")}
              <input name="new_password" type="password" value={password} required minLength={8} autoComplete="new-password"
                title={t("acc.passHint")} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
            </label>
            <label>{t("rec.again")}
              <input name="new_password_again" type="password" value={again} required minLength={8} autoComplete="new-password"
                onInput={(e) => setAgain((e.target as HTMLInputElement).value)} />
            </label>
            <button type="submit" class="primary" data-testid="recover-submit" disabled={busy}>{t("rec.submit")}</button>
            {error && <p class="error" role="alert">{error}</p>}
            <p class="note">{t("rec.noCodes")}</p>
          </form>
        )}
        <p><a href="/" onClick={navigate} data-testid="to-lobby">{t("nav.backToLobby")}</a>
          {" · "}<a href="/privacy" onClick={navigate}>{t("privacy.title")}</a></p>
      </main>
    </div>
  );
}
