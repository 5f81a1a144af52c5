"""A protocol-2 client's state, kept from its ``sync`` and the event deltas (docs/protocol.md §15).

The Python twin of the browser client's reducer (web/src/deltas.ts): tests apply every
frame's ``d`` with it and compare the result with what a ``sync`` says.
"""

from __future__ import annotations

import copy
from typing import Any

SYNCED_KEYS = ("status", "match", "hand")


def from_sync(sync: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``sync`` that deltas keep current."""
    return {key: copy.deepcopy(sync[key]) for key in SYNCED_KEYS}


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """``state`` with one frame's ``d`` applied (a new dict; ``state`` is left as it was)."""
    out = copy.deepcopy(state)
    for key in ("status", "match", "hand"):
        if key in delta:
            out[key] = copy.deepcopy(delta[key])
    patch = delta.get("h")
    if patch:
        hand = out["hand"]
        assert hand is not None, "a hand patch with no hand"
        for key, value in patch.items():
            if key.endswith("_add"):
                hand[key[:-4]] = [*hand[key[:-4]], *value]
            elif key == "melds_set":
                for side, index, text in value:
                    melds = hand["melds"][side]
                    if index < len(melds):
                        melds[index] = text
                    else:
                        assert index == len(melds), f"meld {index} after {len(melds)}"
                        melds.append(text)
            else:
                hand[key] = copy.deepcopy(value)
    return out
