/**
 * The score pad's pages (loaded on demand from the lobby's link): the list of games, a new
 * game, a game's sheet with its hand form, and a shared sheet (read only, from the link).
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { go, Header, navigate } from "../components";
import { CATALOGS, lang, presetNote, useLang } from "../i18n";
import { reasonIn } from "../reasons";
import { cardsBurraco, checkInSheet, meldLines, textPoints, type Refusal } from "./checks";
import { readMeld, type ReadMeld } from "./meld";
import {
  kindsOf, packsFor, pozzettoStatus, PRESET_NAMES, presetRules, scoreSide, type PadRules, type SideEntry, type SideScore,
} from "./score";
import { decodeSheet, shareUrl } from "./share";
import {
  blankHand, computeSheet, handSides, newSheet, PLAYER_COUNTS, scoreHand, scorerNames, sideName,
  smazzateAllowed, TARGETS, type HandEntry, type Sheet, type SheetState,
} from "./sheet";
import { usePadAccount } from "./account";
import { onPadChange, padStore } from "./store";
import { SyncedPadStore } from "./sync";
import { kindName, tp, type PadKey } from "./strings";
import "./pad.css";

export function PadPage(props: { path: string }) {
  useLang();
  usePadAccount(); // logged in: the sheets are the account's too (sync.ts)
  const parts = props.path.split("/").filter(Boolean);
  let body;
  if (parts[1] === "new") body = <NewGame />;
  else if (parts[1] === "g" && parts[2]) body = <GamePage id={decodeURIComponent(parts[2])} />;
  else if (parts[1] === "view") body = <SharedPage />;
  else body = <GameList />;
  return (
    <div class="page pad">
      <Header><a class="pad-home" href="/pad/" onClick={navigate}>{tp("pad.title")}</a></Header>
      <main>{body}</main>
    </div>
  );
}

function GameList() {
  const [sheets, setSheets] = useState(() => padStore().list());
  // a sync may bring sheets (read again once subscribed: one may have ended before)
  useEffect(() => {
    const stop = onPadChange(() => setSheets(padStore().list()));
    setSheets(padStore().list());
    return stop;
  }, []);
  const states = sheets.map((s) => [s, safeCompute(s)] as const);
  const current = padStore();
  const refused = current instanceof SyncedPadStore ? current.refused : {};
  const open = states.filter(([, st]) => !st || !st.finished);
  const done = states.filter(([, st]) => st && st.finished);
  const remove = (id: string) => {
    if (!confirm(tp("pad.deleteConfirm"))) return;
    padStore().remove(id);
    setSheets(padStore().list());
  };
  const row = ([sheet, st]: readonly [Sheet, SheetState | null]) => (
    <li class="pad-row" data-sheet={sheet.id}>
      <a href={`/pad/g/${sheet.id}`} onClick={navigate}>
        <strong>{scorerNames(sheet.names).join(" – ")}</strong>
        <span class="note">
          {st ? st.totals.join(" – ") : ""} · {sheet.preset} · {matchText(sheet)} · {new Date(sheet.created).toLocaleDateString()}
        </span>
      </a>
      <button type="button" class="link" onClick={() => remove(sheet.id)}>{tp("pad.delete")}</button>
      {refused[sheet.id] ? <p class="note pad-refused" role="status">{tp("pad.notSaved", { reason: refused[sheet.id] })}</p> : null}
    </li>
  );
  return (
    <>
      <section class="panel">
        <h1>{tp("pad.title")}</h1>
        <p>{tp("pad.intro")}</p>
        <a class="button primary big" href="/pad/new" onClick={navigate}>{tp("pad.new")}</a>
        <p class="note" data-testid="pad-storage">{padStore() instanceof SyncedPadStore
          ? tp("pad.storageAccount", { name: (padStore() as SyncedPadStore).name }) : tp("pad.storage")}</p>
      </section>
      <section class="panel">
        <h2>{tp("pad.games")}</h2>
        {open.length ? <ul class="pad-list">{open.map(row)}</ul> : <p class="note">{tp("pad.none")}</p>}
      </section>
      <section class="panel">
        <h2>{tp("pad.history")}</h2>
        {done.length ? <ul class="pad-list">{done.map(row)}</ul> : <p class="note">{tp("pad.none")}</p>}
      </section>
    </>
  );
}

function safeCompute(sheet: Sheet): SheetState | null {
  try {
    return computeSheet(sheet);
  } catch {
    return null;
  }
}

function matchText(sheet: Sheet): string {
  return sheet.mode === "free" ? tp("game.to", { n: sheet.target }) : `${sheet.smazzate} ${tp("setup.hands").toLowerCase()} · VP`;
}

function NewGame() {
  const [players, setPlayers] = useState(4);
  const [names, setNames] = useState<string[]>(Array(6).fill(""));
  const [preset, setPreset] = useState("fibur");
  const [mode, setMode] = useState<"free" | "smazzate">("free");
  const [target, setTarget] = useState<number | null>(null);
  const [smazzate, setSmazzate] = useState(3);
  const [dealer, setDealer] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rules = presetRules(preset);
  const defaultTarget = players === 3 ? rules.three_player_target : players === 5 ? rules.five_player_target : rules.target;
  const shownTarget = target ?? defaultTarget;
  const seatNames = Array.from({ length: players }, (_, i) => names[i].trim() || tp("setup.name", { n: i + 1 }));
  const vpOk = smazzateAllowed(preset, players, smazzate);
  const submit = (ev: Event) => {
    ev.preventDefault();
    try {
      const sheet = newSheet(seatNames, preset, mode, shownTarget, smazzate, dealer ?? players - 1);
      padStore().save(sheet);
      go(`/pad/g/${sheet.id}`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="panel pad-setup" onSubmit={submit}>
      <h1>{tp("pad.new")}</h1>
      <fieldset>
        <legend>{tp("setup.players")}</legend>
        <div class="pad-choices">
          {PLAYER_COUNTS.map((n) => (
            <button type="button" class={n === players ? "on" : ""} aria-pressed={n === players} data-players={n}
              onClick={() => { setPlayers(n); setDealer(null); }}>{n}</button>
          ))}
        </div>
        {(players === 4 || players === 6) && <p class="note">{tp("setup.pairsNote")}</p>}
        {seatNames.map((_, i) => (
          <label>
            {tp("setup.name", { n: i + 1 })}
            <input name={`name${i}`} value={names[i]} maxLength={24} placeholder={tp("setup.name", { n: i + 1 })}
              onInput={(e) => { const next = [...names]; next[i] = (e.target as HTMLInputElement).value; setNames(next); }} />
          </label>
        ))}
      </fieldset>
      <label>
        {tp("setup.rules")}
        <select name="preset" value={preset} onChange={(e) => { setPreset((e.target as HTMLSelectElement).value); setTarget(null); }}>
          {PRESET_NAMES.map((p) => <option value={p}>{p}</option>)}
        </select>
        <small class="preset-note">{presetNote(preset, rules.note)}</small>
      </label>
      <fieldset>
        <legend>{tp("setup.match")}</legend>
        <label class="inline"><input type="radio" name="mode" checked={mode === "free"} onChange={() => setMode("free")} />{tp("setup.free")}</label>
        {mode === "free" && (
          <label class="sub">
            {tp("setup.target")}
            <select name="target" value={String(shownTarget)} onChange={(e) => setTarget(Number((e.target as HTMLSelectElement).value))}>
              {[...new Set([...TARGETS, defaultTarget])].sort((a, b) => a - b).map((n) => <option value={String(n)}>{n}</option>)}
            </select>
          </label>
        )}
        <label class="inline"><input type="radio" name="mode" checked={mode === "smazzate"} onChange={() => setMode("smazzate")} />{tp("setup.smazzate")}</label>
        {mode === "smazzate" && (
          <label class="sub">
            {tp("setup.hands")}
            <select name="smazzate" value={String(smazzate)} onChange={(e) => setSmazzate(Number((e.target as HTMLSelectElement).value))}>
              {[3, 4].map((n) => <option value={String(n)}>{n}</option>)}
            </select>
          </label>
        )}
        {mode === "smazzate" && !vpOk && <p class="error" role="alert">{tp("setup.noVp")}</p>}
      </fieldset>
      <label>
        {tp("setup.dealer")}
        <select name="dealer" value={String(dealer ?? players - 1)} onChange={(e) => setDealer(Number((e.target as HTMLSelectElement).value))}>
          {seatNames.map((n, i) => <option value={String(i)}>{n}</option>)}
        </select>
      </label>
      <button type="submit" class="primary big" disabled={mode === "smazzate" && !vpOk}>{tp("setup.start")}</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

function GamePage(props: { id: string }) {
  const [sheet, setSheet] = useState<Sheet | null>(() => padStore().load(props.id));
  const [editing, setEditing] = useState<number | null>(null);
  // a sync may bring this sheet (opened by its address before the sync ended) or a later version
  useEffect(() => {
    const reload = () => { if (editing === null) setSheet(padStore().load(props.id)); };
    const stop = onPadChange(reload);
    reload();
    return stop;
  }, [props.id, editing]);
  if (!sheet) {
    return <section class="panel"><p>{tp("pad.none")}</p><a href="/pad/" onClick={navigate}>{tp("pad.back")}</a></section>;
  }
  const save = (next: Sheet) => {
    padStore().save(next);
    setSheet(next);
    setEditing(null);
  };
  const remove = () => {
    if (!confirm(tp("pad.deleteConfirm"))) return;
    padStore().remove(sheet.id);
    go("/pad/");
  };
  const dropLast = () => {
    if (!confirm(tp("game.dropConfirm", { n: sheet.hands.length }))) return;
    save({ ...sheet, hands: sheet.hands.slice(0, -1) });
  };
  return (
    <>
      <SheetView sheet={sheet} onCorrect={(i) => setEditing(i)} editing={editing} />
      {editing !== null ? (
        <HandForm key={`${editing}-${sheet.hands.length}`} sheet={sheet} index={editing}
          onSave={(hand) => {
            const hands = [...sheet.hands];
            hands[editing] = hand;
            save({ ...sheet, hands });
          }}
          onCancel={() => setEditing(null)} />
      ) : (
        <div class="pad-actions no-print">
          {!computeSheet(sheet).finished && (
            <button type="button" class="primary big" data-action="enter" onClick={() => setEditing(sheet.hands.length)}>
              {tp("game.enter", { n: sheet.hands.length + 1 })}
            </button>
          )}
          {sheet.hands.length > 0 && (
            <button type="button" data-action="drop" onClick={dropLast}>{tp("game.dropLast", { n: sheet.hands.length })}</button>
          )}
          <ShareButton sheet={sheet} />
          <button type="button" onClick={() => window.print()}>{tp("game.print")}</button>
          <button type="button" onClick={remove}>{tp("pad.delete")}</button>
          <a href="/pad/" onClick={navigate}>{tp("pad.back")}</a>
        </div>
      )}
    </>
  );
}

function ShareButton(props: { sheet: Sheet }) {
  const [copied, setCopied] = useState<string | null>(null);
  const share = async () => {
    const url = shareUrl(props.sheet);
    setCopied(url);
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      /* no clipboard (plain http): the link is shown to copy by hand */
    }
  };
  return (
    <>
      <button type="button" data-action="share" onClick={share}>{tp("game.share")}</button>
      {copied && (
        <p class="pad-share note" role="status">
          {tp("game.shareCopied")} <a href={copied} class="share-link">{copied.length > 60 ? copied.slice(0, 60) + "…" : copied}</a>
        </p>
      )}
    </>
  );
}

function SharedPage() {
  const decoded = useMemo(() => decodeSheet(location.hash), [location.hash]);
  if (decoded instanceof Error) {
    return <section class="panel"><p class="error" role="alert">{tp("game.badLink", { reason: decoded.message })}</p></section>;
  }
  const keep = () => {
    padStore().save(decoded);
    go(`/pad/g/${decoded.id}`);
  };
  return (
    <>
      <p class="note">{tp("game.readonly")}</p>
      <SheetView sheet={decoded} />
      <div class="pad-actions no-print">
        <button type="button" onClick={() => window.print()}>{tp("game.print")}</button>
        <button type="button" onClick={keep}>{tp("game.keep")}</button>
      </div>
    </>
  );
}

/** The sheet: totals, who deals, the winner, every hand with its breakdown. */
function SheetView(props: { sheet: Sheet; onCorrect?: (index: number) => void; editing?: number | null }) {
  const { sheet } = props;
  const state = safeCompute(sheet);
  if (!state) return <p class="error" role="alert">{tp("game.badLink", { reason: "?" })}</p>;
  const scorers = scorerNames(sheet.names);
  const n = state.hands.length;
  const levels = state.totals.filter((t) => t === Math.max(...state.totals)).length > 1;
  return (
    <section class="panel pad-sheet">
      <h1 class="pad-names">{scorers.join(" – ")}</h1>
      <p class="note">{sheet.preset} · {matchText(sheet)}{sheet.mode === "smazzate" ? ` · ${tp("game.handsOf", { n, m: sheet.smazzate })}` : ""}</p>
      <ol class="pad-totals">
        {scorers.map((name, k) => (
          <li class={state.winner === k ? "winner" : ""} data-scorer={k}>
            <span class="who">{name}</span>
            <span class="points" data-total={state.totals[k]}>{state.totals[k]}</span>
            {state.vp && <span class="vp">{state.vp[k]} VP</span>}
          </li>
        ))}
      </ol>
      {state.winner !== null && (
        <p class="pad-winner" role="status" data-winner={state.winner}>
          {tp("game.winner", { name: scorers[state.winner], points: state.totals[state.winner] })}
        </p>
      )}
      {state.finished && state.winner === null && <p class="pad-winner" role="status">{tp("game.over")}</p>}
      {!state.finished && sheet.mode === "free" && levels && Math.max(...state.totals) >= state.target && (
        <p class="banner">{tp("game.level", { names: scorers.filter((_, k) => state.totals[k] === Math.max(...state.totals)).join(", ") })}</p>
      )}
      <p class="pad-dealer" data-dealer={state.dealer}>
        {n > 0 && tp("game.dealt", { name: sheet.names[state.hands[n - 1].dealer], n })}{" "}
        {!state.finished && tp("game.deals", { name: sheet.names[state.dealer], n: n + 1 })}
      </p>
      {state.individual && !state.finished && <p class="note">{tp("game.individual")}</p>}
      {sheet.mode === "smazzate" && state.vp && (
        <p class="note">{tp("game.vp")}: {scorers.map((s, k) => `${s} ${state.vp![k]}`).join(" – ")} ({tp("game.mp")}: {state.totals.join(" – ")})</p>
      )}
      {n > 0 && (
        <table class="pad-table">
          <thead>
            <tr>
              <th>{tp("game.hand")}</th>
              {scorers.map((s) => <th>{s}</th>)}
              {props.onCorrect && <th class="no-print" />}
            </tr>
          </thead>
          <tbody>
            {state.hands.map((h, i) => (
              <tr class={props.editing === i ? "editing" : ""} data-hand={i + 1}>
                <td>{h.number}<small class="dealer-mark" title={tp("game.dealer")}> {sheet.names[h.dealer]}</small></td>
                {h.points.map((p, k) => (
                  <td><span class="hand-points">{p > 0 ? `+${p}` : p}</span><br /><strong class="running">{h.totals[k]}</strong></td>
                ))}
                {props.onCorrect && (
                  <td class="no-print"><button type="button" class="link" data-correct={i + 1} onClick={() => props.onCorrect!(i)}>{tp("game.correct")}</button></td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {n > 0 && (
        <div class="pad-details no-print">
          {state.hands.map((h) => (
            <details>
              <summary>{tp("hand.title", { n: h.number })}</summary>
              {h.sides.map((seats, i) => <Breakdown name={sideName(sheet.names, seats)} score={h.scores[i]} />)}
            </details>
          ))}
        </div>
      )}
      {n > 0 && (
        <div class="pad-details print-only">
          {state.hands.map((h) => (
            <div>
              <h3>{tp("hand.title", { n: h.number })} · {tp("game.dealer")}: {sheet.names[h.dealer]}</h3>
              {h.sides.map((seats, i) => <Breakdown name={sideName(sheet.names, seats)} score={h.scores[i]} />)}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

function Breakdown(props: { name: string; score: SideScore | null }) {
  const s = props.score;
  if (!s) return <p class="note">{props.name}: –</p>;
  const kinds = Object.entries(s.burraco).map(([k, n]) => `${n} ${kindName(k)}`).join(", ");
  return (
    <div class="breakdown">
      <strong>{props.name}</strong>
      <span>{tp("part.melds")} {s.melds}</span>
      <span>{tp("part.bonuses")} {s.bonuses}{kinds && ` (${kinds})`}</span>
      {s.closing !== 0 && <span>{tp("part.closing")} {s.closing}</span>}
      {s.pozzetto !== 0 && <span>{tp("part.pozzetto")} {s.pozzetto}</span>}
      {s.hand !== 0 && <span>{tp("part.hand")} {s.hand}</span>}
      <span class="total">{tp("part.total")} <b data-side-total={s.total}>{s.total}</b></span>
    </div>
  );
}

/** Numbers as typed: empty is 0, anything else must read as a number (or the check says so). */
function num(text: string): number {
  return text.trim() === "" ? 0 : Number(text);
}

interface SideDraft {
  melds: string;
  hand: string;
  unplayed: string;
  byCards: boolean;
  meldCards: string;
  handCards: string;
}

function draftOf(entry: SideEntry): SideDraft {
  return {
    melds: entry.melds ? String(entry.melds) : "", hand: entry.hand ? String(entry.hand) : "",
    unplayed: entry.unplayed ? String(entry.unplayed) : "", byCards: Boolean(entry.cards),
    meldCards: entry.cards?.melds ?? "", handCards: entry.cards?.hand ?? "",
  };
}

/** The side's entry from the form; card by card, the melds' points and burraco come from the cards. */
function entryOf(base: SideEntry, d: SideDraft, rules: PadRules, packs: number): SideEntry {
  const entry: SideEntry = { ...base, melds: num(d.melds), hand: num(d.hand), unplayed: base.took && !base.played ? num(d.unplayed) : 0 };
  delete entry.cards;
  if (d.byCards) {
    entry.cards = { melds: d.meldCards, hand: d.handCards };
    const melds = meldLines(d.meldCards).map((line) => readMeld(line, rules, packs));
    if (melds.every((m) => typeof m !== "string")) {
      entry.melds = (melds as ReadMeld[]).reduce((sum, m) => sum + m.points, 0);
      entry.burraco = cardsBurraco(d.meldCards, rules, packs) ?? {};
    }
    const hand = d.handCards.trim() ? textPoints(d.handCards) : 0;
    if (typeof hand === "number") entry.hand = hand;
  }
  return entry;
}

/** Each meld written card by card as the pad reads it, or why it is no meld. */
function ReadMelds(props: { text: string; rules: PadRules; packs: number }) {
  const lines = meldLines(props.text);
  if (!lines.length) return null;
  return (
    <ul class="pad-read">
      {lines.map((line) => {
        const meld = readMeld(line, props.rules, props.packs);
        if (typeof meld === "string") return <li class="error">{line}: {reasonFor(meld)}</li>;
        return <li data-type={meld.type ?? ""}>{meld.text} · {meld.points}{meld.type && <b> · {kindName(meld.type)}</b>}</li>;
      })}
    </ul>
  );
}

function reasonFor(reason: string): string {
  return reasonIn(CATALOGS[lang()].groups, reason);
}

function HandForm(props: { sheet: Sheet; index: number; onSave: (hand: HandEntry) => void; onCancel: () => void }) {
  const { sheet, index } = props;
  const players = sheet.names.length;
  const before = computeSheet({ ...sheet, hands: sheet.hands.slice(0, index) });
  const rules = before.rules;
  const existing = sheet.hands[index];
  const [solo, setSolo] = useState(existing?.solo ?? -1);
  const [entries, setEntries] = useState<SideEntry[]>(() => existing?.sides ?? blankHand(players, -1).sides);
  const [drafts, setDrafts] = useState<SideDraft[]>(() => entries.map(draftOf));
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const sides = handSides(players, solo);
  const kinds = kindsOf(rules);
  const soloAllowed = (players === 3 || players === 5) && !before.individual;

  const changeSolo = (next: number) => {
    setSolo(next);
    const fresh = blankHand(players, next).sides;
    if (next >= 0) fresh[0].took = true;
    setEntries(fresh);
    setDrafts(fresh.map(draftOf));
    setRefusals([]);
  };
  const setEntry = (i: number, change: Partial<SideEntry>) => {
    setEntries(entries.map((e, k) => (k === i ? { ...e, ...change } : e)));
    setRefusals([]);
  };
  const setDraft = (i: number, change: Partial<SideDraft>) => {
    setDrafts(drafts.map((d, k) => (k === i ? { ...d, ...change } : d)));
    setRefusals([]);
  };
  const packs = packsFor(rules, players);
  const hand: HandEntry = { solo, sides: entries.map((e, i) => entryOf(e, drafts[i], rules, packs)) };
  const anybody = hand.sides.some((s) => s.took);
  let scored: ReturnType<typeof scoreHand> | null = null;
  try {
    scored = scoreHand(players, hand, rules);
  } catch {
    scored = null;
  }
  const submit = (ev: Event) => {
    ev.preventDefault();
    const found = checkInSheet(sheet, index, hand);
    setRefusals(found);
    if (!found.length) props.onSave(hand);
  };
  const title = index < sheet.hands.length ? tp("hand.fix", { n: index + 1 }) : tp("hand.title", { n: index + 1 });
  return (
    <form class="panel pad-hand" onSubmit={submit} noValidate>
      <h2>{title}</h2>
      <p class="note">{tp("game.dealer")}: {sheet.names[(sheet.firstDealer + index) % players]}</p>
      {soloAllowed && (
        <label>
          {tp("hand.solo")}
          <select name="solo" value={String(solo)} onChange={(e) => changeSolo(Number((e.target as HTMLSelectElement).value))}>
            <option value="-1">{tp("hand.soloNone")}</option>
            {sheet.names.map((n, i) => <option value={String(i)}>{n}</option>)}
          </select>
        </label>
      )}
      {(players === 3 || players === 5) && before.individual && <p class="note">{tp("hand.individualNow")}</p>}
      {sides.map((seats, i) => {
        const e = entries[i];
        const d = drafts[i];
        const entry = hand.sides[i];
        let score: SideScore | null = null;
        try {
          score = scoreSide(entry, pozzettoStatus(entry.took, anybody), rules);
        } catch {
          score = null;
        }
        const mine = refusals.filter((r) => r.side === i);
        return (
          <fieldset class="pad-side" data-side={i}>
            <legend>{sideName(sheet.names, seats)}</legend>
            <div class="pad-mode">
              <button type="button" data-mode="number" class={!d.byCards ? "on" : ""} onClick={() => setDraft(i, { byCards: false })}>{tp("hand.byNumber")}</button>
              <button type="button" data-mode="cards" class={d.byCards ? "on" : ""} onClick={() => setDraft(i, { byCards: true })}>{tp("hand.byCards")}</button>
            </div>
            {d.byCards ? (
              <label>
                {tp("hand.meldCards")}
                <textarea name="meldCards" rows={3} value={d.meldCards} autocapitalize="characters"
                  onInput={(ev) => setDraft(i, { meldCards: (ev.target as HTMLTextAreaElement).value })} />
                <small>{tp("field.melds")}: {entry.melds}</small>
              </label>
            ) : (
              <label>
                {tp("field.melds")}
                <input name="melds" inputMode="numeric" value={d.melds} onInput={(ev) => setDraft(i, { melds: (ev.target as HTMLInputElement).value })} />
              </label>
            )}
            {d.byCards && <ReadMelds text={d.meldCards} rules={rules} packs={packs} />}
            <div class="pad-kinds" hidden={d.byCards}>
              {kinds.map((kind) => (
                <div class="stepper" data-kind={kind}>
                  <span>{kindName(kind)}</span>
                  <button type="button" aria-label={`− ${kindName(kind)}`} data-step="-1"
                    onClick={() => setEntry(i, { burraco: { ...e.burraco, [kind]: Math.max(0, (e.burraco[kind] ?? 0) - 1) } })}>−</button>
                  <output>{e.burraco[kind] ?? 0}</output>
                  <button type="button" aria-label={`+ ${kindName(kind)}`} data-step="1"
                    onClick={() => setEntry(i, { burraco: { ...e.burraco, [kind]: (e.burraco[kind] ?? 0) + 1 } })}>+</button>
                </div>
              ))}
            </div>
            <label class="inline">
              <input type="checkbox" name="took" checked={e.took} disabled={solo >= 0 && i === 0}
                onChange={(ev) => setEntry(i, { took: (ev.target as HTMLInputElement).checked })} />
              {tp("hand.took")}
            </label>
            {e.took && (
              <label class="inline sub">
                <input type="checkbox" name="played" checked={e.played} onChange={(ev) => setEntry(i, { played: (ev.target as HTMLInputElement).checked })} />
                {tp("hand.played")}
              </label>
            )}
            {e.took && !e.played && (
              <label class="sub">
                {tp("field.unplayed")}
                <input name="unplayed" inputMode="numeric" value={d.unplayed} onInput={(ev) => setDraft(i, { unplayed: (ev.target as HTMLInputElement).value })} />
              </label>
            )}
            <label class="inline">
              <input type="checkbox" name="closed" checked={e.closed} onChange={(ev) => setEntry(i, { closed: (ev.target as HTMLInputElement).checked })} />
              {tp("hand.closed")}
            </label>
            {d.byCards ? (
              <label>
                {tp("hand.handCards")}
                <input name="handCards" value={d.handCards} autocapitalize="characters" onInput={(ev) => setDraft(i, { handCards: (ev.target as HTMLInputElement).value })} />
                <small>{tp("field.hand")}: {entry.hand}</small>
              </label>
            ) : (
              <label>
                {tp("field.hand")}
                <input name="hand" inputMode="numeric" value={d.hand} onInput={(ev) => setDraft(i, { hand: (ev.target as HTMLInputElement).value })} />
              </label>
            )}
            <Breakdown name={tp("hand.breakdown")} score={score} />
            {scored && (players === 3 || players === 5) && seats.length === 2 && (
              <p class="note">{seats.map((s) => `${sheet.names[s]} ${scored!.points[s]}`).join(", ")}</p>
            )}
            {mine.length > 0 && <ul class="error pad-refusals">{mine.map((r) => <li>{refusalText(r)}</li>)}</ul>}
          </fieldset>
        );
      })}
      {refusals.length > 0 && (
        <div class="error pad-refused" role="alert">
          <p>{tp("hand.refused")}</p>
          <ul>{refusals.map((r) => <li>{r.side >= 0 ? `${sideName(sheet.names, sides[r.side])}: ` : ""}{refusalText(r)}</li>)}</ul>
        </div>
      )}
      <div class="pad-actions">
        <button type="submit" class="primary big" data-action="save">{tp("hand.save")}</button>
        <button type="button" onClick={props.onCancel}>{tp("hand.cancel")}</button>
      </div>
    </form>
  );
}

export function refusalText(r: Refusal): string {
  const params = { ...r.params };
  if (typeof params.kind === "string") params.kind = kindName(params.kind);
  if (typeof params.reason === "string") params.reason = reasonFor(params.reason);
  return tp(r.key as PadKey, params);
}

export default PadPage;
