/**
 * The order of the score header: the viewer's own side first ("Us 120 Them 80"), whatever
 * seat it sits at; a spectator sees the sides in seat order.
 */
export function scoreOrder(groups: number[][], seat: number | null): number[] {
  const order = groups.map((_, k) => k);
  if (seat === null) return order;
  const mine = groups.findIndex((seats) => seats.includes(seat));
  return mine < 0 ? order : [mine, ...order.filter((k) => k !== mine)];
}
