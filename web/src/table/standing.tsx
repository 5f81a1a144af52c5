/**
 * The "this hand" panel: each side's points on the table so far (the engine's scoring of
 * its melds and burraco, sent by the server), each player's last discard, the cards in the
 * pile, and the other side's melds in one line each, which a phone cannot show whole.
 */
import type { HandView, TableState } from "../connection";
import { cardLabel } from "../cards";
import { cardCount, t } from "../i18n";
import { lastDiscards, meldSummary } from "../standing";
import { burracoType, type TypeRules } from "../burraco";

export function Standing(props: {
  state: TableState; hand: HandView; rules: TypeRules; nameOf: (seat: number) => string;
}) {
  const { state, hand, rules, nameOf } = props;
  const me = state.seat;
  const players = hand.side_of.length;
  const sides = [...new Set(hand.side_of)].sort((a, b) => a - b);
  const mySide = me !== null ? hand.side_of[me] : null;
  const seatsOf = (side: number) => hand.side_of.map((s, seat) => (s === side ? seat : -1)).filter((s) => s >= 0);
  const sideName = (side: number) => (mySide === null || sides.length > 2 ? seatsOf(side).map(nameOf).join(" & ")
    : side === mySide ? t("table.us") : t("table.them"));
  const discards = lastDiscards(hand.moves, players);
  const pileCount = hand.pile_count !== undefined && hand.pile_count >= 0 ? hand.pile_count : hand.pile.length;
  const others = sides.filter((s) => s !== mySide && !(mySide === null && s === sides[0]));
  return (
    <section class="standing" aria-label={t("standing.title")} data-testid="standing">
      <ul class="standing-scores">
        {sides.map((side) => {
          const score = hand.table_score?.[side];
          const burraco = (hand.melds[side] ?? []).filter((m) => burracoType(m, rules)).length;
          return (
            <li class={side === mySide ? "mine" : ""} data-standing-side={side}>
              <span class="who">{sideName(side)}</span>{" "}
              <strong data-points={score?.total ?? ""}>{score ? t("standing.points", { n: score.total }) : "–"}</strong>
              {burraco > 0 && <span class="burraco-count"> · {t("standing.burraco", { n: burraco })}</span>}
            </li>
          );
        })}
        <li class="pile-count" data-pile-count={pileCount}>{t("standing.pile", { n: cardCount(pileCount) })}</li>
      </ul>
      <ul class="standing-discards" aria-label={t("standing.lastDiscards")}>
        <li class="label" aria-hidden="true">{t("standing.lastDiscards")}:</li>
        {discards.map((card, seat) => (
          <li data-last-discard={seat} data-card={card ?? ""}>
            <span class="who">{seat === me ? t("table.you") : nameOf(seat)}</span>{" "}
            <span class="card">{card ? cardLabel(card) : "–"}</span>
          </li>
        ))}
      </ul>
      {others.map((side) => (
        <p class="standing-melds" data-their-melds={side}>
          <span class="who">{t("standing.melded", { side: sideName(side) })}</span>{" "}
          {(hand.melds[side] ?? []).length === 0 ? <span class="none">{t("table.noMelds")}</span>
            : (hand.melds[side] ?? []).map((text) => (
              <span class={`chip ${burracoType(text, rules) ? "burraco" : ""}`} data-text={text}>{meldSummary(text)}</span>
            ))}
        </p>
      ))}
    </section>
  );
}
