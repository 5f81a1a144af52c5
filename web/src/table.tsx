/** A table: the hand, the melds of both sides, stock, pile, pozzetti, players, score, dialogs. */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { Announcer } from "./a11y/announcer";
import { keptActive, rovingTarget } from "./a11y/roving";
import { cardSpoken } from "./a11y/spoken";
import {
  checkedGuest, formOptions, keptTable, savedGuest, seatToken, updateKept, type FormOptions, type GuestInfo, type HandResult,
} from "./api";
import { burracoType, FIBUR_TYPES, typeRules, type TypeRules } from "./burraco";
import { cardLabel, parseCard, type SortMode } from "./cards";
import { CardBack, CardFace, Dialog, go, Header, navigate } from "./components";
import { TableConnection, type HandEnded, type HandView, type LogLine, type TableState } from "./connection";
import { pressable, startDrag, type DropInfo } from "./drag";
import { moveCard, reconcile, sortedIds } from "./handorder";
import { cardCount, reasonText, t, useLang, type Key } from "./i18n";
import { errorText, levelName, NicknameForm } from "./lobby";
import { useTurnAlert } from "./feedback/alert";
import { loadFresh, nextFresh, saveFresh, type TurnView } from "./feedback/fresh";
import { TablePrefs } from "./feedback/TablePrefs";
import { useFlights } from "./feedback/useFlights";
import { Standing } from "./table/standing";
import { WaitingPanel } from "./table/waiting";
import { useFitHeight } from "./table/fit";
import { RuleText } from "./help/RuleText";
import { PlayAgain, QuickBar, QuickFeed, useCompany, type Company } from "./table/company";
import { InviteNote, inviteOf } from "./table/invite";
import { TutorialCoach } from "./table/tutorial";
import { useHandFit } from "./table/handfit";
import { scoreOrder } from "./table/scoreorder";
import { BadLink, useNudge } from "./table/nudge";
import { Avatar, seatAvatar } from "./avatars";

// --- who is who --------------------------------------------------------------------------

export function seatName(state: TableState, seat: number): string {
  const presence = state.seats[seat];
  const spec = state.config?.seats[seat];
  if (spec?.kind === "bot" || presence?.kind === "bot") {
    return t("seat.bot", { n: seat + 1, level: levelName(spec?.level ?? presence?.level ?? null) });
  }
  return presence?.nickname ?? t("seat.name", { n: seat + 1 });
}

function sidesOf(hand: HandView): number[] {
  return [...new Set(hand.side_of)].sort((a, b) => a - b);
}

function seatsOfSide(hand: HandView, side: number): number[] {
  return hand.side_of.map((s, seat) => (s === side ? seat : -1)).filter((s) => s >= 0);
}

/** Who scores each entry of the match's scores: per side (2, 4, 6 players) or per seat (3, 5). */
export function scorerSeats(players: number, scorers: number): number[][] {
  return Array.from({ length: scorers }, (_, k) =>
    Array.from({ length: players }, (_, s) => s).filter((s) => (scorers === players ? s === k : s % scorers === k)));
}

/** "Ada wins." / "Ada & Bob win." (the verb agrees with how many won); a seated loser is consoled. */
export function winnerText(names: string, count: number, seated: boolean): string {
  const one = count === 1;
  if (seated) return t(one ? "match.youLose1" : "match.youLose", { names });
  return t(one ? "match.winner1" : "match.winner", { names });
}

function namesOf(state: TableState, seats: number[]): string {
  return seats.map((s) => (s === state.seat ? t("table.you") : seatName(state, s))).join(" & ");
}

// --- the page ----------------------------------------------------------------------------

interface Props {
  id: string;
}

function credentialsFromUrl(id: string): void {
  const query = new URLSearchParams(location.search);
  const seat = query.get("seat");
  const token = query.get("token");
  const watch = query.get("watch");
  if (seat !== null && token) updateKept(id, (k) => { k.seats[Number(seat)] = token; });
  if (watch) updateKept(id, (k) => { k.watch = watch; });
  if (seat !== null || watch) history.replaceState(null, "", `/play/${id}`);
}

export function TablePage({ id }: Props) {
  useLang();
  const [invite] = useState(() => inviteOf(location.search)); // before the address is tidied
  const [guest, setGuest] = useState<GuestInfo | null>(savedGuest);
  const [checked, setChecked] = useState(false);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    checkedGuest().then((g) => {
      setGuest(g);
      setChecked(true);
    });
  }, []);
  const [conn, setConn] = useState<TableConnection | null>(null);
  const [, bump] = useState(0);

  const kept = useMemo(() => {
    credentialsFromUrl(id);
    return keptTable(id);
  }, [id, generation]);
  const seats = kept ? Object.keys(kept.seats).map(Number) : [];
  const needsGuest = seats.length > 0 && !guest;

  useEffect(() => {
    if (needsGuest || !checked) return;
    const seat = seats.length ? seats[0] : null;
    const connection = new TableConnection(id, {
      seat, seatToken: seat !== null ? kept!.seats[seat] : null, guest: guest?.token ?? null,
      watchToken: kept?.watch ?? null,
    });
    const off = connection.subscribe(() => bump((n) => n + 1));
    connection.connect();
    setConn(connection);
    return () => {
      off();
      connection.close();
    };
  }, [id, generation, guest?.token, needsGuest, checked]);

  if (needsGuest) {
    return (
      <div class="page">
        <Header />
        <main><InviteNote tableId={id} invite={invite} /><NicknameForm onDone={setGuest} /></main>
      </div>
    );
  }
  if (!conn) return <div class="page"><Header /></div>;
  return <Table conn={conn} guest={guest} onSeated={() => setGeneration((g) => g + 1)} onGuest={setGuest}
    invite={invite} />;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function Table(props: {
  conn: TableConnection; guest: GuestInfo | null; onSeated: () => void; onGuest: (g: GuestInfo) => void;
  invite: { seat: number; token: string } | null;
}) {
  const { conn } = props;
  const state = conn.state;
  const company = useCompany(conn);
  const hand = state.hand;
  const me = state.seat;
  const now = useNow(Boolean(state.clock?.deadline_ms) || state.seats.some((s) => s.grace_deadline_ms));
  const [sortMode, setSortMode] = useState<SortMode>("suit");
  const [order, setOrder] = useState<number[]>([]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pileOpen, setPileOpen] = useState(false);
  const [seatError, setSeatError] = useState<string | null>(null);
  useEffect(() => {
    if (!state.rejected) return;
    const timer = setTimeout(() => conn.dismissReject(), 8000);
    return () => clearTimeout(timer);
  }, [state.rejected]);

  const cards = useMemo(() => (hand ? hand.hand_ids.map((cid, i) => ({ id: cid, face: hand.hand[i] })) : []),
    [hand]);
  const faceOf = useMemo(() => new Map(cards.map((c) => [c.id, c.face])), [cards]);
  const shown = useMemo(() => reconcile(order, cards, sortMode), [order, cards, sortMode]);
  useEffect(() => {
    // forget selected cards that left the hand, from the latest selection: this runs after
    // the paint, and a tap in between (a fast player, a slow phone) must not be undone
    setSelected((now) => {
      const kept = [...now].filter((cid) => faceOf.has(cid));
      return kept.length === now.size ? now : new Set(kept);
    });
  }, [faceOf]);

  const [offered, setOffered] = useState<FormOptions | null>(null);
  useEffect(() => {
    formOptions().then(setOffered).catch(() => setOffered(null));
  }, []);
  const rules: TypeRules = useMemo(() => {
    if (!state.config) return FIBUR_TYPES;
    const preset = offered?.presets.find((p) => p.name === state.config!.rules)?.values ?? {};
    return typeRules(preset, state.config.options);
  }, [state.config, offered]);
  const myTurn = hand !== null && me !== null && hand.turn === me && hand.phase !== "over" && state.status === "playing";
  // the expert's suggestion stands until the table moves on from the position it was asked in
  const hint = me === null ? null : hintFor(state, me);
  const busy = state.pending !== null;
  const canDraw = myTurn && hand!.phase === "draw" && !busy;
  const canPlay = myTurn && hand!.phase === "play" && !busy;
  const mySide = hand && me !== null ? hand.side_of[me] : null;
  const facesOf = (cids: number[]) => cids.filter((cid) => faceOf.has(cid)).map((cid) => faceOf.get(cid)!);
  const selectedFaces = facesOf([...selected]);
  const legal = state.legal && state.legal.version === state.version ? state.legal : null;
  const fresh = useFreshCards(conn.tableId, hand, me);
  const hand_ = useHandFocus(shown);
  useFlights(hand, state.log);
  useTurnAlert(myTurn, t("feedback.titleTurn"), t("app.title"));

  const act = (action: string) => conn.act(action);
  const toggle = (cid: number) => {
    // from the latest selection: a tap's release may come after a re-render
    setSelected((now) => {
      const next = new Set(now);
      if (next.has(cid)) next.delete(cid);
      else next.add(cid);
      return next;
    });
  };
  // the selection stays until the move is made: a refused meld can be fixed, not redone. A move
  // names faces, and of two equal cards the table may take the other one: the cards sent leave
  // the selection when the move is accepted, so a twin left in the hand is not still selected
  const sent = useRef<{ cids: number[]; at: number } | null>(null);
  useEffect(() => {
    const move = sent.current;
    if (!move) return;
    if (state.version > move.at) {
      sent.current = null;
      setSelected((now) => {
        const kept = [...now].filter((cid) => !move.cids.includes(cid));
        return kept.length === now.size ? now : new Set(kept);
      });
    } else if (state.rejected) sent.current = null;
  }, [state.version, state.rejected]);
  const actWith = (action: string, cids: number[]) => {
    sent.current = { cids, at: state.version };
    act(action);
  };
  const meld = (cids = [...selected]) => {
    const faces = facesOf(cids);
    if (faces.length) actWith(`meld ${faces.join(" ")}`, cids);
  };
  const attach = (index: number, cids = [...selected]) => {
    const faces = facesOf(cids);
    if (faces.length) actWith(`attach ${index + 1} ${faces.join(" ")}`, cids);
  };
  const discard = (face: string) => {
    act(`discard ${face}`);
  };
  // my turn's selection ends with my turn; also when the turns came round between two renders
  // (fast bots, a busy device), so that my turn never showed as over: my play phase went
  // straight to my draw phase
  const myPhase = myTurn ? hand!.phase : null;
  const lastPhase = useRef<string | null>(null);
  useEffect(() => {
    const was = lastPhase.current;
    lastPhase.current = myPhase;
    const ended = (was !== null && myPhase === null) || (was === "play" && myPhase === "draw");
    if (ended) setSelected((now) => (now.size ? new Set() : now));
  }, [myPhase]);
  const [nudge, say] = useNudge();
  const [handRow, setHandRow] = useState<HTMLDivElement | null>(null);
  const overlap = useHandFit(handRow, shown.length);
  // one element, two users: the hand's focus keeper and the width fitting (a stable callback ref)
  const handRef = useMemo(() => (el: HTMLDivElement | null) => { hand_.ref.current = el; setHandRow(el); }, []);
  const viewRef = useRef<HTMLDivElement>(null);
  useFitHeight(viewRef, [Boolean(hand), state.link]);
  const sort = (mode: SortMode) => {
    setSortMode(mode);
    setOrder(sortedIds(cards, mode));
  };
  const move = (cid: number, delta: number) => {
    const at = shown.indexOf(cid);
    setOrder(moveCard(shown, cid, delta > 0 ? at + 2 : Math.max(0, at - 1)));
  };

  /** The cards a drag of card ``cid`` carries: the selection if it is part of it. */
  const dragged = (cid: number): number[] => (selected.has(cid) ? [...selected] : [cid]);

  const dropCard = (cid: number, drop: DropInfo) => {
    const target = drop.target;
    if (!target) return;
    if (target === "pile") {
      if (canPlay) discard(faceOf.get(cid)!);
      else if (canDraw) say("nudge.drawFirst");
      else if (!myTurn) say("nudge.notYourTurn", { name: seatName(state, hand!.turn) });
    } else if (target === "newmeld") {
      if (canPlay) meld(dragged(cid));
    } else if (target.startsWith("meld:")) {
      if (canPlay) attach(Number(target.slice(5)), dragged(cid));
    } else if (target.startsWith("hand")) {
      const before = target.startsWith("hand:") ? Number(target.slice(5)) : null;
      let to = shown.length;
      if (before !== null && drop.element) {
        const rect = drop.element.getBoundingClientRect();
        const at = shown.indexOf(before);
        to = drop.x > rect.left + rect.width / 2 ? at + 1 : at;
      }
      setOrder(moveCard(shown, cid, to));
    }
  };
  const pileClicked = () => {
    // why nothing happens, instead of a preview that hides the hint
    if (!hand || me === null) return;
    if (!myTurn) say("nudge.notYourTurn", { name: seatName(state, hand.turn) });
    else if (canDraw) say("nudge.pileNotNow");
    else if (canPlay) say("nudge.pickDiscard");
  };
  const dropDraw = (what: "draw" | "pickup") => (drop: DropInfo) => {
    if (drop.target?.startsWith("hand") && canDraw) act(what);
  };

  const takeSeat = async (seat: number) => {
    setSeatError(null);
    try {
      const { token } = await seatToken(conn.tableId, seat);
      updateKept(conn.tableId, (k) => { k.seats[seat] = token; });
      props.onSeated();
    } catch (err) {
      setSeatError(errorText(err));
    }
  };

  const kept = keptTable(conn.tableId);
  const openSeats = state.config ? state.config.seats.map((s, i) => (s.kind === "human" && !state.seats[i]?.nickname ? i : -1)).filter((i) => i >= 0) : [];

  // --- rendering ---
  const banner = (() => {
    if (state.link === "connecting") return <p class="banner">{t("table.connecting")}</p>;
    if (state.link === "reconnecting") return null; // the header's offline banner says it
    return null;
  })();

  const turnSeat = hand && hand.phase !== "over" && state.status === "playing" ? hand.turn : null;
  const clockLeft = state.clock?.deadline_ms ? Math.max(0, Math.round((state.clock.deadline_ms - now) / 1000)) : null;

  return (
    <div class={`page table-page ${myTurn ? "my-turn" : ""}`} data-version={state.version} data-seat={me ?? ""}
      data-synced={state.synced} data-pending={busy ? "1" : ""} data-link={state.link}
      data-phase={hand?.phase ?? ""} data-turn={turnSeat ?? ""} data-status={state.status}>
      <Header socketDown={state.link === "reconnecting"}>
        <ScoreLine state={state} />
      </Header>
      {state.link === "refused" ? <BadLink reason={reasonText(state.refused!.code, state.refused!.reason)} /> : banner}
      {state.status === "waiting" && <InviteNote tableId={conn.tableId} invite={props.invite} />}
      {seatError && <p class="banner error" role="alert">{seatError}</p>}
      {state.status === "waiting" && state.link !== "refused" && (
        <WaitingPanel tableId={conn.tableId} seats={state.seats} kept={kept} mySeat={me} />
      )}
      {me === null && state.link === "open" && (
        <section class="panel watching">
          <p>{t("table.watching")}</p>
          {state.config?.public && state.status !== "finished" && (props.guest ? openSeats.map((s) => (
            <button type="button" data-take-seat={s} onClick={() => takeSeat(s)}>{t("table.takeSeat", { n: s + 1 })}</button>
          )) : openSeats.length > 0 && <NicknameForm onDone={props.onGuest} />)}
        </section>
      )}
      <Players state={state} now={now} clockLeft={clockLeft} />
      {hand && <Standing state={state} hand={hand} rules={rules} nameOf={(s) => seatName(state, s)} />}
      <div class="company">
        <QuickFeed company={company} me={me} name={(s) => seatName(state, s)} state={state} tableId={conn.tableId} />
        {state.link === "open" && <QuickBar conn={conn} state={state} company={company} name={(s) => seatName(state, s)} />}
      </div>
      {hand && (
        <main class="board">
          <div class={`table-view ${me === null ? "spectator" : ""}`} ref={viewRef}>
          <div class="melds-area them" tabIndex={0} role="region" aria-label={t("table.themMelds")}>
            {sidesOf(hand).filter((s) => s !== mySide && !(mySide === null && s === sidesOf(hand)[0])).map((side) => (
              <SideMelds state={state} hand={hand} side={side} rules={rules} mine={false} />
            ))}
          </div>
          <div class="center-row">
            <Stock hand={hand} canDraw={canDraw} onDraw={() => act("draw")} onDrop={dropDraw("draw")} />
            <Pile hand={hand} open={pileOpen} setOpen={setPileOpen} canPickup={canDraw} onIdle={pileClicked}
              onPickup={() => act("pickup")} onDrop={dropDraw("pickup")} canDiscard={canPlay && selectedFaces.length === 1}
              onDiscard={() => discard(selectedFaces[0])} />
            <Pozzetti state={state} hand={hand} />
          </div>
          <div class="melds-area us" tabIndex={0} role="region" aria-label={t("table.usMelds")}>
            {(mySide !== null ? [mySide] : [sidesOf(hand)[0]]).map((side) => (
              <SideMelds state={state} hand={hand} side={side} rules={rules} mine={mySide !== null}
                canAttach={canPlay && selected.size > 0} onAttach={(i) => attach(i)} canMeld={canPlay}
                onMeld={() => meld()} />
            ))}
          </div>
          {me !== null && (
            <section class="my-hand" aria-label={t("table.yourHand")}>
              <TutorialCoach state={state} />
              {/* a refusal takes the hint's place, above the hand: it covers no button */}
              {state.rejected && state.link !== "refused" ? (
                <p class="refusal" role="alert" onClick={() => conn.dismissReject()}>
                  <span data-testid="reject"><RuleText text={reasonText(state.rejected.code, state.rejected.reason)} /></span>
                  <button type="button" class="close" aria-label={t("common.close")}
                    onClick={(e) => { e.stopPropagation(); conn.dismissReject(); }}>×</button>
                </p>
              ) : <Hint state={state} myTurn={myTurn} />}
              {hint !== null && (
                <p class="suggestion" role="status" data-testid="suggestion">
                  <span class="who">{t("table.expertWould")}</span> {suggestionText(hint)}
                </p>
              )}
              {nudge && <p class="nudge" role="status" data-testid="nudge">{nudge}</p>}
              {hand.pozzetto_seen.length > 0 && (
                <div class="pozzetto-seen">
                  <span>{t("table.pozzettoSeen")}</span>
                  <div class="row">{hand.pozzetto_seen.map((c) => <CardFace text={c} small />)}</div>
                </div>
              )}
              <div class={`hand ${overlap !== null ? "fitted" : ""}`} data-drop="hand" role="toolbar" aria-label={t("a11y.hand")}
                ref={handRef}
                style={overlap !== null ? { "--overlap": `${overlap}px` } : undefined}>
                {shown.map((cid) => {
                  const face = faceOf.get(cid)!;
                  const isSel = selected.has(cid);
                  const isFresh = fresh.has(cid);
                  return (
                    <button type="button" class={`hand-card ${isSel ? "selected" : ""} ${hand.barred === face ? "barred" : ""} ${isFresh ? "fresh" : ""}`}
                      data-drop={`hand:${cid}`} data-id={cid} data-face={face} aria-pressed={isSel}
                      data-flip={`h${cid}`} data-flip-face={face} data-flip-zone="hand" data-fresh={isFresh ? "1" : undefined}
                      aria-label={isFresh ? t("feedback.freshLabel", { card: cardSpoken(face) }) : cardSpoken(face)}
                      tabIndex={cid === hand_.active ? 0 : -1} onFocus={() => hand_.setActive(cid)}
                      onClick={() => toggle(cid)}
                      onPointerDown={(e) => startDrag(e, (d) => dropCard(cid, d),
                        { label: selected.has(cid) && selected.size > 1 ? String(selected.size) : undefined, onTap: () => toggle(cid) })}
                      onKeyDown={(e) => {
                        if (e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
                          e.preventDefault();
                          move(cid, e.key === "ArrowLeft" ? -1 : 1);
                          requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-id="${cid}"]`)?.focus());
                        } else {
                          const next = rovingTarget(shown, cid, e.key);
                          if (next === null) return;
                          e.preventDefault();
                          hand_.setActive(next);
                          document.querySelector<HTMLElement>(`.hand [data-id="${next}"]`)?.focus();
                        }
                      }}>
                      <CardFace text={face} id={cid} />
                      {isFresh && <span class="fresh-mark" aria-hidden="true">★ {t("feedback.fresh")}</span>}
                    </button>
                  );
                })}
              </div>
              <div class="actions" role="toolbar">
                <button type="button" data-action="draw" disabled={!canDraw} {...pressable(() => act("draw"))}>{t("table.draw")}</button>
                <button type="button" data-action="pickup" disabled={!canDraw || hand.pile.length === 0} {...pressable(() => act("pickup"))}>{t("table.pickup")}</button>
                <button type="button" data-action="meld" disabled={!canPlay || selected.size === 0} {...pressable(() => meld())}>{t("table.meld")}</button>
                <button type="button" data-action="discard" disabled={!canPlay || selected.size !== 1} {...pressable(() => discard(selectedFaces[0]))}>{t("table.discard")}</button>
                {state.config?.casual && (
                  <button type="button" data-action="hint" disabled={!myTurn || busy || hint !== null}
                    title={t("table.hintTitle")} {...pressable(() => conn.hint())}>{t("table.hint")}</button>
                )}
                {state.config?.casual && (
                  <button type="button" data-action="undo" disabled={!legal?.undo || busy} {...pressable(() => conn.undo())}>{t("table.undo")}</button>
                )}
                <span class="spacer" />
                <button type="button" data-action="sort-suit" class={sortMode === "suit" ? "on" : ""} onClick={() => sort("suit")}>{t("table.sortSuit")}</button>
                <button type="button" data-action="sort-rank" class={sortMode === "rank" ? "on" : ""} onClick={() => sort("rank")}>{t("table.sortRank")}</button>
                {selected.size === 1 && (
                  <>
                    <button type="button" data-action="left" aria-label={t("table.moveLeft")} onClick={() => move([...selected][0], -1)}>◀</button>
                    <button type="button" data-action="right" aria-label={t("table.moveRight")} onClick={() => move([...selected][0], 1)}>▶</button>
                  </>
                )}
                {selected.size > 0 && <button type="button" data-action="clear" onClick={() => setSelected(new Set())}>{t("table.clear")}</button>}
              </div>
              {legal && <script type="application/json" id="legal-actions" data-version={legal.version}>{JSON.stringify(legal.actions)}</script>}
            </section>
          )}
          </div>
          <Log state={state} />
          <TablePrefs />
          <Announcer log={state.log} text={(line) => logText(state, line, true)} myTurn={myTurn}
            turnText={`${t("table.yourTurn")}. ${hand.phase === "draw" ? t("table.hintDraw") : t("table.hintPlay")}`} />
        </main>
      )}
      {state.rejected && state.link !== "refused" && (me === null || !hand) && (
        <div class="toast error" role="alert" data-testid="reject" onClick={() => conn.dismissReject()}>
          <RuleText text={reasonText(state.rejected.code, state.rejected.reason)} />
        </div>
      )}
      {state.handEnded && (
        <HandEndDialog state={state} ended={state.handEnded} rules={rules} onClose={() => conn.dismissHandEnd()} />
      )}
      {me === null && company.rematch && (
        <p class="banner moved-on" role="status" data-testid="moved-on">
          {t("rematch.movedOn", { name: company.rematch.by ?? "" })}{" "}
          {state.config?.public && (
            <a href={`/play/${encodeURIComponent(company.rematch.table)}`} onClick={navigate}>{t("rematch.watchNew")}</a>
          )}
        </p>
      )}
      {!state.handEnded && state.matchOver && <MatchOver state={state} company={company} tableId={conn.tableId} />}
    </div>
  );
}

function ScoreLine({ state }: { state: TableState }) {
  const match = state.match;
  const players = state.config?.players ?? 0;
  if (!match || !players) return null;
  const groups = scorerSeats(players, match.scores.length);
  const usThem = state.seat !== null && groups.length === 2 && players % 2 === 0;
  const label = (seats: number[]) => (usThem ? (seats.includes(state.seat!) ? t("table.us") : t("table.them"))
    : namesOf(state, seats));
  const limit = match.mode === "free" ? t("table.to", { n: match.target ?? "" })
    : t("table.handOf", { n: Math.min(state.hand?.number ?? match.hands.length, match.smazzate ?? 0), m: match.smazzate ?? "" });
  return (
    <div class="score-line" aria-label={t("table.score")}>
      {scoreOrder(groups, state.seat).map((k) => [groups[k], k] as const).map(([seats, k]) => (
        <span class={`score ${state.seat !== null && seats.includes(state.seat) ? "mine" : ""}`} data-score={k}
          title={namesOf(state, seats)}>
          {label(seats)} <strong>{match.scores[k]}</strong>
        </span>
      ))}
      <span class="limit">{limit}</span>
    </div>
  );
}

function Players({ state, now, clockLeft }: { state: TableState; now: number; clockLeft: number | null }) {
  const hand = state.hand;
  const players = state.config?.players ?? 0;
  const me = state.seat;
  const start = me ?? 0;
  const order = Array.from({ length: players }, (_, k) => (start + k) % players);
  return (
    <ul class="players">
      {order.map((seat) => {
        const presence = state.seats[seat];
        const turn = hand && hand.phase !== "over" && state.status === "playing" && hand.turn === seat;
        const relation = me === null ? null : seat === me ? t("table.you")
          : hand && hand.side_of[seat] === hand.side_of[me] ? t("table.partner") : t("table.opponent");
        const grace = presence?.grace_deadline_ms ? Math.max(0, Math.round((presence.grace_deadline_ms - now) / 1000)) : null;
        return (
          <li class={`player ${turn ? "turn" : ""} ${seat === me ? "me" : ""}`} data-player={seat}>
            <span class="avatar-spot">
              <Avatar id={seatAvatar(presence, state.config?.seats[seat])} />
              <span class={`dot ${presence?.online === false ? "off" : "on"}`}
                title={presence?.online === false ? t("table.offline") : t("table.online")} />
            </span>
            <span class="name">{seatName(state, seat)}</span>
            {relation && <span class="relation">{relation}</span>}
            {hand && <span class="count" data-count={hand.hand_counts[seat]}>{cardCount(hand.hand_counts[seat])}</span>}
            {presence?.online === false && <span class="offline">{t("table.offline")}</span>}
            {grace !== null && <span class="grace">{t("table.grace", { s: grace })}</span>}
            {presence?.standin && <span class="standin">{t("table.standin")}</span>}
            {turn && clockLeft !== null && state.clock?.seat === seat && (
              <TimerRing left={clockLeft} of={state.clock.seconds ?? clockLeft} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The turn clock as a ring that empties, the seconds inside; red in the last ten. */
function TimerRing({ left, of }: { left: number; of: number }) {
  const part = of > 0 ? Math.min(1, left / of) : 0;
  return (
    <span class={`clock ring ${left <= 10 ? "low" : ""}`} role="timer" aria-label={t("table.clock", { s: left })}
      style={{ "--part": String(part) }} data-left={left}>
      <span aria-hidden="true">{left}</span>
    </span>
  );
}

function Hint({ state, myTurn }: { state: TableState; myTurn: boolean }) {
  const hand = state.hand!;
  let text: string;
  if (state.status !== "playing") text = state.status === "finished" ? t("table.matchOverShort") : "";
  else if (myTurn) text = hand.phase === "draw" ? t("table.hintDraw") : t("table.hintPlay");
  else text = t("table.hintWait", { name: seatName(state, hand.turn) });
  return (
    <p class={`hint ${myTurn ? "mine" : ""}`} role="status">
      {myTurn && <strong class="your-turn" data-testid="your-turn">{t("table.yourTurn")}</strong>}
      {text}
      {hand.final_turn && state.status === "playing" && hand.phase !== "over" && <span class="final"> {t("table.finalTurn")}</span>}
    </p>
  );
}

function Stock(props: { hand: HandView; canDraw: boolean; onDraw: () => void; onDrop: (d: DropInfo) => void }) {
  const { hand } = props;
  return (
    <div class="stock">
      <span class="label">{t("table.stock")}</span>
      <button type="button" class="pile-button" data-testid="stock" disabled={hand.stock_count === 0}
        aria-label={`${t("table.draw")} (${cardCount(hand.stock_count)})`}
        onClick={() => props.canDraw && props.onDraw()}
        onPointerDown={(e) => props.canDraw && startDrag(e, props.onDrop, { onTap: props.onDraw })}>
        {hand.stock_count > 0 ? <CardBack pack={0} /> : <span class="empty-slot" />}
      </button>
      <span class="count" data-stock={hand.stock_count}>{cardCount(hand.stock_count)}</span>
    </div>
  );
}

function Pile(props: {
  hand: HandView; open: boolean; setOpen: (b: boolean) => void; canPickup: boolean; onPickup: () => void; onIdle: () => void;
  onDrop: (d: DropInfo) => void; canDiscard: boolean; onDiscard: () => void;
}) {
  const { hand } = props;
  const top = hand.pile[hand.pile.length - 1];
  const press = () => (props.canDiscard ? props.onDiscard() : props.canPickup && hand.pile.length ? props.onPickup() : props.onIdle());
  return (
    <div class="pile" data-drop="pile">
      <span class="label">{t("table.pile")}</span>
      <button type="button" class="pile-button" data-testid="pile"
        aria-label={`${top ? "" : `${t("table.pileEmpty")}: `}${props.canDiscard ? t("table.discard") : `${t("table.pickup")} (${cardCount(hand.pile.length)})`}`}
        onClick={press}
        onPointerDown={(e) => props.canPickup && hand.pile.length > 0 && startDrag(e, props.onDrop, { onTap: press })}>
        {top ? <CardFace text={top} flip={`p${hand.pile.length}`} zone="pile" /> : <span class="empty-slot">{t("table.pileEmpty")}</span>}
      </button>
      <span class="count">{cardCount(hand.pile.length)}</span>
      {hand.pile.length > 1 && (
        <button type="button" class="link" data-testid="pile-toggle" aria-expanded={props.open}
          onClick={() => props.setOpen(!props.open)}>
          {props.open ? t("table.pileHide") : t("table.pileShow", { n: hand.pile.length })}
        </button>
      )}
      {props.open && (
        <div class="pile-all" data-testid="pile-all" role="group" aria-label={t("table.pileShow", { n: hand.pile.length })}>
          {hand.pile.map((c) => <CardFace text={c} small />)}
        </div>
      )}
    </div>
  );
}

/**
 * A side's pozzetto and who took it, said as the melds' titles say the sides: "Our pozzetto:
 * taken by you", "Their pozzetto: not taken yet" (pairs), "Pozzetto of Ada: taken by Ada".
 */
export function pozzettoStatus(state: TableState, hand: HandView, side: number): string {
  const seats = seatsOfSide(hand, side);
  const seated = state.seat !== null;
  const mine = seated && seats.includes(state.seat!);
  const pairs = seated && sidesOf(hand).length === 2 && seats.length > 1;
  const whose = mine ? t(seats.length > 1 ? "table.pozzettoOurs" : "table.pozzettoYours")
    : pairs ? t("table.pozzettoTheirs")
    : t("table.pozzettoOf", { side: seats.map((s) => seatName(state, s)).join(" & ") });
  const taker = hand.pozzetto_taker[side];
  if (taker < 0) return t("table.pozzettoNotYet", { side: whose });
  if (taker === state.seat) return t("table.pozzettoTakenByYou", { side: whose });
  return t("table.pozzettoTakenBy", { side: whose, name: seatName(state, taker) });
}

function Pozzetti({ state, hand }: { state: TableState; hand: HandView }) {
  const sides = sidesOf(hand);
  return (
    <div class="pozzetti">
      <span class="label">{t("table.pozzetti")}</span>
      <div class="row">
        {Array.from({ length: hand.pozzetti_left }, () => <CardBack pack={1} small />)}
      </div>
      <span class="count">{t("table.pozzettiLeft", { n: hand.pozzetti_left })}</span>
      <ul>
        {sides.map((side) => {
          const taker = hand.pozzetto_taker[side];
          return (
            <li data-pozzetto-side={side} data-taken={taker >= 0}>{pozzettoStatus(state, hand, side)}</li>
          );
        })}
      </ul>
    </div>
  );
}

function SideMelds(props: {
  state: TableState; hand: HandView; side: number; rules: TypeRules; mine: boolean;
  canAttach?: boolean; onAttach?: (i: number) => void; canMeld?: boolean; onMeld?: () => void;
}) {
  const { hand, side, state } = props;
  const melds = hand.melds[side] ?? [];
  const named = state.seat === null || sidesOf(hand).length > 2;
  const title = props.mine ? t("table.us") : named ? namesOf(state, seatsOfSide(hand, side)) : t("table.them");
  return (
    <section class={`side ${props.mine ? "mine" : ""}`} data-side={side}>
      <h3>{title} {!named && <small>{namesOf(state, seatsOfSide(hand, side))}</small>}</h3>
      <div class="melds">
        {melds.length === 0 && <p class="empty">{t("table.noMelds")}</p>}
        {melds.map((text, i) => {
          const type = burracoType(text, props.rules);
          const attachable = props.mine && props.canAttach;
          return (
            <div class={`meld ${type ? `burraco ${type}` : ""} ${attachable ? "attachable" : ""}`}
              data-meld={i} data-drop={props.mine ? `meld:${i}` : undefined} data-text={text}
              role={props.mine ? "button" : undefined} tabIndex={props.mine ? 0 : undefined}
              aria-label={`${t("table.meldN", { n: i + 1 })}${attachable ? `: ${t("table.attachHere")}` : ""}`}
              onClick={() => attachable && props.onAttach?.(i)}
              onKeyDown={(e) => {
                if ((e.key === "Enter" || e.key === " ") && attachable) {
                  e.preventDefault();
                  props.onAttach?.(i);
                }
              }}>
              <div class="meld-cards">
                {meldFlips(side, i, text).map(([c, key]) => <CardFace text={c} small flip={key} zone="meld" />)}
              </div>
              {type && <span class={`badge ${type}`} data-burraco={type}>{t("table.burraco")} {t(`type.${type}` as Key)}</span>}
            </div>
          );
        })}
        {props.mine && (
          <button type="button" class={`new-meld ${props.canMeld ? "" : "idle"}`} data-drop="newmeld"
            disabled={!props.canMeld} onClick={() => props.onMeld?.()}>
            {t("table.newMeld")}
          </button>
        )}
      </div>
    </section>
  );
}

// --- hints ------------------------------------------------------------------------------------

/** The hint given to ``seat`` for the position the table is in now, if any. */
export function hintFor(state: TableState, seat: number): string | null {
  const last = state.log[state.log.length - 1];
  if (!last || last.type !== "HintGiven" || last.seat !== seat || last.v !== state.version) return null;
  const action = (last.data as { action?: unknown }).action;
  return typeof action === "string" ? action : null;
}

/** A hint's action in words: "Meld 4♥ 5♥ 6♥", "Discard K♦", "Take the pile". */
export function suggestionText(action: string): string {
  const [verb, ...rest] = action.split(" ");
  const cards = (list: string[]) => list.map(cardLabel).join(" ");
  switch (verb) {
    case "draw": return t("hint.draw");
    case "pickup": return t("hint.pickup");
    case "meld": return t("hint.meld", { cards: cards(rest) });
    case "attach": return t("hint.attach", { cards: cards(rest.slice(1)), n: Number(rest[0]) + 1 });
    case "discard": return t("hint.discard", { card: cards(rest) });
    default: return action;
  }
}

// --- the move log -------------------------------------------------------------------------

/**
 * A move of the log as text. The log shows cards with their suit symbols ("K♣"); with
 * ``spoken`` they are words in the page's language ("king of clubs", "re di fiori"), as the
 * hand's cards are read: the live region and the log's screen-reader text use that.
 */
export function logText(state: TableState, line: LogLine, spoken = false): string | null {
  const d = line.data as Record<string, any>;
  // the player's own nickname, not "you": "tu ha pescato" would not be Italian
  const name = line.seat !== null && line.seat !== undefined ? seatName(state, line.seat) : "";
  const say = spoken ? (c: string) => cardSpoken(c) : cardLabel;
  const cards = (list: string[] | undefined) => (list ?? []).map(say).join(spoken ? ", " : " ");
  switch (line.type) {
    case "HandStarted": return t("log.handStarted", { n: d.number });
    case "SeatTaken": return t("log.seatTaken", { name: d.nickname });
    case "Drew": return d.card_text && line.seat === state.seat ? t("log.drewCard", { name, card: say(d.card_text) }) : t("log.drew", { name });
    case "PickedUp": return Array.isArray(d.cards_text) ? t("log.picked", { name, cards: cardCount(d.cards_text.length) }) : t("log.pickedPile", { name });
    case "Melded": return t("log.melded", { name, cards: cards(d.cards_text) });
    case "Attached": return t("log.attached", { name, cards: cards(d.cards_text) });
    case "Discarded": return t("log.discarded", { name, card: say(d.card_text) });
    case "PozzettoTaken": return t("log.pozzetto", { name });
    case "PozzettoSeen": return t("log.pozzettoSeen", { name });
    case "PairsFormed": return t("log.pairs");
    case "TimeCalled": return t("log.time", { n: d.turns_left });
    case "TimedOut": return t("log.timedOut", { name });
    case "HintGiven": return t("log.hint", { name, n: d.count });
    case "Undone": return t("log.undone", { name });
    case "HandOver": {
      const closer = d.closer >= 0 ? seatName(state, d.closer) : "";
      return t(`log.over.${d.reason}` as Key, { name: closer });
    }
    default: return null;
  }
}

function Log({ state }: { state: TableState }) {
  const lines = state.log.map((l) => [l, logText(state, l)] as const).filter(([, text]) => text).slice(-12);
  // a log opened mid-hand starts empty: say what it will hold rather than show nothing
  const empty = state.seat === null ? t("table.logWatching") : t("table.logEmpty");
  // each line is read with the cards in words; the symbols are for the eyes only
  const ref = useRef<HTMLOListElement>(null);
  useEffect(() => {
    ref.current?.scrollTo({ top: ref.current.scrollHeight });
  }, [state.log.length]);
  return (
    <details class="log" open>
      <summary>{t("table.log")}</summary>
      <ol ref={ref} tabIndex={0} aria-label={t("table.log")}>
        {lines.length === 0 && <li class="empty">{empty}</li>}
        {lines.map(([l, text]) => (
          <li data-v={l.v}><span aria-hidden="true">{text}</span><span class="sr-only">{logText(state, l, true)}</span></li>
        ))}
      </ol>
    </details>
  );
}

// --- after a hand, after the match --------------------------------------------------------

/** The viewer's side first, as in the score header. */
function mineFirst<T extends { seats: number[] }>(sides: T[], seat: number | null): T[] {
  return scoreOrder(sides.map((s) => s.seats), seat).map((k) => sides[k]);
}

export function ScoreTable(props: { result: HandResult; names: (seats: number[]) => string; scores?: number[]; mySeat: number | null }) {
  const { result } = props;
  const sides = mineFirst(result.sides, props.mySeat);
  const rows: [Key, (s: HandResult["sides"][number]) => string | number][] = [
    ["end.melds", (s) => s.melds],
    ["end.bonuses", (s) => (s.burraco.length ? `${s.bonuses} (${s.burraco.map((b) => `${t(`type.${b.type}` as Key)} ${b.points}`).join(", ")})` : s.bonuses)],
    ["end.closing", (s) => s.closing],
    ["end.pozzetto", (s) => s.pozzetto],
    ["end.hand", (s) => s.hand],
  ];
  return (
    <table class="score-table" data-testid="score-table">
      <thead>
        <tr>
          <th>{t("end.side")}</th>
          {sides.map((s) => (
            <th class={props.mySeat !== null && s.seats.includes(props.mySeat) ? "mine" : ""}>{props.names(s.seats)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([key, value]) => (
          <tr>
            <th>{t(key)}</th>
            {sides.map((s) => <td>{value(s)}</td>)}
          </tr>
        ))}
        <tr class="total">
          <th>{t("end.total")}</th>
          {sides.map((s) => <td data-total>{s.total}</td>)}
        </tr>
      </tbody>
    </table>
  );
}

function HandEndDialog(props: { state: TableState; ended: HandEnded; rules: TypeRules; onClose: () => void }) {
  const { state, ended } = props;
  const result = ended.result;
  const closer = result.closer >= 0 ? seatName(state, result.closer) : "";
  const players = state.config?.players ?? 0;
  const groups = scorerSeats(players, ended.scores.length);
  return (
    <Dialog title={t("end.title", { n: ended.number })} onClose={props.onClose} class="hand-end">
      <p>{t(`end.why.${result.reason}` as Key, { name: closer })}</p>
      {result.redeal && <p class="note">{t("end.redeal")}</p>}
      <ScoreTable result={result} names={(seats) => namesOf(state, seats)} mySeat={state.seat} />
      {ended.melds.length > 0 && (
        <div class="end-melds">
          {mineFirst(result.sides, state.seat).map((s) => {
            const side = ended.side_of[s.seats[0]];
            return (
              <div class="end-side">
                <h4>{namesOf(state, s.seats)}</h4>
                {(ended.melds[side] ?? []).map((text) => {
                  const type = burracoType(text, props.rules);
                  return (
                    <div class={`meld ${type ? `burraco ${type}` : ""}`}>
                      <div class="meld-cards">{text.split(" ").map((c) => <CardFace text={c} small />)}</div>
                      {type && <span class={`badge ${type}`}>{t(`type.${type}` as Key)}</span>}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      )}
      <h3>{t("end.match")}</h3>
      <p class="match-scores">
        {groups.map((seats, k) => <span>{namesOf(state, seats)}: <strong>{ended.scores[k]}</strong> </span>)}
      </p>
      <div class="buttons">
        <button type="button" class="primary" data-testid="continue" onClick={props.onClose}>{t("end.continue")}</button>
        <a class="button" href={`/replay/${encodeURIComponent(tableIdOf())}?hand=${ended.number}`} onClick={navigate}>{t("end.replay")}</a>
      </div>
    </Dialog>
  );
}

function tableIdOf(): string {
  return decodeURIComponent(location.pathname.split("/")[2] ?? "");
}

/** The match's result: closable (the table and the language switch stay reachable), reopened from a button. */
function MatchOver({ state, company, tableId }: { state: TableState; company: Company; tableId: string }) {
  const [open, setOpen] = useState(true);
  if (open) return <MatchOverDialog state={state} company={company} tableId={tableId} onClose={() => setOpen(false)} />;
  return (
    <p class="banner match-closed">
      <button type="button" class="primary" data-testid="match-show" onClick={() => setOpen(true)}>{t("match.show")}</button>{" "}
      <a class="button" href="/" onClick={navigate}>{t("match.lobby")}</a>
    </p>
  );
}

function MatchOverDialog({ state, company, tableId, onClose }: { state: TableState; company: Company; tableId: string; onClose: () => void }) {
  const over = state.matchOver!;
  const players = state.config?.players ?? 0;
  const groups = scorerSeats(players, over.scores.length);
  let verdict: string;
  if (over.winner === null) verdict = t("match.tie");
  else if (state.seat !== null && groups[over.winner].includes(state.seat)) verdict = t("match.youWin");
  else verdict = winnerText(namesOf(state, groups[over.winner]), groups[over.winner].length, state.seat !== null);
  return (
    <Dialog title={t("match.title")} class="match-over" onClose={onClose}>
      <p class="verdict" data-testid="verdict">{verdict}</p>
      <table class="score-table">
        <tbody>
          {groups.map((seats, k) => (
            <tr class={over.winner === k ? "winner" : ""}>
              <th>{namesOf(state, seats)}</th>
              <td>{over.scores[k]}</td>
              {over.vp && <td>{t("match.vp")}: {over.vp[k]}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      <PlayAgain tableId={tableId} seated={state.seat !== null} offer={company.rematch} />
      <div class="buttons">
        <a class="button primary" href="/" onClick={navigate}>{t("match.lobby")}</a>
        <a class="button" href={`/replay/${encodeURIComponent(tableIdOf())}`} onClick={navigate}>{t("tables.replay")}</a>
      </div>
    </Dialog>
  );
}

export { go, parseCard };

// --- feedback and focus (hooks of this page; the logic is in feedback/ and a11y/) ---------------

/** Each card of a meld with its flight key: side, meld, face and which copy of the face. */
function meldFlips(side: number, meld: number, text: string): [string, string][] {
  const seen = new Map<string, number>();
  return text.split(" ").map((c) => {
    const face = parseCard(c).face;
    const n = seen.get(face) ?? 0;
    seen.set(face, n + 1);
    return [c, `m${side}:${meld}:${face}:${n}`];
  });
}

/** The cards drawn or taken with the pile this turn (marked until the discard). */
function useFreshCards(tableId: string, hand: HandView | null, me: number | null): Set<number> {
  const prev = useRef<TurnView | null>(null);
  const ids = useRef<number[]>([]);
  const view: TurnView | null = hand ? { number: hand.number, turn: hand.turn, phase: hand.phase, ids: hand.hand_ids } : null;
  if (view && (!prev.current || prev.current.ids !== view.ids || prev.current.phase !== view.phase || prev.current.turn !== view.turn)) {
    const start = prev.current ? ids.current : loadFresh(tableId, view.number);
    ids.current = nextFresh(prev.current, view, me, start);
    prev.current = view;
    saveFresh(tableId, view.number, ids.current);
  }
  return new Set(ids.current);
}

/** The hand's one Tab stop, and focus kept in the hand when its card or button goes away. */
function useHandFocus(shown: number[]) {
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<number | null>(null);
  const before = useRef<number[]>(shown);
  const current = keptActive(before.current, shown, active);
  before.current = shown;
  // render time: was the focus in the hand's section (a card, the action buttons) before this commit?
  const section = ref.current?.closest(".my-hand") ?? null;
  const hadFocus = useRef(false);
  hadFocus.current = Boolean(section && document.activeElement && section.contains(document.activeElement));
  useLayoutEffect(() => {
    if (current !== active) setActive(current);
    const focused = document.activeElement as HTMLButtonElement | null;
    const lost = !focused || focused === document.body || focused.disabled || !focused.isConnected;
    if (hadFocus.current && lost && current !== null) {
      ref.current?.querySelector<HTMLElement>(`[data-id="${current}"]`)?.focus();
    }
  });
  return { ref, active: current, setActive };
}
