"""The counterfactual secrecy audit: change a card a seat cannot see; nothing it gets may change.

A seat's information is everything it could know at a real table.  If two states differ
only in a card a seat has not seen (one of another player's hidden cards swapped with a
card of the stock or of an untaken pozzetto), every output the platform gives that seat
must be identical in both worlds, now and after every later public action, until the seat
itself sees the difference (it draws the swapped card, the hand is laid down).  That covers
what a single-state check cannot: a leak that shows only after the next action, such as
*which copy* of a face a player put down.

For each sampled position of a hand, :func:`audit_position` takes the seat about to act,
swaps each sampled hidden card of its hand with a sampled unseen card (always including the
other copy of the same face when it is unseen: the two worlds then differ in nothing but
which copy is where), checks every other seat's outputs are equal *before*, plays the same
actions in both worlds and compares, after each, for every seat that has not itself seen
the difference:

* ``view``: the engine's :func:`~burraco.engine.views.view` (bots, the terminal client);
* ``observation``: the research environment's observation vector;
* ``bot``: the open bot protocol's ``decide`` message (view and legal actions) and its
  ``event`` messages;
* ``server``: the server's event frames (``project``) and the sync's hand body.

:func:`run` drives whole hands (random play or bots) under any preset and player count
and returns the counts; ``burraco audit secrecy`` is its command.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from burraco.bots.base import Bot, make_bot
from burraco.bots.external import decide_message, event_message
from burraco.engine.actions import Action
from burraco.engine.cards import CARD_FACE, card_str
from burraco.engine.deal import deal_seeded
from burraco.engine.events import Event, event_for
from burraco.engine.legal import legal_actions
from burraco.engine.rules import PRESETS, Rules
from burraco.engine.state import OVER, HandState, IllegalActionError
from burraco.engine.views import view
from burraco.server.game import engine_payload
from burraco.server.projection import hand_body, project

SURFACES = ("view", "observation", "bot", "server")
"""What the audit compares for each seat (see the module's docstring)."""


class _Observations:
    """The research environment's encoder, loaded on demand (NumPy is an optional extra)."""

    def __init__(self, rules: Rules, players: int) -> None:
        # NumPy comes with the `research` extra: the audit runs without it, and says so
        try:
            from burraco.env.observation import Encoder  # NumPy: the research extra
        except ImportError:  # pragma: no cover - the dev install has it
            self.encoder: Any = None
        else:
            self.encoder = Encoder(rules, players)

    def of(self, state: HandState, seat: int) -> bytes | None:
        if self.encoder is None:
            return None
        return bytes(self.encoder.encode_state(state, seat).tobytes())


def _private(state: HandState, seat: int) -> tuple[Any, ...]:
    """The faces only ``seat`` sees: its hand and a pozzetto it may look at."""
    seen = state.pending[seat] if state.pending_seen[seat] else []
    return (tuple(CARD_FACE[c] for c in state.hands[seat]),
            tuple(CARD_FACE[c] for c in seen))


def _same_faces(a: HandState, b: HandState) -> bool:
    """Do the two worlds hold the same face at every place (only copies differ)?"""
    def faces(cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(CARD_FACE[c] for c in cards)
    return (all(faces(x) == faces(y) for x, y in zip(a.hands, b.hands, strict=True))
            and all(faces(x) == faces(y) for x, y in zip(a.pending, b.pending, strict=True))
            and all(faces(x) == faces(y) for x, y in zip(a.pozzetti, b.pozzetti, strict=True))
            and faces(a.stock) == faces(b.stock))


def outputs(state: HandState, seat: int | None, events: Sequence[Event],
            observations: _Observations) -> dict[str, Any]:
    """Everything the platform gives ``seat`` (``None``: a spectator) after ``events``."""
    seen = view(state, seat)
    out: dict[str, Any] = {"view": seen}
    if seat is not None:
        out["observation"] = observations.of(state, seat)
        legal: list[Action] = (
            legal_actions(state) if state.phase != OVER and state.turn == seat else [])
        shown = [e for e in (event_for(ev, seat) for ev in events) if e is not None]
        out["bot"] = (decide_message(1, seen, legal, 1000),
                      [event_message(e) for e in shown])
    frames = [project(type(e).__name__, engine_payload(e), seat) for e in events]
    out["server"] = (frames, hand_body(state, seat, number=1, commitment=""))
    return out


def _differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [name for name in SURFACES if name in a and a[name] != b.get(name)]


@dataclass
class Finding:
    """Two worlds a seat cannot tell apart that gave it different outputs."""

    preset: str
    players: int
    seed: int
    move: int
    actor: int
    swapped: tuple[str, str]
    seat: int | None
    surfaces: list[str]
    after: str
    """The action after which the outputs differed ("" : before any)."""

    def __str__(self) -> str:
        who = "a spectator" if self.seat is None else f"seat {self.seat}"
        when = f"after {self.after!r}" if self.after else "before any action"
        return (f"{self.preset}, {self.players} players, seed {self.seed}, move {self.move}: "
                f"seat {self.actor}'s hidden {self.swapped[0]} swapped with an unseen "
                f"{self.swapped[1]}; {who}'s {', '.join(self.surfaces)} differed {when}")


@dataclass
class Tally:
    """What one run compared."""

    worlds: int = 0
    """Pairs of worlds (a real state and a counterfactual) played side by side."""
    same_face: int = 0
    """Of those, pairs that differ only in which copy of a face is where."""
    comparisons: int = 0
    """Seat-by-seat comparisons of every surface, after every action."""
    positions: int = 0
    hands: int = 0
    findings: list[Finding] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.worlds += other.worlds
        self.same_face += other.same_face
        self.comparisons += other.comparisons
        self.positions += other.positions
        self.hands += other.hands
        self.findings += other.findings


def _swap(state: HandState, a: int, b: int) -> HandState:
    """A copy of ``state`` with physical cards ``a`` and ``b`` exchanged wherever they lie."""
    other = state.clone()

    def swap(cards: list[int]) -> list[int]:
        return [b if c == a else a if c == b else c for c in cards]
    other.hands = [swap(h) for h in other.hands]
    other.pending = [swap(p) for p in other.pending]
    other.pozzetti = [tuple(swap(list(p))) for p in other.pozzetti]
    other.stock = swap(other.stock)
    return other


def hidden_cards(state: HandState, seat: int) -> list[int]:
    """Cards of ``seat``'s hand that nobody else can place: not the card a one-card pile just
    gave, not one taken with the pile this turn, and only the copies of a face beyond those
    the seat is known to hold."""
    hand = state.hands[seat]
    held = Counter(CARD_FACE[c] for c in hand)
    known = Counter(state.known[seat])
    return [c for c in hand if held[CARD_FACE[c]] > known[CARD_FACE[c]]
            and c != state.barred and c not in state.picked]


def unseen_cards(state: HandState) -> list[int]:
    """Cards no seat has seen: the stock and the pozzetti still on the table."""
    out = list(state.stock)
    for pozzetto in state.pozzetti:
        out += pozzetto
    return out


def _pairs(state: HandState, actor: int, rng: random.Random,
           limit: int) -> Iterator[tuple[int, int]]:
    """Sampled swaps: every same-face swap there is (the copy leak), then up to ``limit``
    swaps with another face."""
    mine = hidden_cards(state, actor)
    pool = unseen_cards(state)
    by_face: dict[int, list[int]] = {}
    for card in pool:
        by_face.setdefault(CARD_FACE[card], []).append(card)
    for card in mine:
        for twin in by_face.get(CARD_FACE[card], ()):
            yield card, twin
    others = [(c, u) for c in mine for u in pool if CARD_FACE[u] != CARD_FACE[c]]
    rng.shuffle(others)
    yield from others[:limit]


def audit_position(
    state: HandState, continuation: Sequence[Action], *, rng: random.Random,
    observations: _Observations, swaps: int = 2, where: tuple[str, int, int, int] = ("", 0, 0, 0),
) -> Tally:
    """Swap hidden cards of the seat on turn and play ``continuation`` in both worlds."""
    preset, players, seed, move = where
    tally = Tally(positions=1)
    actor = state.turn
    seats: list[int | None] = [None, *range(state.players)]
    for hidden, unseen in _pairs(state, actor, rng, swaps):
        real, fake = state.clone(), _swap(state, hidden, unseen)
        same = CARD_FACE[hidden] == CARD_FACE[unseen]
        tally.worlds += 1
        tally.same_face += same
        swapped = (card_str(hidden), card_str(unseen))

        def report(seat: int | None, surfaces: list[str], after: str,
                   swapped: tuple[str, str] = swapped) -> None:
            tally.findings.append(Finding(preset, players, seed, move, actor, swapped, seat,
                                          surfaces, after))

        events_real: list[Event] = []
        events_fake: list[Event] = []
        after = ""
        for step in range(len(continuation) + 1):
            for seat in seats:
                if seat is not None and _private(real, seat) != _private(fake, seat):
                    continue  # this seat now sees the difference itself
                if seat is None or seat != actor or same:
                    if real.phase == OVER and not _same_faces(real, fake):
                        continue  # the hands are laid down: everyone sees the difference
                    a = outputs(real, seat, events_real, observations)
                    b = outputs(fake, seat, events_fake, observations)
                    tally.comparisons += 1
                    diff = _differences(a, b)
                    if diff:
                        report(seat, diff, after)
            if step == len(continuation) or real.phase == OVER:
                break
            action = continuation[step]
            try:
                events_fake = fake.apply_in_place(action)
            except IllegalActionError:
                break  # the action shows the swapped card: the worlds part here, legitimately
            events_real = real.apply_in_place(action)
            after = str(action)
    return tally


PolicyFn = Callable[[HandState, random.Random], Action]


def _policy(level: str, rules: Rules, seed: int) -> PolicyFn:
    if level == "random":
        def random_play(state: HandState, rng: random.Random) -> Action:
            return rng.choice(legal_actions(state))
        return random_play
    bots: dict[int, Bot] = {}

    def bot_play(state: HandState, rng: random.Random) -> Action:
        seat = state.turn
        bot = bots.get(seat)
        if bot is None:
            bot = bots[seat] = make_bot(level, seed=seed * 7 + seat, rules=rules)
        return bot.act(view(state, seat), legal_actions(state))
    return bot_play


def audit_hand(preset: str, players: int, seed: int, *, policy: str = "random",
               positions: int = 4, continuation: int = 8, swaps: int = 2) -> Tally:
    """Play one hand, then audit ``positions`` of its positions chosen at random."""
    rules = PRESETS[preset].for_players(players)
    rng = random.Random(seed)
    play = _policy(policy, rules, seed)
    state = HandState.start(deal_seeded(seed, players=players, rules=rules), rules)
    states: list[HandState] = []
    actions: list[Action] = []
    while not state.is_over:
        action = play(state, rng)
        states.append(state.clone())
        actions.append(action)
        state.apply_in_place(action)
    tally = Tally(hands=1)
    observations = _Observations(rules, players)
    picks = sorted(rng.sample(range(len(states)), min(positions, len(states))))
    for index in picks:
        tally.add(audit_position(
            states[index], actions[index:index + 1 + continuation], rng=rng,
            observations=observations, swaps=swaps, where=(preset, players, seed, index)))
    return tally


def run(presets: Sequence[str], player_counts: Sequence[int], hands: int, *,
        policies: Sequence[str] = ("random",), seed: int = 0, positions: int = 4,
        continuation: int = 8, swaps: int = 2,
        progress: Callable[[str, Tally], None] | None = None) -> Tally:
    """Audit ``hands`` hands of every preset, player count and policy."""
    total = Tally()
    for preset in presets:
        for players in player_counts:
            for policy in policies:
                part = Tally()
                for k in range(hands):
                    part.add(audit_hand(preset, players, seed + k, policy=policy,
                                        positions=positions, continuation=continuation,
                                        swaps=swaps))
                total.add(part)
                if progress is not None:
                    progress(f"{preset} {players}p {policy}", part)
    return total
