/**
 * Replays: every finished hand of a table, move by move, all cards shown (the hand is over).
 * The page checks the deal commitment itself: SHA-256 of the revealed salt and deck must
 * equal the commitment sent before play, and the deck must deal exactly the recorded cards.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import {
  handReplay, keptTable, seenCommitment, tableHands, type HandReplay, type HandRow,
} from "./api";
import { AnalysisPanel } from "./analysis";
import { burracoType, FIBUR_TYPES } from "./burraco";
// the server classifies each meld of a replay; the client's own reading is the fallback
import { cardLabel, packOf } from "./cards";
import { CardBack, CardFace, Header, navigate } from "./components";
import { dealFromOrder } from "./deal";
import { cardCount, t, useLang, type Key } from "./i18n";
import { errorText, levelName } from "./lobby";
import { sha256Hex, commitmentText } from "./sha256";
import { ScoreTable } from "./table";

export interface CommitmentCheck {
  hash: boolean;
  deal: boolean;
  live: boolean | null;
}

function same(a: number[][], b: number[][]): boolean {
  return a.length === b.length && a.every((x, i) => x.length === b[i].length && x.every((c, j) => c === b[i][j]));
}

/** Check a finished hand's commitment against its reveal and its record's deal. */
export function checkCommitment(replay: HandReplay, live: string | null): CommitmentCheck {
  const { reveal, record } = replay;
  const hash = sha256Hex(commitmentText(reveal.salt, reveal.order)) === replay.commitment;
  const ids = record.deal.card_ids;
  let deal = false;
  try {
    const dealt = dealFromOrder(reveal.order, {
      players: record.players, dealer: record.dealer, cut: reveal.cut,
      sizes: ids.pozzetti.map((p) => p.length), handSize: ids.hands[0].length,
    });
    deal = same(dealt.hands, ids.hands) && same(dealt.pozzetti, ids.pozzetti)
      && same([dealt.stock], [ids.stock]) && same([dealt.pile], [ids.pile]);
  } catch {
    deal = false;
  }
  return { hash, deal, live: live === null ? null : live === replay.commitment };
}

function tokenFor(id: string): string | null {
  const query = new URLSearchParams(location.search).get("token");
  if (query) return query;
  const kept = keptTable(id);
  if (!kept) return null;
  const seat = Object.values(kept.seats)[0];
  return seat ?? kept.watch;
}

export function ReplayPage({ id }: { id: string }) {
  useLang();
  const token = useMemo(() => tokenFor(id), [id]);
  const wanted = Number(new URLSearchParams(location.search).get("hand") ?? 0);
  const [hands, setHands] = useState<HandRow[] | null>(null);
  const [number, setNumber] = useState<number | null>(null);
  const [replay, setReplay] = useState<HandReplay | null>(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    tableHands(id, token).then(({ hands }) => {
      const over = hands.filter((h) => h.record !== null);
      setHands(over);
      if (over.length) setNumber(over.some((h) => h.number === wanted) ? wanted : over[over.length - 1].number);
    }).catch((err) => setError(errorText(err)));
  }, [id]);

  useEffect(() => {
    if (number === null) return;
    setReplay(null);
    handReplay(id, number, token).then((r) => {
      setReplay(r);
      setStep(r.frames.length - 1);
    }).catch((err) => setError(errorText(err)));
  }, [number]);

  useEffect(() => {
    if (!playing || !replay) return;
    if (step >= replay.frames.length - 1) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setStep((s) => s + 1), 700);
    return () => clearTimeout(timer);
  }, [playing, step, replay]);

  const check = useMemo(() => (replay ? checkCommitment(replay, seenCommitment(id, replay.number)) : null), [replay]);

  const download = () => {
    if (!replay) return;
    const blob = new Blob([JSON.stringify(replay.record, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `burraco-${id}-hand-${replay.number}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };

  const names = (seat: number) => {
    const recorded = replay?.record.seats?.[seat];
    if (recorded?.startsWith("bot:")) return t("seat.bot", { n: seat + 1, level: levelName(recorded.slice(4)) });
    return recorded ?? t("seat.name", { n: seat + 1 });
  };

  return (
    <div class="page replay-page">
      <Header />
      <main>
        <h1>{t("replay.title")} <code>{id}</code></h1>
        {error && <p class="error" role="alert">{error}</p>}
        {hands !== null && hands.length === 0 && <p>{t("replay.none")}</p>}
        {hands && hands.length > 0 && (
          <nav class="hand-tabs" aria-label={t("replay.hands")}>
            {hands.map((h) => (
              <button type="button" class={h.number === number ? "on" : ""} onClick={() => setNumber(h.number)}>
                {t("replay.hand", { n: h.number })}
              </button>
            ))}
          </nav>
        )}
        {number !== null && !replay && !error && <p>{t("common.loading")}</p>}
        {replay && check && (
          <>
            <section class={`panel commitment ${check.hash && check.deal ? "ok" : "bad"}`} data-testid="commitment">
              <h2>{t("replay.commitment")}</h2>
              <p><code class="hash">{replay.commitment}</code></p>
              <p data-check={check.hash && check.deal ? "ok" : "bad"}>
                {check.hash && check.deal ? `✓ ${t("replay.checkOk")}`
                  : `✗ ${t("replay.checkBad", { what: !check.hash ? t("replay.checkHash") : t("replay.checkDeal") })}`}
              </p>
              {check.live !== null && <p data-live={check.live ? "ok" : "bad"}>{check.live ? `✓ ${t("replay.seenLive")}` : `✗ ${t("replay.seenLiveBad")}`}</p>}
              <button type="button" data-testid="download" onClick={download}>{t("replay.download")}</button>
            </section>
            <Controls step={step} total={replay.frames.length} setStep={setStep} playing={playing} setPlaying={setPlaying} />
            <Frame replay={replay} step={step} names={names} />
            <AnalysisPanel tableId={id} hand={replay.number} token={token} players={replay.record.players} names={names} step={step} setStep={setStep} />
            {step === replay.frames.length - 1 && (
              <section class="panel">
                <h2>{t("replay.result")}</h2>
                <ScoreTable result={replay.result} mySeat={null}
                  names={(seats) => seats.map(names).join(" & ")} />
              </section>
            )}
          </>
        )}
        <p><a href="/" onClick={navigate}>{t("nav.lobby")}</a></p>
      </main>
    </div>
  );
}

function Controls(props: { step: number; total: number; setStep: (n: number) => void; playing: boolean; setPlaying: (b: boolean) => void }) {
  const { step, total, setStep } = props;
  const last = total - 1;
  return (
    <div class="replay-controls" role="toolbar">
      <button type="button" data-replay="first" onClick={() => setStep(0)} disabled={step === 0}>« {t("replay.first")}</button>
      <button type="button" data-replay="prev" onClick={() => setStep(Math.max(0, step - 1))} disabled={step === 0}>◀ {t("replay.prev")}</button>
      <button type="button" data-replay="play" onClick={() => {
        if (!props.playing && step >= last) setStep(0);
        props.setPlaying(!props.playing);
      }}>{props.playing ? t("replay.pause") : t("replay.play")}</button>
      <button type="button" data-replay="next" onClick={() => setStep(Math.min(last, step + 1))} disabled={step === last}>{t("replay.next")} ▶</button>
      <button type="button" data-replay="last" onClick={() => setStep(last)} disabled={step === last}>{t("replay.last")} »</button>
      <input type="range" min={0} max={last} value={step} aria-label={t("replay.move", { i: step, n: last })}
        onInput={(e) => setStep(Number((e.target as HTMLInputElement).value))} />
      <span data-testid="replay-step">{step === 0 ? t("replay.deal") : t("replay.move", { i: step, n: last })}</span>
    </div>
  );
}

export function moveText(move: string): string {
  const [verb, ...args] = move.split(" ");
  const cards = (list: string[]) => list.map(cardLabel).join(" ");
  switch (verb) {
    case "draw": return t("move.draw");
    case "pickup": return t("move.pickup");
    case "meld": return t("move.meld", { cards: cards(args) });
    case "attach": return t("move.attach", { n: args[0], cards: cards(args.slice(1)) });
    case "discard": return t("move.discard", { card: cardLabel(args[0]) });
    case "time": return t("move.time");
    default: return move;
  }
}

function Frame(props: { replay: HandReplay; step: number; names: (seat: number) => string }) {
  const { replay, step, names } = props;
  const frame = replay.frames[step];
  const players = replay.record.players;
  const sides = [...new Set(frame.side_of)].sort();
  const rules = { ...FIBUR_TYPES };
  return (
    <section class="replay-frame" data-step={step}>
      {frame.move && frame.seat !== null && (
        <p class="replay-move" data-testid="replay-move"><strong>{names(frame.seat)}</strong> {moveText(frame.move)}</p>
      )}
      <div class="replay-hands">
        {Array.from({ length: players }, (_, seat) => (
          <div class={`replay-hand ${frame.turn === seat && frame.phase !== "over" ? "turn" : ""}`} data-seat={seat}>
            <h4>{names(seat)} <small>{cardCount(frame.hands[seat].length)}</small></h4>
            <div class="row">{frame.hands[seat].map(([c, cid]) => <CardFace text={c} id={cid} small />)}</div>
            {frame.pending[seat].length > 0 && (
              <div class="row pending" title={t("replay.pending")}>
                {frame.pending[seat].map(([c, cid]) => <CardFace text={c} id={cid} small class="dim" />)}
              </div>
            )}
          </div>
        ))}
      </div>
      <div class="replay-melds">
        {sides.map((side) => (
          <div class="side">
            <h4>{frame.side_of.map((s, seat) => (s === side ? names(seat) : null)).filter(Boolean).join(" & ")}</h4>
            {(frame.melds[side] ?? []).map((m) => {
              const type = m.type ?? burracoType(m.text, rules);
              return (
                <div class={`meld ${type ? `burraco ${type}` : ""}`}>
                  <div class="meld-cards">{m.text.split(" ").map((c) => <CardFace text={c} small />)}</div>
                  {type && <span class={`badge ${type}`}>{t(`type.${type}` as Key)}</span>}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div class="replay-table">
        <div>
          <h4>{t("table.pile")} <small>{cardCount(frame.pile.length)}</small></h4>
          <div class="row">{frame.pile.map(([c, cid]) => <CardFace text={c} id={cid} small />)}</div>
        </div>
        <div>
          <h4>{t("replay.stock")} <small>{cardCount(frame.stock.length)}</small></h4>
          <div class="row stock-row">{frame.stock.map(([c, cid]) => <CardFace text={c} id={cid} small />)}</div>
        </div>
        {frame.pozzetti.some((p) => p.length > 0) && <div>
          <h4>{t("replay.pozzetti")}</h4>
          {frame.pozzetti.filter((p) => p.length > 0).map((p) => (
            <div class="row">
              <CardBack pack={p.length ? packOf(p[0][1]) : 0} small />
              {p.map(([c, cid]) => <CardFace text={c} id={cid} small />)}
            </div>
          ))}
        </div>}
      </div>
    </section>
  );
}
