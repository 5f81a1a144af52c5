/**
 * Creating a table: the rules by their names and the common choices (players, length, seats,
 * clock, the bots' pace, private, casual or rated) in sight; every other option folded under
 * "More rules", each edited with a control of its own (no option is typed as JSON).
 */
import { useState } from "preact/hooks";
import { createTable, savedGuest, type CreatedTable, type FormOptions, type TableRequest } from "./api";
import { errorText } from "./errors";
import { choiceLabel, optionLabel, presetName, presetNote, t, useLang } from "./i18n";
import { PACES, type Pace } from "./play";
import { isAccount, pt } from "./players";

export interface FormState {
  players: number;
  rules: string;
  mode: "free" | "smazzate";
  target: string;
  smazzate: string;
  /** the length picked: `hands:1`, `target:505`, … or `hands` / `target` for another count */
  format: string;
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

/** The lengths offered, shortest first; the last two open a field for another count. */
export const FORMATS = ["hands:1", "target:505", "target:1005", "target:2005", "hands", "target"] as const;
const CLOCKS = ["", "30", "60", "90", "120"];
const RANKS = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const RANK_TEXT: Record<number, string> = { 1: "A", 11: "J", 12: "Q", 13: "K" };
/** Burraco kinds the engine scores under some preset (the bonuses' and the closing's choices). */
const KINDS = ["clean", "semi-clean", "dirty", "super", "dirty-super", "royal", "dirty-royal", "complete", "champion"];

function presetValues(opts: FormOptions, name: string): Record<string, unknown> {
  return opts.presets.find((p) => p.name === name)?.values ?? {};
}

function optionText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Mode, target and hands for a length picked in the form. */
export function formatFields(format: string, form: FormState): Partial<FormState> {
  const [kind, count] = format.split(":");
  if (kind === "hands") return { format, mode: "smazzate", smazzate: count ?? form.smazzate };
  return { format, mode: "free", target: count ?? form.target };
}

export function defaultForm(opts: FormOptions): FormState {
  const def = Object.fromEntries(opts.table.map((f) => [f.name, f.default]));
  const values = presetValues(opts, String(def.rules));
  return {
    players: Number(def.players), rules: String(def.rules), mode: "smazzate",
    target: String(values.target ?? ""), smazzate: "1", format: "hands:1",
    kinds: ["human", "bot", "bot", "bot", "bot", "bot"], levels: Array(6).fill("basic"), mine: 0,
    public: Boolean(def.public), casual: Boolean(def.casual), rated: false, turnSeconds: "",
    graceSeconds: String(def.grace_seconds), standin: String(def.standin),
    botDelay: String(PACES.normal),
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

/** The pace whose pause the form holds, if it is one of the three. */
function paceOf(delay: string): Pace | "" {
  const found = (Object.keys(PACES) as Pace[]).find((p) => String(PACES[p]) === delay);
  return found ?? "";
}

/**
 * A list-valued rule option with a control of its own: the ranks allowed in sets as boxes, the
 * burraco bonuses as numbers, the closing's alternatives as boxes, the VP tables read-only.
 */
function ListOption(props: { name: string; text: string; onText: (text: string) => void }) {
  const value = JSON.parse(props.text || "null") as unknown;
  const label = optionLabel(props.name);
  if (props.name === "set_ranks") {
    const ranks = (value as number[] | null) ?? RANKS;
    const toggle = (r: number, on: boolean) => {
      const next = RANKS.filter((x) => (x === r ? on : ranks.includes(x)));
      props.onText(JSON.stringify(next.length === RANKS.length ? null : next));
    };
    return (
      <fieldset class="option-list" data-option={props.name}>
        <legend>{label}</legend>
        {RANKS.map((r) => (
          <label class="inline"><input type="checkbox" name={`opt-set_ranks-${r}`} checked={ranks.includes(r)}
            onChange={(e) => toggle(r, (e.target as HTMLInputElement).checked)} />{RANK_TEXT[r] ?? String(r)}</label>
        ))}
      </fieldset>
    );
  }
  if (props.name === "bonuses") {
    const bonuses = (value as [string, number][] | null) ?? [];
    const points = (kind: string) => bonuses.find(([k]) => k === kind)?.[1];
    const setPoints = (kind: string, text: string) => {
      const rest = bonuses.filter(([k]) => k !== kind);
      const next = text === "" ? rest : [...rest, [kind, Number(text)] as [string, number]];
      next.sort((a, b) => KINDS.indexOf(a[0]) - KINDS.indexOf(b[0]));
      props.onText(JSON.stringify(next));
    };
    return (
      <fieldset class="option-list" data-option={props.name}>
        <legend>{label}</legend>
        {KINDS.map((kind) => (
          <label class="inline">{choiceLabel(kind)}
            <input type="number" min={0} max={2000} step={5} name={`opt-bonuses-${kind}`} value={points(kind) ?? ""}
              onInput={(e) => setPoints(kind, (e.target as HTMLInputElement).value)} /></label>
        ))}
      </fieldset>
    );
  }
  if (props.name === "closing_alternatives") {
    const kinds = (value as string[] | null) ?? [];
    const toggle = (kind: string, on: boolean) =>
      props.onText(JSON.stringify(KINDS.filter((k) => (k === kind ? on : kinds.includes(k)))));
    return (
      <fieldset class="option-list" data-option={props.name}>
        <legend>{label}</legend>
        {KINDS.filter((k) => k !== "dirty").map((kind) => (
          <label class="inline"><input type="checkbox" name={`opt-closing_alternatives-${kind}`}
            checked={kinds.includes(kind)} onChange={(e) => toggle(kind, (e.target as HTMLInputElement).checked)} />
            {choiceLabel(kind)}</label>
        ))}
      </fieldset>
    );
  }
  // the victory-point tables: the federation's, shown, not edited
  return (
    <div class="option-list" data-option={props.name}>
      <span>{label}</span> <small>{t("create.fixedOption")}</small>
    </div>
  );
}

function RuleOptions(props: { opts: FormOptions; form: FormState; set: (c: Partial<FormState>) => void }) {
  const { opts, form, set } = props;
  const setOption = (name: string, text: string) => set({ options: { ...form.options, [name]: text } });
  return (
    <div class="options">
      {opts.options.filter((o) => o.name !== "target").map((o) => o.kind === "json" ? (
        <ListOption name={o.name} text={form.options[o.name] ?? "null"} onText={(text) => setOption(o.name, text)} />
      ) : (
        <label data-option={o.name}>
          <span>{optionLabel(o.name)}</span>
          {o.kind === "bool" ? (
            <select name={`opt-${o.name}`} value={form.options[o.name]}
              onChange={(e) => setOption(o.name, (e.target as HTMLSelectElement).value)}>
              <option value="true">{t("create.yes")}</option>
              <option value="false">{t("create.no")}</option>
            </select>
          ) : o.kind === "choice" ? (
            <select name={`opt-${o.name}`} value={form.options[o.name]}
              onChange={(e) => setOption(o.name, (e.target as HTMLSelectElement).value)}>
              {o.choices!.map((c) => <option value={c}>{choiceLabel(c)}</option>)}
            </select>
          ) : (
            <input name={`opt-${o.name}`} type={o.kind === "int" ? "number" : "text"} value={form.options[o.name]}
              min={o.min} max={o.max}
              onInput={(e) => setOption(o.name, (e.target as HTMLInputElement).value)} />
          )}
        </label>
      ))}
    </div>
  );
}

function SeatRows(props: { opts: FormOptions; form: FormState; set: (c: Partial<FormState>) => void;
  levelName: (l: string) => string }) {
  const { opts, form, set } = props;
  return (
    <>
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
              {opts.levels.map((l) => <option value={l}>{props.levelName(l)}</option>)}
            </select>
          ) : (
            <label class="inline">
              <input type="radio" name="mine" checked={form.mine === i} onChange={() => set({ mine: i })} />
              {t("create.mine")}
            </label>
          )}
        </div>
      ))}
    </>
  );
}

export function CreateForm(props: {
  opts: FormOptions; levelName: (l: string) => string; partners: (players: number) => string | null;
  onCreated: (c: CreatedTable, mine: number | null) => void;
}) {
  useLang();
  const { opts } = props;
  const [form, setForm] = useState<FormState>(() => defaultForm(opts));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<FormState>) => setForm((f) => ({ ...f, ...change }));
  // the rules' options follow the preset picked; the length stays what the player chose
  const setRules = (name: string) => {
    const values = presetValues(opts, name);
    set({ rules: name,
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
  const partners = props.partners(form.players);
  const bots = form.kinds.slice(0, form.players).includes("bot");
  const pace = paceOf(form.botDelay);
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
            {opts.presets.map((p) => <option value={p.name}>{presetName(p.name)}</option>)}
          </select>
        </label>
      </div>
      {preset && <p class="note">{presetNote(preset.name, preset.note)}</p>}
      <div class="grid2">
        <label>
          {t("create.length")}
          <select name="format" value={form.format}
            onChange={(e) => set(formatFields((e.target as HTMLSelectElement).value, form))}>
            {FORMATS.map((f) => <option value={f}>{t(`format.${f}`)}</option>)}
          </select>
        </label>
        {form.format === "hands" && (
          <label>
            {t("create.smazzate")}
            <input name="smazzate" type="number" min={1} max={50} value={form.smazzate}
              onInput={(e) => set({ smazzate: (e.target as HTMLInputElement).value })} />
          </label>
        )}
        {form.format === "target" && (
          <label>
            {t("create.target")}
            <input name="target" type="number" min={1} value={form.target}
              onInput={(e) => set({ target: (e.target as HTMLInputElement).value })} />
          </label>
        )}
        <label>
          {t("create.clock")}
          <select name="clock" value={CLOCKS.includes(form.turnSeconds) ? form.turnSeconds : "other"}
            onChange={(e) => {
              const v = (e.target as HTMLSelectElement).value;
              if (v !== "other") set({ turnSeconds: v });
            }}>
            {CLOCKS.map((c) => <option value={c}>{c ? t("create.clockSeconds", { n: c }) : t("create.noClock")}</option>)}
            {!CLOCKS.includes(form.turnSeconds) && <option value="other">{t("create.clockSeconds", { n: form.turnSeconds })}</option>}
          </select>
        </label>
        {bots && (
          <label>
            {t("quick.pace")}
            <select name="pace" value={pace || "other"} onChange={(e) => {
              const v = (e.target as HTMLSelectElement).value as Pace | "other";
              if (v !== "other") set({ botDelay: String(PACES[v]) });
            }}>
              {(Object.keys(PACES) as Pace[]).map((p) => <option value={p}>{t(`pace.${p}`)}</option>)}
              {!pace && <option value="other">{t("create.paceSeconds", { n: form.botDelay })}</option>}
            </select>
          </label>
        )}
      </div>
      <fieldset>
        <legend>{t("create.seats")}</legend>
        {partners && <p class="note">{t("create.partners", { a: partners })}</p>}
        <SeatRows opts={opts} form={form} set={set} levelName={props.levelName} />
      </fieldset>
      <label class="inline">
        <input type="checkbox" name="private" checked={!form.public}
          onChange={(e) => set({ public: !(e.target as HTMLInputElement).checked })} />
        {t("create.private")}
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
      <details class="advanced" data-testid="more-rules">
        <summary>{t("create.advanced")}</summary>
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
              {opts.levels.map((l) => <option value={l}>{props.levelName(l)}</option>)}
            </select>
          </label>
          <label>
            {t("create.botDelay")}
            <input name="bot_delay" type="number" min={0} max={10} step={0.1} value={form.botDelay}
              onInput={(e) => set({ botDelay: (e.target as HTMLInputElement).value })} />
          </label>
        </div>
        <button type="button" class="link" onClick={() => setRules(form.rules)}>{t("create.reset")}</button>
        <RuleOptions opts={opts} form={form} set={set} />
      </details>
      <button type="submit" class="primary" disabled={busy}>{busy ? t("create.creating") : t("create.submit")}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
