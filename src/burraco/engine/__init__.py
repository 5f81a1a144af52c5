"""The pure rules engine: standard library only, imported by everything else.

>>> from burraco.engine import HandState, deal_seeded, legal_actions
>>> state = HandState.start(deal_seeded(7, players=4))
>>> [str(a) for a in legal_actions(state)]
['draw', 'pickup']
"""

from burraco.engine.actions import (
    Action,
    ActionParseError,
    Attach,
    CallTime,
    Discard,
    Draw,
    NewMeld,
    Pickup,
    parse_action,
)
from burraco.engine.cards import CardParseError, Face, face_str, parse_face, parse_faces
from burraco.engine.deal import Deal, DealError, deal_from_order, deal_seeded
from burraco.engine.legal import is_legal, legal_actions
from burraco.engine.melds import Meld, MeldError
from burraco.engine.rules import FIBUR, PRESETS, Rules
from burraco.engine.state import HandState, IllegalActionError

__all__ = [
    "FIBUR",
    "PRESETS",
    "Action",
    "ActionParseError",
    "Attach",
    "CallTime",
    "CardParseError",
    "Deal",
    "DealError",
    "Discard",
    "Draw",
    "Face",
    "HandState",
    "IllegalActionError",
    "Meld",
    "MeldError",
    "NewMeld",
    "Pickup",
    "Rules",
    "deal_from_order",
    "deal_seeded",
    "face_str",
    "is_legal",
    "legal_actions",
    "parse_action",
    "parse_face",
    "parse_faces",
]
