/** A card as a screen reader should say it ("7 of hearts", "7 di cuori"), not "7 black heart". */
import { parseCard } from "../cards";
import { t, type Key } from "../i18n";

export function cardSpoken(text: string): string {
  const card = parseCard(text);
  const name = (face: string): string => {
    const c = parseCard(face);
    if (c.rank === 0) return t("card.joker");
    const rank = face.slice(0, -1);
    const rankName = /^[AJQK]$/.test(rank) ? t(`rank.${rank}` as Key) : rank;
    return t("card.spoken", { rank: rankName, suit: t(`suit.${face.slice(-1)}` as Key) });
  };
  return card.role ? `${name(card.face)} (= ${name(card.role)})` : name(card.face);
}
