"""Perfect matchings for the open events' pairings (``swiss``, ``arena``): pure, deterministic.

Players are the indices ``0 .. count-1`` in their order of rank; the pairs that must not
meet are given (``forbidden``: rematches, mostly few, so the graph of the pairs allowed is
dense and kept as its complement).  :func:`pairing` pairs them all, best-ranked first: the
best-ranked player still free takes the first player of its order of preference
(``choices``) with whom the others can *still all be paired* without a forbidden pair, so
a pairing with no forbidden pair is found whenever one exists, and the search never
backtracks.  With an odd count one player sits out: the first of ``sit_out`` whose absence
leaves such a pairing (or, when asked, as many as the largest such pairing leaves out).

Whether the others can still all be paired is kept by a perfect matching of the players
still free (Edmonds' blossoms, the O(V³) form of J. Edmonds, "Paths, trees, and flowers",
1965): to pair ``p`` with ``q`` when the matching has them elsewhere, their two former
partners are freed and one augmenting path is sought between them; when there is none,
``p`` and ``q`` cannot both be taken and the matching is left as it was.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import chain, islice

Choices = Callable[[int, Sequence[int]], Iterable[int]]
"""``choices(p, rest)``: the players of ``rest`` (those still free after ``p``, in rank
order) in ``p``'s order of preference."""


class _Graph:
    """The players still free, the pairs forbidden among them and a maximum matching."""

    def __init__(self, count: int, forbidden: Sequence[Collection[int]]) -> None:
        self.count = count
        self.forbidden = [frozenset(f) for f in forbidden]
        self.alive = dict.fromkeys(range(count))
        """The players still free, in rank order (a dict: ordered, and quick to remove from)."""
        self.mate = [-1] * count

    def allowed(self, u: int, v: int) -> bool:
        return u != v and v not in self.forbidden[u]

    def maximum(self) -> None:
        """A maximum matching: neighbours in rank order first, then augmenting paths."""
        mate = self.mate
        order = list(self.alive)
        for at, u in enumerate(order):
            if mate[u] != -1:
                continue
            for v in islice(order, at + 1, None):
                if mate[v] == -1 and self.allowed(u, v):
                    mate[u], mate[v] = v, u
                    break
        for u in self.alive:
            if mate[u] == -1:
                self._augment(u)

    def free(self) -> list[int]:
        return [u for u in self.alive if self.mate[u] == -1]

    def _remove(self, *players: int) -> None:
        for u in players:
            del self.alive[u]

    def leave_out(self, player: int) -> bool:
        """Take ``player`` out if the matching of the others stays as large (some maximum
        matching leaves it free)."""
        partner = self.mate[player]
        if partner == -1:
            self._remove(player)
            return True
        saved_mate, saved_alive = list(self.mate), dict(self.alive)
        self._remove(player)
        self.mate[player] = self.mate[partner] = -1
        if self._augment(partner):
            return True
        self.mate, self.alive = saved_mate, saved_alive
        return False

    def take(self, p: int, q: int) -> bool:
        """Pair ``p`` with ``q`` if the others keep a perfect matching (the matching is
        perfect); otherwise change nothing."""
        mate = self.mate
        if mate[p] == q:
            self._remove(p, q)
            return True
        if not self.allowed(p, q):
            return False
        saved_mate, saved_alive = list(mate), dict(self.alive)
        p2, q2 = mate[p], mate[q]
        self._remove(p, q)
        mate[p] = mate[q] = mate[p2] = mate[q2] = -1
        if self._augment(p2):
            return True
        self.mate, self.alive = saved_mate, saved_alive
        return False

    def _augment(self, root: int) -> bool:
        """Augment the matching along a path from the free ``root``, if there is one."""
        mate, forbidden, alive = self.mate, self.forbidden, self.alive
        parent = [-1] * self.count
        base = list(range(self.count))
        used = [False] * self.count
        used[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            banned = forbidden[v]
            for to in alive:
                if to == v or to in banned or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    top = self._common(v, to, base, parent)
                    blossom = [False] * self.count
                    self._mark(v, top, to, base, parent, blossom)
                    self._mark(to, top, v, base, parent, blossom)
                    for i in alive:
                        if blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:
                            back = parent[to]
                            after = mate[back]
                            mate[to], mate[back] = back, to
                            to = after
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _common(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        """The base of the blossom an edge ``a``–``b`` closes: their lowest common even
        ancestor in the search tree."""
        mate = self.mate
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[mate[b]]

    def _mark(self, v: int, top: int, child: int, base: list[int], parent: list[int],
              blossom: list[bool]) -> None:
        mate = self.mate
        while base[v] != top:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]


def pairing(count: int, forbidden: Sequence[Collection[int]], choices: Choices,
            sit_out: Iterable[int] = (), *, most_left: int | None = None) -> tuple[
        list[tuple[int, int]], list[int]] | None:
    """Pair players ``0 .. count-1`` (in rank order) with no forbidden pair, leaving out as
    few as can be and at most ``most_left`` (by default ``count % 2``: everyone paired but
    one of an odd count), or ``None`` when that cannot be done.

    ``forbidden[p]``: the players ``p`` must not meet (kept symmetric by the caller).  The
    players left out are, one by one, the first of ``sit_out`` that can be (``None`` when
    the ones named cannot).  Returns the pairs, each (better-ranked, other) in the order
    made, and the players left out.
    """
    if len(forbidden) != count:
        raise ValueError(f"forbidden names {len(forbidden)} players, not {count}")
    graph = _Graph(count, forbidden)
    graph.maximum()
    need = len(graph.free())
    if need > (count % 2 if most_left is None else most_left):
        return None
    left: list[int] = []
    for u in sit_out:
        if len(left) == need:
            break
        if 0 <= u < count and u not in left and graph.leave_out(u):
            left.append(u)
    if len(left) < need:
        return None
    pairs: list[tuple[int, int]] = []
    while graph.alive:
        free = list(graph.alive)  # in rank order: the best-ranked first
        p, rest = free[0], free[1:]
        for q in chain(choices(p, rest), (graph.mate[p],)):
            if q != p and q in graph.alive and graph.take(p, q):
                break
        else:  # pragma: no cover - the matching's own partner is always taken
            raise AssertionError("the matching lost its partner")
        pairs.append((p, q))
    return pairs, left


def symmetric(count: int, pairs: Iterable[tuple[int, int]]) -> list[set[int]]:
    """``forbidden`` for :func:`pairing` from pairs of players that must not meet."""
    forbidden: list[set[int]] = [set() for _ in range(count)]
    for a, b in pairs:
        if a != b:
            forbidden[a].add(b)
            forbidden[b].add(a)
    return forbidden
