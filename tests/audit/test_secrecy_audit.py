"""The counterfactual secrecy audit (burraco.audit.secrecy), the fast subset CI runs.

For every player count (RULES.md §13: 2 to 6) and every preset (§14, §15), hands played at
random and by a bot: at sampled positions a hidden card of the seat on turn is swapped with
an unseen card (every same-face swap there is, plus others), the same public actions are
played in both worlds, and every seat that has not itself seen the difference must get
identical views, research observations, bot-protocol messages and server frames.  The
longer run is ``burraco audit secrecy`` (docs/architecture.md, "Secrecy").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from burraco.audit.secrecy import Tally, audit_hand
from burraco.bench.engine import engine_compiled
from burraco.engine import views
from burraco.engine.rules import PRESETS

BURRACO = str(Path(sys.executable).with_name("burraco"))


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_seat_can_tell_two_worlds_apart_that_differ_in_a_card_it_never_saw(
        preset: str, players: int) -> None:
    tally = Tally()
    for seed, policy in ((1, "random"), (2, "random"), (3, "basic")):
        tally.add(audit_hand(preset, players, seed, policy=policy, positions=3,
                             continuation=6, swaps=2))
    assert tally.worlds >= 10 and tally.comparisons > 5 * tally.worlds
    assert not tally.findings, "\n".join(str(f) for f in tally.findings[:10])


PATCHABLE = pytest.mark.skipif(
    engine_compiled(), reason="a compiled engine's methods cannot be patched")


@PATCHABLE
def test_the_audit_finds_a_view_that_names_physical_copies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Against views that give physical ids instead of labels (as before labels), the audit
    reports differences: it can fail."""
    monkeypatch.setattr(views.Labels, "of", lambda self, card: card)
    tally = Tally()
    for seed in range(3):
        tally.add(audit_hand("fibur", 2, seed, positions=4, continuation=6))
    assert tally.same_face > 0
    assert tally.findings
    assert any(f.seat != f.actor for f in tally.findings)  # others see which copy moved


@PATCHABLE
def test_the_audit_finds_known_cards_kept_by_physical_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Against an engine that forgets a known card only when that very copy is played (the
    leak of docs/decisions.md, "Which copy"), the audit reports differences in other seats'
    views and observations."""
    from burraco.engine.state import HandState

    def forget_by_copy(self: HandState, seat: int, cards: list[int]) -> None:
        known = self.known[seat]
        for card in cards:
            face = card % 54 if card % 54 < 52 else 52
            if card in self._tracked.get(seat, set()) and face in known:  # type: ignore[attr-defined]
                known.remove(face)
    tracked: dict[int, set[int]] = {}
    original_take = HandState._take_pile

    def take_pile(self: HandState, seat: int, events: list[object]) -> None:
        tracked.setdefault(seat, set()).update(self.pile)
        original_take(self, seat, events)  # type: ignore[arg-type]
    monkeypatch.setattr(HandState, "_take_pile", take_pile)
    monkeypatch.setattr(HandState, "_tracked", tracked, raising=False)
    monkeypatch.setattr(HandState, "_forget_known", forget_by_copy)
    tally = Tally()
    for seed in range(12):
        tally.add(audit_hand("fibur", 2, seed, positions=6, continuation=8, swaps=4))
    assert any(f.seat != f.actor and "observation" in f.surfaces for f in tally.findings)


def test_the_command_counts_worlds_and_refuses_bad_options() -> None:
    done = subprocess.run(
        [BURRACO, "audit", "secrecy", "--players", "2,4", "--rules", "fibur", "--hands", "1",
         "--policies", "random", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["hands"] == 2 and result["worlds"] > 0 and result["differences"] == []
    for args, word in ((["--players", "7"], "--players"), (["--rules", "nope"], "nope"),
                       (["--policies", "wizard"], "--policies"), (["--hands", "0"], "--hands")):
        bad = subprocess.run([BURRACO, "audit", "secrecy", *args], capture_output=True,
                             text=True, timeout=60)
        assert bad.returncode == 2 and word in bad.stderr, (args, bad.stderr)
