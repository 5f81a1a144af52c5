/** The lobby: a nickname, a quick game against bots, creating a table, the open tables, replays. */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  ApiError, checkedGuest, createTable, formOptions, keptTable, keptTableIds, listTables, newGuest, savedGuest,
  seatToken, updateKept, type CreatedTable, type FormOptions, type GuestInfo, type TableRequest,
  type TableSummary,
} from "./api";
import { CardFace, Dialog, go, Header, navigate } from "./components";
import { LobbyHelp } from "./help/LobbyHelp";
import { prefetchPad } from "./padloader";
import { choiceLabel, lang, optionLabel, presetNote, reasonText, t, useLang, type Key } from "./i18n";
import { AccountPanel, BotRatings, DailyPanel, isAccount, pt } from "./players";
import { keptSummaries, LOBBY_POLL_MS } from "./mytables";

export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "network") return t("common.network");
    return reasonText(err.code, err.detail);
  }
  return String(err);
}

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

interface FormState {
  players: number;
  rules: string;
  mode: "free" | "smazzate";
  target: string;
  smazzate: string;
  kinds: ("human" | "bot")[];
  levels: string[];
  mine: number;
  public: boolean;
  casual: boolean;
  rated: boolean;
  turnSeconds: string;
  graceSeconds: string;
  standin: string;
  botDelay: string;
  options: Record<string, string>;
}

function presetValues(opts: FormOptions, name: string): Record<string, unknown> {
  return opts.presets.find((p) => p.name === name)?.values ?? {};
}

function optionText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function defaultForm(opts: FormOptions): FormState {
  const def = Object.fromEntries(opts.table.map((f) => [f.name, f.default]));
  const values = presetValues(opts, String(def.rules));
  return {
    players: Number(def.players), rules: String(def.rules), mode: def.mode as "free",
    target: String(values.target ?? ""), smazzate: "1",
    kinds: ["human", "bot", "bot", "bot", "bot", "bot"], levels: Array(6).fill("basic"), mine: 0,
    public: Boolean(def.public), casual: Boolean(def.casual), rated: false, turnSeconds: "",
    graceSeconds: String(def.grace_seconds), standin: String(def.standin),
    botDelay: String(def.bot_delay),
    options: Object.fromEntries(opts.options.map((o) => [o.name, optionText(values[o.name])])),
  };
}

/** The POST /api/tables body of the form: only the rule options that differ from the preset. */
export function tableRequest(form: FormState, opts: FormOptions): TableRequest {
  const preset = presetValues(opts, form.rules);
  const options: Record<string, unknown> = {};
  for (const option of opts.options) {
    if (option.name === "target") continue; // the match's target is its own field
    const text = form.options[option.name];
    if (text === undefined || text === optionText(preset[option.name])) continue;
    let value: unknown = text;
    if (option.kind === "bool") value = text === "true";
    else if (option.kind === "int") value = Number(text);
    else if (option.kind === "json") value = JSON.parse(text);
    options[option.name] = value;
  }
  const seats = form.kinds.slice(0, form.players).map((kind, i) =>
    kind === "bot" ? { kind, level: form.levels[i] } : { kind });
  const mine = seats[form.mine]?.kind === "human" ? form.mine : null;
  return {
    players: form.players, rules: form.rules, options, mode: form.mode,
    target: form.mode === "free" && form.target ? Number(form.target) : null,
    smazzate: form.mode === "smazzate" ? Number(form.smazzate || 1) : null,
    seats, public: form.public, casual: form.rated ? false : form.casual,
    turn_seconds: form.turnSeconds ? Number(form.turnSeconds) : null,
    grace_seconds: Number(form.graceSeconds || 0), standin: form.standin,
    bot_delay: Number(form.botDelay || 0), creator_seat: mine,
    ...(form.rated ? { rated: true } : {}),
  };
}

function CreateForm(props: { opts: FormOptions; onCreated: (c: CreatedTable, mine: number | null) => void }) {
  useLang();
  const { opts } = props;
  const [form, setForm] = useState<FormState>(() => defaultForm(opts));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<FormState>) => setForm((f) => ({ ...f, ...change }));
  const setRules = (name: string) => {
    const values = presetValues(opts, name);
    set({ rules: name, target: String(values.target ?? ""),
      options: Object.fromEntries(opts.options.map((o) => [o.name, optionText(values[o.name])])) });
  };
  const preset = opts.presets.find((p) => p.name === form.rules);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setError(null);
    let body: TableRequest;
    try {
      body = tableRequest(form, opts);
    } catch (err) {
      setError(String(err));
      return;
    }
    setBusy(true);
    try {
      props.onCreated(await createTable(body), body.creator_seat);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const partners = partnersText(form.players);
  return (
    <form class="create" onSubmit={submit} data-testid="create-form">
      <div class="grid2">
        <label>
          {t("create.players")}
          <select name="players" value={form.players}
            onChange={(e) => set({ players: Number((e.target as HTMLSelectElement).value) })}>
            {[2, 3, 4, 5, 6].map((n) => <option value={n}>{n}</option>)}
          </select>
        </label>
        <label>
          {t("create.rules")}
          <select name="rules" value={form.rules} onChange={(e) => setRules((e.target as HTMLSelectElement).value)}>
            {opts.presets.map((p) => <option value={p.name}>{p.name}</option>)}
          </select>
        </label>
      </div>
      {preset && <p class="note">{presetNote(preset.name, preset.note)}</p>}
      <fieldset>
        <legend>{t("create.mode")}</legend>
        <label class="inline">
          <input type="radio" name="mode" checked={form.mode === "free"} onChange={() => set({ mode: "free" })} />
          {t("create.mode.free")}
        </label>
        {form.mode === "free" && (
          <label class="sub">
            {t("create.target")}
            <input name="target" type="number" min={1} value={form.target}
              onInput={(e) => set({ target: (e.target as HTMLInputElement).value })} />
          </label>
        )}
        <label class="inline">
          <input type="radio" name="mode" checked={form.mode === "smazzate"} onChange={() => set({ mode: "smazzate" })} />
          {t("create.mode.smazzate")}
        </label>
        {form.mode === "smazzate" && (
          <label class="sub">
            {t("create.smazzate")}
            <input name="smazzate" type="number" min={1} max={50} value={form.smazzate}
              onInput={(e) => set({ smazzate: (e.target as HTMLInputElement).value })} />
          </label>
        )}
      </fieldset>
      <fieldset>
        <legend>{t("create.seats")}</legend>
        {partners && <p class="note">{t("create.partners", { a: partners })}</p>}
        {Array.from({ length: form.players }, (_, i) => (
          <div class="seat-row" data-seat={i}>
            <span class="seat-name">{t("create.seat", { n: i + 1 })}</span>
            <select name={`seat${i}`} value={form.kinds[i]} aria-label={t("create.seat", { n: i + 1 })} onChange={(e) => {
              const kinds = [...form.kinds];
              kinds[i] = (e.target as HTMLSelectElement).value as "human" | "bot";
              set({ kinds });
            }}>
              <option value="human">{t("create.human")}</option>
              <option value="bot">{t("create.bot")}</option>
            </select>
            {form.kinds[i] === "bot" ? (
              <select name={`level${i}`} value={form.levels[i]} aria-label={t("quick.level")} onChange={(e) => {
                const levels = [...form.levels];
                levels[i] = (e.target as HTMLSelectElement).value;
                set({ levels });
              }}>
                {opts.levels.map((l) => <option value={l}>{levelName(l)}</option>)}
              </select>
            ) : (
              <label class="inline">
                <input type="radio" name="mine" checked={form.mine === i} onChange={() => set({ mine: i })} />
                {t("create.mine")}
              </label>
            )}
          </div>
        ))}
      </fieldset>
      <label class="inline">
        <input type="checkbox" name="public" checked={form.public}
          onChange={(e) => set({ public: (e.target as HTMLInputElement).checked })} />
        {t("create.public")}
      </label>
      <label class="inline">
        <input type="checkbox" name="casual" checked={form.casual}
          onChange={(e) => {  // casual and rated exclude each other: ticking one unticks the other
            const on = (e.target as HTMLInputElement).checked;
            set(on ? { casual: true, rated: false } : { casual: false });
          }} />
        {t("create.casual")}
      </label>
      {isAccount(savedGuest()) && (form.players === 2 || form.players === 4) && (
        <label class="inline">
          <input type="checkbox" name="rated" checked={form.rated}
            onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              set(on ? { rated: true, casual: false } : { rated: false });
            }} />
          {pt("create.rated")}
        </label>
      )}
      <div class="grid2">
        <label>
          {t("create.turnSeconds")}
          <input name="turn_seconds" type="number" min={1} max={3600} value={form.turnSeconds}
            onInput={(e) => set({ turnSeconds: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          {t("create.graceSeconds")}
          <input name="grace_seconds" type="number" min={0} max={3600} value={form.graceSeconds}
            onInput={(e) => set({ graceSeconds: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          {t("create.standin")}
          <select name="standin" value={form.standin} onChange={(e) => set({ standin: (e.target as HTMLSelectElement).value })}>
            {opts.levels.map((l) => <option value={l}>{levelName(l)}</option>)}
          </select>
        </label>
        <label>
          {t("create.botDelay")}
          <input name="bot_delay" type="number" min={0} max={10} step={0.1} value={form.botDelay}
            onInput={(e) => set({ botDelay: (e.target as HTMLInputElement).value })} />
        </label>
      </div>
      <details class="advanced">
        <summary>{t("create.advanced")}</summary>
        <button type="button" class="link" onClick={() => setRules(form.rules)}>{t("create.reset")}</button>
        <div class="options">
          {opts.options.filter((o) => o.name !== "target").map((o) => (
            <label title={`${o.section} ${o.doc}`} data-option={o.name}>
              <span>{optionLabel(o.name)} <small>{o.section}</small></span>
              {o.kind === "bool" ? (
                <select name={`opt-${o.name}`} value={form.options[o.name]} onChange={(e) =>
                  set({ options: { ...form.options, [o.name]: (e.target as HTMLSelectElement).value } })}>
                  <option value="true">✓</option>
                  <option value="false">✗</option>
                </select>
              ) : o.kind === "choice" ? (
                <select name={`opt-${o.name}`} value={form.options[o.name]} onChange={(e) =>
                  set({ options: { ...form.options, [o.name]: (e.target as HTMLSelectElement).value } })}>
                  {o.choices!.map((c) => <option value={c}>{choiceLabel(c)}</option>)}
                </select>
              ) : (
                <input name={`opt-${o.name}`} type={o.kind === "int" ? "number" : "text"} value={form.options[o.name]}
                  onInput={(e) => set({ options: { ...form.options, [o.name]: (e.target as HTMLInputElement).value } })} />
              )}
            </label>
          ))}
        </div>
      </details>
      <button type="submit" class="primary" disabled={busy}>{busy ? t("create.creating") : t("create.submit")}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
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
  const date = table.finished_at ? new Date(table.finished_at * 1000).toLocaleString(
    lang() === "it" ? "it-IT" : "en-GB", { dateStyle: "medium", timeStyle: "short" }) : null;
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
  const [quickLevel, setQuickLevel] = useState("basic");
  const [busy, setBusy] = useState(false);

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

  const quick = async () => {
    setBusy(true);
    setError(null);
    try {
      const table = await createTable({
        players: 4, rules: "fibur", options: {}, mode: "smazzate", target: null, smazzate: 1,
        seats: [{ kind: "human" }, { kind: "bot", level: quickLevel }, { kind: "bot", level: quickLevel },
          { kind: "bot", level: quickLevel }],
        public: false, casual: true, turn_seconds: null, grace_seconds: 60, standin: "basic",
        bot_delay: 0.8, creator_seat: 0,
      });
      go(`/play/${table.table_id}`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const open = (tables ?? []).filter((x) => x.status !== "finished");
  const privateMine = mine.filter((x) => x.status !== "finished");
  const finished = [...(tables ?? []), ...mine].filter((x) => x.status === "finished");

  return (
    <div class="page lobby">
      <Header />
      <main>
        <section class="hero">
          <div class="fan" aria-hidden="true">
            {["AH", "KS", "JK", "QD", "2C"].map((c, i) => <CardFace text={c} id={i === 2 ? 52 : undefined} />)}
          </div>
          <h1>{t("app.title")}</h1>
          <p>{t("app.tagline")}</p>
        </section>
        <p class="pad-link"><a class="button" href="/pad/" onClick={navigate}>{t("pad.link")}</a> {t("pad.linkText")}</p>
        <LobbyHelp />
        <p class="pad-link"><a class="button" href={`/tournaments/?lang=${lang()}`} id="tournaments-link">{t("tournaments.link")}</a> {t("tournaments.linkText")}</p>
        {error && <p class="error" role="alert">{error}</p>}
        <AccountPanel guest={guest} onChange={(g) => { setGuest(g); setRenaming(false); }} />
        {isAccount(guest) && <DailyPanel key={guest?.token} />}
        {!isAccount(guest) && (!guest || renaming) ? (
          <NicknameForm initial={guest?.nickname} onDone={(g) => { setGuest(g); setRenaming(false); }} />
        ) : (
          <>
            <p class="hello">
              {t("nick.hello", { name: guest!.nickname })}{" "}
              {!isAccount(guest) && (
                <button type="button" class="link" onClick={() => setRenaming(true)}>{t("nick.change")}</button>
              )}
            </p>
            <section class="panel quick">
              <h2>{t("quick.title")}</h2>
              <p>{t("quick.text")}</p>
              <label class="inline">
                {t("quick.level")}
                <select name="quick-level" value={quickLevel} onChange={(e) => setQuickLevel((e.target as HTMLSelectElement).value)}>
                  {(opts?.levels ?? ["random", "basic", "advanced", "expert"]).map((l) => <option value={l}>{levelName(l)}</option>)}
                </select>
              </label>
              <button type="button" class="primary big" data-testid="quick-play" disabled={busy} onClick={quick}>
                {t("quick.button")}
              </button>
              <BotRatings levelName={levelName} />
            </section>
            <section class="panel">
              <details>
                <summary><h2>{t("create.title")}</h2></summary>
                {opts ? <CreateForm opts={opts} onCreated={(c, mine) => setCreated([c, mine])} /> : <p>{t("common.loading")}</p>}
              </details>
            </section>
          </>
        )}
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
        <section class="panel">
          <h2>{t("replays.title")}</h2>
          {finished.length === 0 ? <p>{t("replays.none")}</p> : (
            <ul class="tables">{finished.map((x) => <TableRow table={x} guest={guest} onError={setError} />)}</ul>
          )}
        </section>
      </main>
      {created && <Invites created={created[0]} mine={created[1]} onClose={() => setCreated(null)} />}
    </div>
  );
}
