"""The score each side has on the table while a hand is played (protocol 2's ``table_score``).

Only what lies face up counts: the melds' card points and their burraco bonuses, scored by
the engine's own :func:`burraco.engine.scoring.score_side`.  The cards in the hands, the
closing bonus and the pozzetto's fate are left out: they are decided (or hidden) until the
hand ends, when ``HandEnded`` gives the real result.
"""

from __future__ import annotations

from typing import Any

from burraco.engine.scoring import score_side
from burraco.engine.state import HandState


def table_score(hand: HandState) -> list[dict[str, Any]]:
    """``[{"melds", "bonuses", "total"}]`` per side (index = side), from the melds alone."""
    out = []
    for melds in hand.melds:
        score = score_side(melds, (), closed=False, pozzetto="taken", rules=hand.rules)
        out.append({"melds": score.melds, "bonuses": score.bonuses,
                    "total": score.melds + score.bonuses})
    return out
