/** The lobby: a nickname, a game with people (the pool) or against bots, creating a table, the open tables, replays. */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  checkedGuest, formOptions, keptTable, keptTableIds, listTables, newGuest, savedGuest,
  seatToken, updateKept, type CreatedTable, type FormOptions, type GuestInfo,
  type TableSummary,
} from "./api";
import { CardFace, Dialog, go, Header, navigate } from "./components";
import { LobbyHelp } from "./help/LobbyHelp";
import { prefetchPad } from "./padloader";
import { formatDate, lang, t, useLang, type Key } from "./i18n";
import { AccountPanel, BotRatings, DailyPanel, isAccount } from "./players";
import { CreateForm } from "./create";
import { generatedNickname, PlayPanel } from "./play";
import { PoolCard } from "./poolcard";
import { keptSummaries, LOBBY_POLL_MS } from "./mytables";
import { errorText } from "./errors";
import { NoticeBell, SocialLinks } from "./notices";
import { LobbyNotice } from "./account";

export { errorText };

export function NicknameForm(props: { onDone: (g: GuestInfo) => void; initial?: string }) {
  useLang();
  const [name, setName] = useState(props.initial ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // ready for typing, but without scrolling to it: the field sits below the page's
  // introduction, which a first visit (on a phone above all) would otherwise open past
  useEffect(() => field.current?.focus({ preventScroll: true }), []);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onDone(await newGuest(name));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel nickname" onSubmit={submit}>
      <h2>{t("nick.title")}</h2>
      <label>
        {t("nick.label")}
        <input name="nickname" ref={field} value={name} maxLength={24} required
          onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" class="primary" disabled={busy || !name.trim()}>{t("nick.go")}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

export function levelName(level: string | null): string {
  const key = `level.${level ?? "basic"}` as Key;
  return key in LEVEL_KEYS ? t(key) : level ?? "";
}
const LEVEL_KEYS: Record<string, true> = {
  "level.random": true, "level.basic": true, "level.advanced": true, "level.expert": true,
};

/** Partners sit opposite: at 4 players seats 0–2 and 1–3; at 6, 0–3, 1–4, 2–5. */
export function partnersText(players: number): string | null {
  if (players === 4) return "1 & 3, 2 & 4";
  if (players === 6) return "1 & 4, 2 & 5, 3 & 6";
  return null;
}

function Invites(props: { created: CreatedTable; mine: number | null; onClose: () => void }) {
  useLang();
  const { created } = props;
  const others = created.seats.filter((s) => s.token && s.seat !== props.mine);
  const target = `/play/${created.table_id}`;
  return (
    <Dialog title={t("invite.title")} onClose={props.onClose}>
      {others.map((s) => <CopyLink label={t("invite.seat", { n: s.seat + 1 })} url={s.invite ?? ""} />)}
      <CopyLink label={t("invite.watch")} url={created.watch} />
      <div class="buttons">
        <a class="button primary" href={target} onClick={navigate}>{t("invite.go")}</a>
      </div>
    </Dialog>
  );
}

export function CopyLink(props: { label: string; url: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.url);
      setCopied(true);
    } catch {
      /* no clipboard: the link can be selected by hand */
    }
  };
  return (
    <div class="copy-link">
      <span>{props.label}</span>
      <input readOnly value={props.url} onFocus={(e) => (e.target as HTMLInputElement).select()} />
      <button type="button" onClick={copy}>{copied ? t("common.copied") : t("common.copy")}</button>
    </div>
  );
}

/** Who holds a seat: the live presence, else (a finished table) the name it ended with. */
function holderName(table: TableSummary, seat: number): string | null {
  return table.seats?.[seat]?.nickname ?? table.names?.[seat] ?? null;
}

function seatLabel(table: TableSummary, seat: number): string {
  const spec = table.config.seats[seat];
  if (spec.kind === "bot") return t("seat.bot", { n: seat + 1, level: levelName(spec.level) });
  // a finished match has no open seat: a seat nobody's name is known for is just left blank
  return holderName(table, seat) ?? (table.status === "finished" ? "—" : t("seat.open"));
}

/** A finished table's end: when, and each side's final score with its players' names. */
function FinishedLine({ table }: { table: TableSummary }) {
  const scores = table.scores ?? table.match?.scores ?? null;
  const winner = table.winner ?? table.match?.winner ?? null;
  const players = table.config.players;
  const date = table.finished_at ? formatDate(table.finished_at, { dateStyle: "medium", timeStyle: "short" }) : null;
  if (!date && !scores?.length) return null;
  const side = (k: number, n: number) => Array.from({ length: players }, (_, s) => s)
    .filter((s) => (n === players ? s === k : s % n === k)).map((s) => seatLabel(table, s)).join(" & ");
  return (
    <div class="note finished-line" data-finished>
      {date && <span data-finished-at>{t("replays.ended", { date })}</span>}
      {date && scores?.length ? " · " : null}
      {scores?.length ? (
        <span data-final-score>{t("replays.score")}{" "}
          {scores.map((points, k) => (
            <>{k ? " – " : ""}{k === winner ? <strong>{side(k, scores.length)} {points}</strong> : `${side(k, scores.length)} ${points}`}</>
          ))}
        </span>
      ) : null}
    </div>
  );
}

function TableRow(props: { table: TableSummary; guest: GuestInfo | null; onError: (e: string) => void }) {
  const { table } = props;
  const kept = keptTable(table.id);
  const mineAt = kept ? Object.keys(kept.seats).map(Number) : [];
  // a rated match is shown to nobody until it is over (docs/protocol.md): offer no dead button
  const liveRated = Boolean(table.config.rated) && table.status !== "finished";
  const sit = async (seat: number) => {
    try {
      const { token } = await seatToken(table.id, seat);
      updateKept(table.id, (k) => { k.seats[seat] = token; });
      go(`/play/${table.id}`);
    } catch (err) {
      props.onError(errorText(err));
    }
  };
  return (
    <li class="table-row" data-table={table.id}>
      <div class="table-desc">
        <strong>{table.config.rules}</strong> · {t("tables.players", { n: table.config.players })} ·{" "}
        <span class={`status ${table.status}`}>{t(`status.${table.status}` as Key)}</span>
        <div class="seats">
          {table.config.seats.map((spec, i) => {
            const open = spec.kind === "human" && !holderName(table, i) && table.status !== "finished";
            return (
              <span class={`seat-chip ${open ? "open" : ""}`}>
                {t("seat.name", { n: i + 1 })}: {seatLabel(table, i)}
                {open && props.guest && table.status !== "finished" && table.config.public && (
                  <button type="button" data-sit={i} onClick={() => sit(i)}>{t("tables.sit", { n: i + 1 })}</button>
                )}
              </span>
            );
          })}
        </div>
        {table.status === "finished" && <FinishedLine table={table} />}
      </div>
      <div class="table-actions">
        {mineAt.length > 0 && table.status !== "finished" && <a class="button primary" href={`/play/${table.id}`} onClick={navigate}>{t("tables.open")}</a>}
        {mineAt.length === 0 && table.status !== "finished" && !liveRated && <a class="button" href={`/play/${table.id}`} onClick={navigate}>{t("tables.watch")}</a>}
        {liveRated ? <span class="note" data-rated-live>{t("tables.ratedLive")}</span>
          : <a class="button" href={`/replay/${table.id}`} onClick={navigate}>{t("tables.replay")}</a>}
      </div>
    </li>
  );
}

export function Lobby() {
  useLang();
  const [guest, setGuest] = useState<GuestInfo | null>(savedGuest);
  const [renaming, setRenaming] = useState(false);
  const [opts, setOpts] = useState<FormOptions | null>(null);
  const [tables, setTables] = useState<TableSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<[CreatedTable, number | null] | null>(null);

  const [mine, setMine] = useState<TableSummary[]>([]);
  const refresh = () => listTables().then(async (r) => {
    setTables(r.tables);
    setMine(await keptSummaries(keptTableIds(), new Set(r.tables.map((x) => x.id))));
  }).catch((err) => setError(errorText(err)));
  useEffect(() => {
    // the check answers for the guest saved at load; if the player logged out or in while it
    // was on its way, what they did since wins (a late answer must not log them back in)
    const loaded = guest?.token;
    checkedGuest().then((checked) => setGuest((now) => (now?.token === loaded ? checked : now)));
    formOptions().then(setOpts).catch((err) => setError(errorText(err)));
    refresh();
    prefetchPad();
    // new public tables show by themselves; a hidden tab does not poll
    const timer = setInterval(() => document.visibilityState !== "hidden" && refresh(), LOBBY_POLL_MS);
    return () => clearInterval(timer);
  }, []);

  const open = (tables ?? []).filter((x) => x.status !== "finished");
  const privateMine = mine.filter((x) => x.status !== "finished");
  const finished = [...(tables ?? []), ...mine].filter((x) => x.status === "finished");
  const account = isAccount(guest);
  // a newcomer plays at once under a generated nickname, and may pick their own at any time
  const name = guest?.nickname ?? generatedNickname();

  return (
    <div class="page lobby">
      <Header>{account && <NoticeBell key={guest?.token} />}</Header>
      <main>
        <section class="hero">
          <div class="fan" aria-hidden="true">
            {["AH", "KS", "JK", "QD", "2C"].map((c, i) => <CardFace text={c} id={i === 2 ? 52 : undefined} />)}
          </div>
          <h1>{t("app.title")}</h1>
          <p>{t("app.tagline")}</p>
        </section>
        {!account && renaming ? (
          <NicknameForm initial={guest?.nickname ?? ""} onDone={(g) => { setGuest(g); setRenaming(false); }} />
        ) : (
          <p class="hello">
            {t(guest ? "nick.hello" : "nick.playAs", { name })}{" "}
            {!account && (
              <button type="button" class="link" data-testid="change-nickname" onClick={() => setRenaming(true)}>
                {t("nick.change")}
              </button>
            )}
          </p>
        )}
        <LobbyNotice guest={guest} />
        {account && <SocialLinks />}
        <div class="play-cards">
          <PoolCard guest={guest} account={account} onGuest={setGuest} />
          <PlayPanel guest={guest} account={account} levels={opts?.levels ?? ["random", "basic", "advanced", "expert"]}
            levelName={levelName} onGuest={setGuest} />
        </div>
        {error && <p class="error" role="alert">{error}</p>}
        <div id="daily">{account && <DailyPanel key={guest?.token} />}</div>
        <section class="panel">
          <details>
            <summary><h2>{t("create.title")}</h2></summary>
            {!guest ? (
              <p>{t("create.needName")}{" "}
                <button type="button" class="link" onClick={() => newGuest(name).then(setGuest).catch((err) => setError(errorText(err)))}>
                  {t("create.asGuest", { name })}
                </button></p>
            ) : opts ? (
              <CreateForm opts={opts} levelName={levelName} partners={partnersText}
                onCreated={(c, mine) => setCreated([c, mine])} />
            ) : <p>{t("common.loading")}</p>}
          </details>
        </section>
        <section class="panel">
          <h2>
            {t("tables.title")}{" "}
            <button type="button" class="link" onClick={refresh}>{t("tables.refresh")}</button>
          </h2>
          {tables === null ? <p>{t("common.loading")}</p> : open.length === 0 ? <p>{t("tables.none")}</p> : (
            <ul class="tables">{open.map((x) => <TableRow table={x} guest={guest} onError={setError} />)}</ul>
          )}
          {privateMine.length > 0 && (
            <>
              <h3>{t("tables.mine")}</h3>
              <ul class="tables" data-testid="my-tables">
                {privateMine.map((x) => <TableRow table={x} guest={guest} onError={setError} />)}
              </ul>
            </>
          )}
        </section>
        <AccountPanel guest={guest} onChange={(g) => { setGuest(g); setRenaming(false); }} />
        <LobbyHelp />
        <p class="pad-link"><a class="button" href="/pad/" onClick={navigate}>{t("pad.link")}</a> {t("pad.linkText")}</p>
        <p class="pad-link"><a class="button" href={`/tournaments/?lang=${lang()}`} id="tournaments-link">{t("tournaments.link")}</a> {t("tournaments.linkText")}</p>
        <p class="pad-link"><a class="button" href="/events" onClick={navigate} data-testid="events-link-lobby">{t("events.link")}</a> {t("events.linkText")}</p>
        <BotRatings levelName={levelName} />
        <section class="panel">
          <h2>{t("replays.title")}</h2>
          {finished.length === 0 ? <p>{t("replays.none")}</p> : (
            <ul class="tables">{finished.map((x) => <TableRow table={x} guest={guest} onError={setError} />)}</ul>
          )}
        </section>
      </main>
      <footer class="site-footer">
        <a href="/help/" onClick={navigate}>{t("help.title")}</a>
        <a href="/privacy" onClick={navigate} data-testid="privacy-link">{t("privacy.title")}</a>
        {account && <a href="/account" onClick={navigate}>{t("acct.title")}</a>}
      </footer>
      {created && <Invites created={created[0]} mine={created[1]} onClose={() => setCreated(null)} />}
    </div>
  );
}
