/** Cards as the server writes them: `7H`, `10S`, `JK`, a wild with its role `2C(=7H)`. */

export const SUIT_LETTERS = "HDCS";
export const RANK_TEXT = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUIT_SYMBOLS: Record<string, string> = { H: "♥", D: "♦", C: "♣", S: "♠" };
export const CARDS_PER_PACK = 54;
export const JOKER = "JK";

export interface Card {
  /** The face as written, without a role: `7H`, `JK`. */
  face: string;
  /** 1–13 (ace low); 0 for a joker. */
  rank: number;
  /** 0–3 in the order H D C S; -1 for a joker. */
  suit: number;
  /** The card a wild stands for in a sequence (`7H` in `2C(=7H)`), if written. */
  role: string | null;
}

export function parseCard(token: string): Card {
  const match = /^(10|[2-9AJQKT])([HDCS])(?:\(=(.+)\))?$|^JK(?:\(=(.+)\))?$/.exec(token.trim());
  if (!match) throw new Error(`cannot read card ${JSON.stringify(token)}`);
  if (match[1] === undefined) return { face: JOKER, rank: 0, suit: -1, role: match[4] ?? null };
  const rankText = match[1] === "T" ? "10" : match[1];
  return {
    face: rankText + match[2],
    rank: RANK_TEXT.indexOf(rankText),
    suit: SUIT_LETTERS.indexOf(match[2]),
    role: match[3] ?? null,
  };
}

/** The tokens of a meld's text (`5H 6H JK(=7H) 8H`). */
export function parseCards(text: string): Card[] {
  return text.split(/\s+/).filter(Boolean).map(parseCard);
}

/** Jokers and pinelle (any 2) are the cards that may act as wilds. */
export function isWildCapable(face: string): boolean {
  return face === JOKER || face.startsWith("2");
}

/** Card value for scoring (RULES.md §1.2): JK 30, 2 20, A 15, K–8 10, 7–3 5. */
export function points(face: string): number {
  const card = parseCard(face);
  if (card.rank === 0) return 30;
  if (card.rank === 2) return 20;
  if (card.rank === 1) return 15;
  return card.rank >= 8 ? 10 : 5;
}

/** The pack of a physical card id (0–161): the packs have different backs. */
export function packOf(id: number): number {
  return Math.floor(id / CARDS_PER_PACK);
}

/**
 * The image of a face; the id picks which of a pack's two jokers is drawn. The four-colour
 * deck draws diamonds blue and clubs green (`/cards/4c/`, made at build time).
 */
export function faceImage(face: string, id?: number, fourColour = false): string {
  if (face === JOKER) return `/cards/JK${id !== undefined && id % CARDS_PER_PACK === 53 ? 2 : 1}.svg`;
  if (fourColour && (face.endsWith("D") || face.endsWith("C"))) return `/cards/4c/${face}.svg`;
  return `/cards/${face}.svg`;
}

/** One back colour per pack: red for the first pack, blue-black for the second. */
export function backImage(pack: number): string {
  return pack % 2 === 0 ? "/cards/B2.svg" : "/cards/B1.svg";
}

/** A readable name: `7♥`, `10♠`, `JK`. */
export function cardLabel(face: string): string {
  if (face === JOKER) return "JK";
  return face.slice(0, -1) + SUIT_SYMBOLS[face.slice(-1)];
}

/** The server writes cards as `8H`; a player reads 8♥ (jokers stay `JK`). */
export function withSuitSymbols(text: string): string {
  return text.replace(/(?<![\w(=])(10|[2-9AJQK])([HDCS])(?![\w])/g, (face) => cardLabel(face));
}

export function isRed(face: string): boolean {
  return face.endsWith("H") || face.endsWith("D");
}

export type SortMode = "suit" | "rank";

/** Suits shown alternating colours: ♠ ♥ ♣ ♦. */
const SUIT_ORDER = [1, 3, 2, 0]; // H D C S -> position

/** A key to sort a hand by suit (then rank) or by rank (then suit); jokers last either way. */
export function sortKey(face: string, mode: SortMode): number {
  const card = parseCard(face);
  if (card.rank === 0) return 1000;
  const suit = SUIT_ORDER[card.suit];
  return mode === "suit" ? suit * 20 + card.rank : card.rank * 10 + suit;
}
