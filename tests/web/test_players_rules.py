"""The pictures of the players' rules (``web/src/help/rules/*.md``) against the engine.

Every ``[[…]]`` line of the help page is drawn as cards; this checks that what the pictures
show is what the engine plays: a meld shown as allowed is a legal meld laid out as the table
lays it out, one marked ``!`` is refused, a move ``A + B → C`` turns A into C, and the burraco
the rules name score what they say under the rule sets they name. Every language shows the
same pictures in the same order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burraco.engine.cards import parse_faces
from burraco.engine.melds import SET, MeldError, attach_faces, burraco_type, parse_meld
from burraco.engine.rules import PRESETS

RULES = Path(__file__).resolve().parents[2] / "web" / "src" / "help" / "rules"
PICTURE = re.compile(r"^\[\[(.*)\]\]$")
LANGS = sorted(p.stem for p in RULES.glob("*.md"))

# rows of cards that are not a meld: one pile card, the card values
NOT_MELDS = {"8H", "JK 2S AH KD 8C 7S 3H"}


def pictures(lang: str) -> list[tuple[bool, list[str]]]:
    """``(not allowed, groups)`` of every picture: groups are card texts and ``+``/``→``."""
    out = []
    for line in (RULES / f"{lang}.md").read_text(encoding="utf-8").splitlines():
        match = PICTURE.match(line.strip())
        if not match:
            continue
        body = match[1].split("|")[0].strip()
        wrong = body.startswith("!")
        parts = re.split(r"\s+([+→])\s+", body.lstrip("!").strip())
        out.append((wrong, parts))
    return out


def test_every_language_has_the_same_pictures() -> None:
    assert {"en", "it"} <= set(LANGS)
    english = pictures("en")
    assert len(english) > 30
    for lang in LANGS:
        assert pictures(lang) == english, lang


@pytest.mark.parametrize("wrong,parts", pictures("en"), ids=lambda v: str(v))
def test_a_picture_shows_what_the_engine_plays(wrong: bool, parts: list[str]) -> None:
    if len(parts) == 1:
        (text,) = parts
        if text in NOT_MELDS:
            return
        if wrong:
            with pytest.raises(MeldError):
                parse_meld(text)
            return
        meld = parse_meld(text)
        if meld.kind == SET:
            assert sorted(str(meld).split()) == sorted(text.split())
            wilds = [i for i, token in enumerate(text.split()) if token.startswith(("2", "JK"))]
            assert wilds in ([], [len(text.split()) - 1]), "the wild of a set goes last"
        else:
            assert str(meld) == text, "drawn as the table lays it out"
        return
    start, plus, cards, arrow, result = parts
    assert (plus, arrow) == ("+", "→") and not wrong
    assert str(attach_faces(parse_meld(start), parse_faces(cards))) == result


KINDS = {
    # §5 under the FIBur code
    ("fibur", "3D 4D 5D 6D 7D 8D 9D"): ("clean", 200),
    ("fibur", "AH 2H 3H 4H 5H 6H 7H"): ("clean", 200),
    ("fibur", "JK(=4S) 5S 6S 7S 8S 9S 10S JS"): ("semi-clean", 150),
    ("fibur", "3S JK(=4S) 5S 6S 7S 8S 9S 10S JS"): ("semi-clean", 150),
    ("fibur", "QH QH QD QD QC QC QS 2H"): ("semi-clean", 150),
    ("fibur", "5C 6C 7C JK(=8C) 9C 10C JC"): ("dirty", 100),
    # §9.3's worked example
    ("fibur", "4H 5H 6H 7H 8H 9H 10H"): ("clean", 200),
    ("fibur", "7C 8C 9C 2D(=10C) JC QC KC"): ("dirty", 100),
    # §14.3 and §15
    ("champion", "KH KH KD KD KC KC KS KS"): ("champion", 500),
    ("fibur", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"): ("clean", 200),
    ("febur-it", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"): ("royal", 300),
    ("fitab", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"): ("royal", 300),
    ("champion", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"): ("royal", 300),
    ("fibur", "QD QD QH QH QC QC QS QS"): ("clean", 200),
    ("febur-it", "QD QD QH QH QC QC QS QS"): ("super", 250),
    ("fitab", "QD QD QH QH QC QC QS QS"): ("super", 250),
    ("champion", "QD QD QH QH QC QC QS QS"): ("champion", 500),
}


@pytest.mark.parametrize("preset,meld", sorted(KINDS))
def test_the_burraco_the_rules_show_score_what_they_say(preset: str, meld: str) -> None:
    shown = {parts[0] for _, parts in pictures("en")}
    assert meld in shown, "the rules no longer show this meld"
    rules = PRESETS[preset]
    kind = burraco_type(parse_meld(meld, rules), rules)
    assert (kind, rules.bonus(kind or "")) == KINDS[(preset, meld)]


def test_the_worked_example_adds_up() -> None:
    """§9.3: the card points the captions give, and the hand totals of the table."""
    def points(text: str) -> int:
        values = {"JK": 30, "2": 20, "A": 15}
        total = 0
        for token in text.split():
            face = token.split("(")[0]
            rank = face[:-1] if face != "JK" else "JK"
            total += values.get(rank, 10 if rank in ("8", "9", "10", "J", "Q", "K") else 5)
        return total

    assert points("4H 5H 6H 7H 8H 9H 10H") == 50
    assert points("KC KD KS JK") == 60
    assert points("3S 4S 5S 6S") == 20
    assert points("7C 8C 9C 2D(=10C) JC QC KC") == 75
    assert points("AH AS AD") == 45
    north_south = 130 + 200 + 100 - 30
    east_west = 120 + 100 - 45 - 100
    for lang in LANGS:
        text = (RULES / f"{lang}.md").read_text(encoding="utf-8")
        assert f"**{north_south}**" in text and f"**{east_west}**" in text, lang
