/** A card as a screen reader should say it ("7 of hearts", "7 di cuori"), not "7 black heart". */
import { parseCard } from "../cards";
import { lang, t, type Key, type Lang } from "../i18n";

export function cardSpoken(text: string, as: Lang = lang()): string {
  const card = parseCard(text);
  const name = (face: string): string => {
    const c = parseCard(face);
    if (c.rank === 0) return t("card.joker", undefined, as);
    const rank = face.slice(0, -1);
    const rankName = /^[AJQK]$/.test(rank) ? t(`rank.${rank}` as Key, undefined, as) : rank;
    return t("card.spoken", { rank: rankName, suit: t(`suit.${face.slice(-1)}` as Key, undefined, as) }, as);
  };
  return card.role ? `${name(card.face)} (= ${name(card.role)})` : name(card.face);
}
