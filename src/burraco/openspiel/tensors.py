"""What a seat knows, as OpenSpiel's strings and tensors: built from what the seat was shown.

* The **observation tensor** is the research environment's observation of the seat
  (:class:`burraco.env.observation.Encoder`, 2132 floats at 2 and 4 players, its slices as the
  pieces), read from the engine by the same rules as :func:`burraco.engine.views.view`.
* The **information-state tensor** is that observation followed by the public record of the
  hand (:data:`RECORD`): the faces each seat discarded, the faces each seat took with the
  pile and how often it took it, the face on top of the pile each time a seat drew from the
  stock instead, the faces this seat drew, and the last :data:`RECENT` discards in order.
* The **information-state string** is the seat's whole history (perfect recall): its dealt
  hand and the up-card, then every action with each event as the engine cuts it for that
  seat (:func:`burraco.engine.events.event_for`, cards as text: no copy is ever named).
* The **observation string** is the seat's view, without the history.

Every seat index in a tensor is relative: 0 the observer, 1 the next to play, and so on.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from burraco.engine.cards import CARD_FACE, FACES, face_str, sort_key
from burraco.engine.events import Discarded, Drew, PickedUp, event_for, event_text
from burraco.engine.views import view
from burraco.env.catalog import DRAW, PICKUP, describe
from burraco.env.observation import Encoder, Layout
from burraco.openspiel.table import Table

SEATS = 4
"""Seat slots of every per-seat piece (2 players leave slots 2 and 3 at zero, as the
environment's observation does)."""
RECENT = 16
"""Discards kept in order, newest first."""
RECORD: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("discarded", (SEATS, FACES)),
    ("picked_up", (SEATS, FACES)),
    ("pickups", (SEATS,)),
    ("passed", (SEATS, FACES)),
    ("drawn", (FACES,)),
    ("recent_discards", (RECENT, FACES + SEATS + 1)),
)
"""The information state's pieces after the observation's, with their shapes."""


def observation_pieces(layout: Layout) -> list[tuple[str, tuple[int, ...]]]:
    """The observation's slices in order, with their shapes."""
    ordered = sorted(layout.slices.items(), key=lambda item: item[1].start)
    return [(name, layout.shape_of(name)) for name, _ in ordered]


def pieces(layout: Layout, perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    """Every named piece of the tensor, in order."""
    return observation_pieces(layout) + (list(RECORD) if perfect_recall else [])


def write_observation(out: npt.NDArray[np.float32], encoder: Encoder, table: Table,
                      seat: int) -> None:
    """The environment's observation of ``seat`` into ``out`` (zeros while dealing)."""
    if table.state is None:
        out.fill(0.0)
        return
    out[:] = encoder.encode_state(table.state, seat)


def write_record(parts: dict[str, npt.NDArray[np.float32]], table: Table, seat: int) -> None:
    """The public record of the hand, and the seat's own draws, into the record's pieces."""
    for name, _ in RECORD:
        parts[name].fill(0.0)
    discarded, picked_up, pickups = parts["discarded"], parts["picked_up"], parts["pickups"]
    passed, drawn, recent = parts["passed"], parts["drawn"], parts["recent_discards"]
    n = table.players
    made: list[tuple[int, int]] = []  # (face, relative seat) of every discard, in order
    taken: set[int] = set()  # indices into made of discards taken with the pile
    in_pile: list[int] = []
    for step in table.steps:
        rel = (step.seat - seat) % n
        if step.action == DRAW:
            if step.top >= 0:
                passed[rel, step.top] += 1.0
            if step.seat == seat:
                for event in step.events:
                    if isinstance(event, Drew):
                        drawn[CARD_FACE[event.card]] += 1.0
        elif step.action == PICKUP:
            pickups[rel] += 1.0
            for event in step.events:
                if isinstance(event, PickedUp):
                    for card in event.cards:
                        picked_up[rel, CARD_FACE[card]] += 1.0
            taken.update(in_pile)
            in_pile = []
        for event in step.events:
            if isinstance(event, Discarded):
                face = CARD_FACE[event.card]
                discarded[rel, face] += 1.0
                in_pile.append(len(made))
                made.append((face, rel))
    for row, index in enumerate(range(len(made) - 1, max(-1, len(made) - 1 - RECENT), -1)):
        face, rel = made[index]
        recent[row, face] = 1.0
        recent[row, FACES + rel] = 1.0
        recent[row, FACES + SEATS] = 1.0 if index in taken else 0.0


def information_state_string(table: Table, seat: int) -> str:
    """Everything ``seat`` has seen since the deal began, in order."""
    return "\n".join(_information_lines(table, seat))


def _information_lines(table: Table, seat: int) -> Iterator[str]:
    yield (f"burraco {table.players}p {table.rules.name}; seat {seat}; "
           f"dealer {table.dealer if table.dealer >= 0 else '?'}")
    state = table.state
    if state is None:
        yield f"dealing {len(table.order)}/{table.size}"
        return
    deal = state.deal
    yield "dealt " + _faces(deal.hands[seat]) + "; up " + _faces(deal.pile)
    for step in table.steps:
        texts = step.texts
        if not texts:
            texts.extend([None] * table.players)
        line = texts[seat]
        if line is None:
            shown = [event_for(event, seat) for event in step.events]
            line = f"{step.seat}: {describe(step.action)}" + "".join(
                " | " + _event_line(event_text(e)) for e in shown if e is not None)
            texts[seat] = line
        yield line


def _event_line(event: dict[str, object]) -> str:
    out = [str(event["type"])]
    for key, value in event.items():
        if key != "type":
            out.append(f"{key}={' '.join(map(str, value)) if isinstance(value, list) else value}")
    return " ".join(out)


def observation_string(table: Table, seat: int) -> str:
    """What ``seat`` sees now (its view), without the history."""
    state = table.state
    if state is None:
        return f"seat {seat}; dealing {len(table.order)}/{table.size}"
    v = view(state, seat, moves=False)
    lines = [f"seat {seat}; turn {v.turn} ({v.phase}); dealer {v.dealer}; stock "
             f"{v.stock_count}; pozzetti left {v.pozzetti_left}; takers {list(v.pozzetto_taker)}",
             "hand " + _faces(v.hand)
             + (f"; barred {face_str(CARD_FACE[v.barred])}" if v.barred >= 0 else "")]
    if v.pozzetto_seen:
        lines.append("pozzetto seen " + _faces(v.pozzetto_seen))
    lines.append("pile " + (" ".join(face_str(CARD_FACE[c]) for c in v.pile) or "-"))
    for side, melds in enumerate(v.melds):
        lines.append(f"melds {side}: " + (" / ".join(str(m) for m in melds) or "-"))
    lines.append("held " + " ".join(str(k) for k in v.hand_counts)
                 + "; pending " + " ".join(str(k) for k in v.pending_counts))
    for other, cards in enumerate(v.known):
        if cards and other != seat:
            lines.append(f"known {other}: {_faces(cards)}")
    if v.revealed:
        lines.append("revealed " + " / ".join(_faces(cards) for cards in v.revealed))
    return "\n".join(lines)


def _faces(cards: tuple[int, ...] | list[int]) -> str:
    """Cards as sorted face text: a seat's own cards, whose order says nothing."""
    return " ".join(face_str(f) for f in sorted((CARD_FACE[c] for c in cards), key=sort_key)) \
        or "-"
