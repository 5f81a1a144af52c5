"""The rule set as one frozen value (RULES.md §16 and every CONFLICT/option point).

A preset is data: a name and a ``Rules`` value.  The engine reads options from
the value and never branches on a preset's name, so adding a federation's code
is adding a dictionary entry.

>>> FIBUR.target
2005
>>> Rules.preset("fibur").with_options(target=505).target
505
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

WildDiscard = Literal["except-closing", "never"]
NobodyPozzetto = Literal["score", "redeal", "penalty-each"]
LastTurn = Literal["complete-turn", "stop"]
PilePickup = Literal["free", "must-use", "must-meld-picked"]
Closing = Literal["any", "clean", "clean-and-other"]
TimeOut = Literal["one-more-turn-each", "round-back"]
PileUse = Literal["hand-or-pile", "from-pile"]
UpcardPickup = Literal["any-new-meld", "meld-with-upcard"]
CollectedPinella = Literal["free", "hand-meld-to-keep"]
PileView = Literal["everyone", "on-turn"]

# MP difference upper bounds for VP 10…19 (RULES.md §11.2); a difference above the last is 20–0.
VP_TABLE_2_HANDS: tuple[int, ...] = (40, 120, 200, 300, 400, 500, 620, 740, 870, 1000)
VP_TABLE_3_HANDS: tuple[int, ...] = (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500)
VP_TABLE_4_HANDS: tuple[int, ...] = (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000)

BURRACO_TYPES = (
    "clean",
    "semi-clean",
    "dirty",
    "super",
    "dirty-super",
    "royal",
    "dirty-royal",
    "complete",
    "champion",
)


def _opt(default: Any, section: str, doc: str) -> Any:
    return field(default=default, metadata={"section": section, "doc": doc})


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md; defaults are the FIBur Italian code (preset ``fibur``)."""

    name: str = _opt("fibur", "§16", "preset this value was built from")
    # §2 table conventions (they change what is shown, not the legal moves)
    direction: Literal["clockwise", "counter-clockwise"] = _opt(
        "clockwise", "§2.3", "direction of play and of the deal rotation")
    tie_break_suits: str = _opt("HDCS", "§1.5", "suit order for the seat draw, highest first")
    pozzetti_by: Literal["right", "left"] = _opt(
        "right", "§2.4", "side of the dealer of the player who builds the pozzetti")
    # §1, §13 equipment
    packs: int = _opt(2, "§1.1", "packs of 52 cards + 2 jokers each (2 and 4 players)")
    three_player_packs: int = _opt(2, "§13.2", "packs for 3 players (CONFLICT: 3 in one source)")
    five_six_player_packs: int = _opt(3, "§13.3, §13.4", "packs for 5 and 6 players")
    jokers: bool = _opt(True, "§14.1", "jokers are in play (False: pinelle only)")
    hand_size: int = _opt(11, "§2.6", "cards dealt to each player")
    pozzetto_size: int = _opt(11, "§2.5", "cards in each ordinary pozzetto")
    big_pozzetto_size: int = _opt(18, "§13.2, §13.3", "the big pozzetto of 3 and 5 players")
    # §3 the turn
    pile_pickup: PilePickup = _opt(
        "free", "§3.1.2, §14.1, §14.3",
        "free: no condition; must-use: a card must be usable at once; "
        "must-meld-picked: a picked card must be melded this turn")
    pile_use: PileUse = _opt(
        "hand-or-pile", "§14.1",
        "with must-use, the usable card: hand-or-pile (International code Art. 8: a card of the "
        "hand or of the pile); from-pile (one seed: a card of the pile)")
    upcard_pickup: UpcardPickup = _opt(
        "any-new-meld", "§14.1",
        "with must-use, the lone first up-card: any-new-meld (Art. 8: a new meld can be opened, "
        "with hand cards or the up-card); meld-with-upcard (the new meld must hold it)")
    collected_pinella: CollectedPinella = _opt(
        "free", "§14.1",
        "hand-meld-to-keep (International Art. 8): a pinella taken with the pile may stay in hand "
        "only if the player also opens a meld of his own hand cards that turn, else he melds it")
    pile_view: PileView = _opt(
        "everyone", "§3.1.5",
        "who may look through the discard pile: everyone (online tables); on-turn (only the "
        "player on turn, before he draws; the others see its top card and size)")
    pile_requires_melded: bool = _opt(
        False, "§3.1.2", "house rule: only a side that has melded may take the pile")
    single_card_pile_rule: bool = _opt(
        True, "§3.1.4", "the card of a one-card pile may not be discarded that turn")
    wild_discard: WildDiscard = _opt(
        "except-closing", "§3.3.2", "wilds may be discarded except to close (never: not at all)")
    # §4 melds
    same_suit_sequences: bool = _opt(True, "§4.1.4", "two sequences of one suit may coexist")
    one_set_per_rank: bool = _opt(True, "§4.2.3", "a side may hold one set of each rank")
    set_ranks: tuple[int, ...] | None = _opt(
        None, "§14.1", "ranks allowed in sets (None: all but 2; International: aces, threes)")
    natural_two_to_wild: bool = _opt(
        True, "§4.3.9", "a natural 2 may become the meld's wild when an attachment needs it")
    # §5 burraco classification and §15 bonuses
    semi_clean: bool = _opt(True, "§5", "semi-clean burraco recognised (False: scored dirty)")
    semi_clean_inner_wild: bool = _opt(
        True, "§5", "a wild inside the run may still be semi-clean (False: only at an end)")
    semi_clean_set_of_nine: bool = _opt(
        True, "§5", "a set of 8 naturals + wild is semi-clean (False: only 8-card sets)")
    bonuses: tuple[tuple[str, int], ...] = _opt(
        (("clean", 200), ("semi-clean", 150), ("dirty", 100)), "§5, §15",
        "bonus of each burraco type; types not listed fall back to clean/semi-clean/dirty")
    # §6–8 pozzetto, closing, end of hand
    closing: Closing = _opt(
        "any", "§7.1, §13.4, §14",
        "burraco needed to close: any; clean; clean-and-other (one clean + one not clean)")
    closing_alternatives: tuple[str, ...] = _opt(
        (), "§14.2, §14.3", "burraco types that alone also allow closing")
    champion_burraco: Literal["clean-set-of-eight", "none"] = _opt(
        "clean-set-of-eight", "§14.3, §17.4",
        "what a Champion burraco is: THE PROJECT'S READING, no source defines it "
        "(clean-set-of-eight: all eight naturals of a rank, no wild; none: no such burraco); "
        "scored only where the bonuses list 'champion'")
    closing_bonus: int = _opt(100, "§9.1", "bonus for a real closing")
    pozzetto_penalty: int = _opt(100, "§9.2", "cost of a pozzetto not taken")
    nobody_pozzetto: NobodyPozzetto = _opt(
        "score", "§8.4", "when no side took a pozzetto: score; redeal; penalty-each")
    last_turn: LastTurn = _opt(
        "complete-turn", "§8.1", "at two stock cards the drawer completes his turn (or stop)")
    stall_rounds: int = _opt(
        2, "§8.3", "rounds of one-card pickups without melding that end the hand (0: never)")
    time_out: TimeOut = _opt("one-more-turn-each", "§8.2", "last round after time is called")
    # §9–11 matches
    target: int = _opt(2005, "§9.3, §10", "free-play target (505, 1005, 2005)")
    vp_tables: tuple[tuple[int, tuple[int, ...]], ...] = _opt(
        ((2, VP_TABLE_2_HANDS), (3, VP_TABLE_3_HANDS), (4, VP_TABLE_4_HANDS)), "§11.2",
        "MP-difference bounds for VP 10…19 by smazzate per match (team matches: not found)")
    # §13 player counts
    individual_from: int = _opt(
        1000, "§13.2", "3 players: score from which all play individually")
    five_player_individual_from: int = _opt(
        1005, "§13.3", "5 players: score from which all play individually")
    three_player_target: int = _opt(1505, "§13.2", "3 players: match end")
    five_player_target: int = _opt(
        1505, "§13.3", "5 players: match end (GD: won at 1000, below EB's switch to individual "
        "play at 1005; default as for 3 players, 1505)")
    partner_wild_pickup_barred: bool = _opt(
        True, "§13.2", "3 and 5 players: a partner may not take a pile holding a wild "
        "discarded by the other partner")
    six_player_closing: Closing = _opt(
        "clean-and-other", "§13.4", "6 players: burraco needed to close")

    def bonus(self, kind: str) -> int:
        """Bonus of a burraco type under these rules (0 when the type is not scored)."""
        for name, points in self.bonuses:
            if name == kind:
                return points
        return 0

    def packs_for(self, players: int) -> int:
        if players == 3:
            return self.three_player_packs
        if players >= 5:
            return self.five_six_player_packs
        return self.packs

    def for_players(self, players: int) -> Rules:
        """The rules as they apply at a table of ``players`` (packs, 6-player closing)."""
        changes: dict[str, Any] = {}
        if self.packs_for(players) != self.packs:
            changes["packs"] = self.packs_for(players)
        if players == 6 and self.closing == "any":
            changes["closing"] = self.six_player_closing
        return replace(self, **changes) if changes else self

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown names raise ``TypeError``."""
        return replace(self, **changes)

    @staticmethod
    def preset(name: str) -> Rules:
        try:
            return PRESETS[name]
        except KeyError:
            known = ", ".join(sorted(PRESETS))
            raise ValueError(f"unknown rules preset {name!r} (known: {known})") from None

    @staticmethod
    def options() -> list[tuple[str, str, str]]:
        """``(name, section, description)`` for every option, in declaration order."""
        return [(f.name, f.metadata["section"], f.metadata["doc"]) for f in fields(Rules)]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


FIBUR = Rules()

PRESETS: dict[str, Rules] = {
    # FIBur Italian code: the default (§1–§11)
    "fibur": FIBUR,
    # FIBur International code (§14.1)
    "fibur-international": Rules(
        name="fibur-international", closing="clean", set_ranks=(1, 3), pile_pickup="must-use",
        collected_pinella="hand-meld-to-keep", semi_clean=False,
        bonuses=(("clean", 200), ("dirty", 100)),
    ),
    # FIBur Burraco Revolution (§14.2): values other than the Italian ones were not found, so a
    # "Burraco Revolution" (a clean A–K run, the burraco reale) scores as a clean burraco
    "fibur-revolution": Rules(
        name="fibur-revolution", pile_pickup="must-use", closing="clean-and-other",
        closing_alternatives=("royal",),
        bonuses=(("clean", 200), ("semi-clean", 150), ("dirty", 100), ("royal", 200)),
    ),
    # Burraco Champion (§14.3)
    "champion": Rules(
        name="champion", pile_pickup="must-meld-picked", closing="clean-and-other",
        closing_alternatives=("champion", "royal"),
        bonuses=(("clean", 300), ("semi-clean", 150), ("dirty", 100), ("royal", 300),
                 ("champion", 500)),
        closing_bonus=200, pozzetto_penalty=200,
    ),
    # Scoring codes of other federations (§15)
    "fedibur": Rules(
        name="fedibur", semi_clean=False, bonuses=(("clean", 200), ("dirty", 100)),
    ),
    "febur-it": Rules(
        name="febur-it",
        bonuses=(("clean", 200), ("semi-clean", 150), ("dirty", 100), ("super", 250),
                 ("royal", 300), ("complete", 400)),
    ),
    "fitab": Rules(
        name="fitab",
        bonuses=(("clean", 200), ("semi-clean", 150), ("dirty", 100), ("super", 250),
                 ("dirty-super", 200), ("royal", 300), ("dirty-royal", 250)),
    ),
    # Home play (§8.4, §9.3): a hand nobody went to the pozzetto in is dealt again
    "home": Rules(name="home", nobody_pozzetto="redeal"),
}

PRESET_NOTES: dict[str, str] = {
    "fibur": "FIBur Italian code, the default.",
    "fibur-international": "FIBur International code: clean burraco to close, sets of aces "
    "and threes only, the pile only when a card of the hand or the pile can be used at once "
    "(the lone first up-card: when a new meld can be opened), a pinella taken with the pile "
    "kept only if a meld of hand cards is also opened (Art. 8), no semi-clean.",
    "fibur-revolution": "FIBur Burraco Revolution: the pile only when a card can be used at "
    "once; close with a clean and a non-clean burraco, or a Burraco Revolution (clean A–K); "
    "its own values were not found, so it scores as a clean burraco.",
    "champion": "Burraco Champion (Mortera, 2010): two burraco to close (one clean), or a "
    "Champion burraco, or 13 clean cards in sequence; a pile pickup obliges melding a picked "
    "card; clean 300, Champion 500, closing 200, pozzetto not taken -200.  The 'Champion "
    "burraco' is THE PROJECT'S READING: no source defines it; read as a clean set of all "
    "eight cards of a rank (option champion_burraco; none to drop it).",
    "fedibur": "Fed.I.Bur scoring: no semi-clean burraco (clean 200, dirty 100).",
    "febur-it": "Fe.Bur.It scoring: superpulito (clean set of 8) 250, over the top (13-card "
    "clean run) 300, scala completa (read as a 14-card run; unverified) 400.",
    "fitab": "F.It.AB scoring: super (clean set of 8) 250, dirty super 200, royal (clean A–K or "
    "2–A) 300, dirty royal 250.",
    "home": "FIBur with the home rule: a hand where nobody took a pozzetto is dealt again.",
}
