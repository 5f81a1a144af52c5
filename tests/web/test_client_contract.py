"""The browser client re-implements three small things of the engine and server; this keeps
them honest.  ``web/test/fixtures/engine.json`` holds what the engine says about burraco
types under every preset, one deal from a deck order, and one deal commitment; the client's
Vitest tests check its own code against that file, and this test checks that the file still
says what the engine says (regenerate it with ``BURRACO_UPDATE_FIXTURES=1``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from burraco.app.web import form_options
from burraco.engine.cards import parse_faces
from burraco.engine.deal import deal_from_order, shuffled_order
from burraco.engine.melds import MeldError, burraco_type, meld_from_faces
from burraco.engine.rules import PRESETS, Rules
from burraco.server.commitment import commit
from burraco.server.tables import TableRequest

FIXTURE = Path(__file__).resolve().parents[2] / "web" / "test" / "fixtures" / "engine.json"
TYPE_OPTIONS = ("semi_clean", "semi_clean_inner_wild", "semi_clean_set_of_nine",
                "champion_burraco", "bonuses")
MELDS = [
    "3S JK 5S 6S 7S 8S 9S 10S JS", "4C 5C 6C 7C 8C 9C 10C", "5H 6H JK 8H 9H 10H JH",
    "KD KH KS KC KD KH KS 2C", "KD KH KS KC KD KH KS KC 2C", "KD KH KS KC KD KH KS",
    "KD KH KS KC KD KH KS KC", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JK QH KH",
    "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", "7H 7D 2C", "AS 2S 3S",
    "9C 10C JC QC KC AC 2C", "2C 4C 5C 6C 7C 8C 9C 10C JC", "6D 7D 8D 2S 10D JD QD KD",
    "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2D", "QS KS AS JK",
]


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def build() -> dict[str, Any]:
    presets = {}
    cases = []
    for name, rules in sorted(PRESETS.items()):
        presets[name] = {k: _jsonable(getattr(rules, k)) for k in TYPE_OPTIONS}
        for cards in MELDS:
            try:
                meld = meld_from_faces(parse_faces(cards), rules)
            except MeldError:
                continue  # not a meld under these rules (sets of kings, international)
            cases.append({"preset": name, "meld": str(meld), "type": burraco_type(meld, rules)})
    order = shuffled_order(7, Rules())
    dealt = deal_from_order(order, players=4, dealer=2, rules=Rules(), cut=45)
    salt = "ab" * 32
    return {
        "presets": presets,
        "melds": cases,
        "deal": {"order": order, "players": 4, "dealer": 2, "cut": 45, "hand_size": 11,
                 "sizes": [len(p) for p in dealt.pozzetti],
                 "hands": [list(h) for h in dealt.hands],
                 "pozzetti": [list(p) for p in dealt.pozzetti],
                 "stock": list(dealt.stock), "pile": list(dealt.pile)},
        "commitment": {"salt": salt, "order": order, "sha256": commit(order, salt)},
        "table_fields": sorted(TableRequest.model_fields),
        "options": [o["name"] for o in form_options()["options"]],
    }


def test_the_client_fixture_says_what_the_engine_says() -> None:
    data = build()
    if os.environ.get("BURRACO_UPDATE_FIXTURES"):
        FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    stored = json.loads(FIXTURE.read_text())
    assert stored == data, ("web/test/fixtures/engine.json is out of date: rerun with "
                            "BURRACO_UPDATE_FIXTURES=1 and check the client's tests")


def test_the_create_form_offers_every_table_setting() -> None:
    form = (FIXTURE.parents[2] / "src" / "create.tsx").read_text()
    for name in TableRequest.model_fields:
        assert name in form, f"the create-table form does not send {name!r}"
