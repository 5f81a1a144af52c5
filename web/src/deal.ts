/**
 * Dealing a revealed deck order as the server did (burraco.engine.deal.deal_from_order), so a
 * replay can check in the page that the committed order really gives the recorded deal.
 */

export interface Dealt {
  hands: number[][];
  pozzetti: number[][];
  stock: number[];
  pile: number[];
}

export const DEFAULT_CUT = 40;

/**
 * ``order`` is the deck top first; ``sizes`` the pozzetti sizes top first; ``handSize`` the
 * cards dealt to each player, starting at the dealer's left.
 */
export function dealFromOrder(
  order: number[],
  opts: { players: number; dealer: number; cut: number; sizes: number[]; handSize: number },
): Dealt {
  const { players, dealer, cut, sizes, handSize } = opts;
  const total = sizes.reduce((a, b) => a + b, 0);
  if (!(total <= cut && cut <= order.length - (players * handSize + 1))) {
    throw new Error(`cut ${cut} leaves too few cards for the pozzetti or the deal`);
  }
  const upper = order.slice(0, cut);
  const lower = order.slice(cut);
  // the cutter deals from the bottom of his part, alternately onto the pozzetti
  const piles: number[][] = sizes.map(() => []);
  const source = [...upper].reverse();
  for (let i = 0; piles.some((p, k) => p.length < sizes[k]); i++) {
    const k = i % piles.length;
    if (piles[k].length < sizes[k]) piles[k].push(source.shift()!);
  }
  const leftover = [...source].reverse();
  const hands: number[][] = Array.from({ length: players }, () => []);
  let position = 0;
  for (let round = 0; round < handSize; round++) {
    for (let j = 0; j < players; j++) {
      hands[(dealer + 1 + j) % players].push(lower[position]);
      position += 1;
    }
  }
  const rest = [...lower.slice(position), ...leftover];
  return { hands, pozzetti: piles, stock: rest.slice(1), pile: [rest[0]] };
}
