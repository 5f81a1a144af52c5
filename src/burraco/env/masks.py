"""A state's legal actions as catalog ids and as the action mask: the environment's hot path.

Kept apart from :mod:`burraco.env.catalog` (which names and decodes ids, and takes
whatever integer a learner hands it, NumPy's included) so that this module can be
compiled with the engine (``scripts/build-compiled``): it runs on every step and
takes only engine states and plain ids.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from burraco.engine.actions import Action, Attach, Discard, NewMeld
from burraco.engine.cards import FACES, Face
from burraco.engine.legal import legal_actions
from burraco.engine.state import HandState
from burraco.env.catalog import (
    ATTACH,
    ATTACH_X,
    DISCARD,
    MAX_MELDS,
    action_id,
    attach_hand_id,
    meld_id,
    tables,
)

__all__ = ["action_mask", "legal_ids", "mask_of"]


def legal_ids(state: HandState) -> dict[int, Action]:
    """The legal actions of the seat on turn, by id (engine order).

    ``action_id`` inlined by the action's exact type: this runs on every step.
    """
    t = tables(state.rules.packs)
    index = t.meld_index
    out: dict[int, Action] = {}
    for a in legal_actions(state):
        cls = type(a)
        if cls is Discard:
            out[DISCARD + a.face] = a  # type: ignore[union-attr]
        elif cls is Attach:
            meld: int = a.meld  # type: ignore[union-attr]
            faces: tuple[Face, ...] = a.faces  # type: ignore[union-attr]
            if len(faces) == 1:
                out[ATTACH + meld * FACES + faces[0] if meld < MAX_MELDS
                    else ATTACH_X + (meld - MAX_MELDS) * FACES + faces[0]] = a
            else:
                out[attach_hand_id(meld)] = a
        elif cls is NewMeld:
            k = index.get(a.faces)  # type: ignore[union-attr]
            out[meld_id(k) if k is not None else action_id(a, packs=t.packs)] = a
        else:
            out[action_id(a, packs=t.packs)] = a
    return out


def mask_of(ids: Iterable[int], out: npt.NDArray[np.int8] | None = None,
            packs: int = 2) -> npt.NDArray[np.int8]:
    """An int8 mask over the catalog with ones at ``ids``."""
    mask = np.zeros(tables(packs).size, dtype=np.int8) if out is None else out
    if out is not None:
        mask.fill(0)
    index = np.fromiter(ids, dtype=np.intp)
    mask[index] = 1
    return mask


def action_mask(state: HandState) -> npt.NDArray[np.int8]:
    """The mask of the seat on turn: exactly the engine's legal actions."""
    return mask_of(legal_ids(state), packs=state.rules.packs)

