"""Ratings: OpenSkill's Weng–Lin Bayesian model (Plackett–Luce), one rating per form of play.

Forms: ``"2"`` (two players) and ``"4"`` (four players in pairs: a pair is a
team of two, and each person's rating moves by the pair's result, weighted by
how sure the model is of each partner).  A rating is a mean ``mu`` and an
uncertainty ``sigma``; newcomers start at ``MU`` ± ``SIGMA``.  The scale is
OpenSkill's default multiplied by 60, so numbers look like the familiar 1500.

Bots have ratings on the same scale, fitted from arena matches
(``scripts/fit_bot_ratings.py``, stored in ``bot_ratings.json``) and held fixed:
a bot's rating never moves, so "above Esperto" keeps its meaning.  Why OpenSkill
and not Glicko-2: docs/decisions.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

MU = 1500.0
SIGMA = 500.0
BETA = 250.0
TAU = 5.0
FORMS = ("2", "4")
BOT_FILE = Path(__file__).with_name("bot_ratings.json")


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def form_of(players: int) -> str | None:
    """The rated form of play of a table of ``players`` (``None``: not rated at that size)."""
    return str(players) if str(players) in FORMS else None


@cache
def bot_ratings() -> dict[str, dict[str, dict[str, float]]]:
    """``{form: {level: {"mu", "sigma"}}}`` as fitted; empty when never fitted."""
    if not BOT_FILE.is_file():
        return {}
    data: dict[str, Any] = json.loads(BOT_FILE.read_text())
    return dict(data["ratings"])


def bot_rating(form: str, level: str) -> tuple[float, float]:
    fitted = bot_ratings().get(form, {}).get(level)
    if fitted is None:
        return MU, SIGMA
    return float(fitted["mu"]), float(fitted["sigma"])


@dataclass(frozen=True, slots=True)
class Seat:
    """One participant of a rated match: a player (rating moves) or a bot (held fixed)."""

    key: str
    mu: float
    sigma: float
    fixed: bool = False
    protected: bool = False
    """A leaver's partner: the forced loss must not lower this rating."""


def rate(sides: list[list[Seat]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of every participant that is not fixed, after one match.

    ``ranks``: 0 for the winner, 1 for the loser, equal for a tie.  A protected
    participant keeps its old rating when the model would lower it.
    """
    m = model()
    teams = [[m.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    rated = m.rate(teams, ranks=[float(r) for r in ranks])
    out: dict[str, tuple[float, float]] = {}
    for side, new_side in zip(sides, rated, strict=True):
        for seat, new in zip(side, new_side, strict=True):
            if seat.fixed:
                continue
            if seat.protected and new.mu < seat.mu:
                out[seat.key] = (seat.mu, seat.sigma)
            else:
                out[seat.key] = (float(new.mu), float(new.sigma))
    return out


def shown(mu: float) -> int:
    """The rating shown to people: the mean, rounded."""
    return round(mu)
