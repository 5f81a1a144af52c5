"""The terminal client's words, from the message catalogs (:mod:`burraco.locale`).

Each message has a key (``words("hand_no", n=2)``) and its English text here, the catalogs'
source (context ``tui.<key>``); every other language's text is in its catalog. The engine's
and the server's refusals come from the same catalog entries as the browser's
(:mod:`burraco.locale.reasons`): a new reason is never lost, only untranslated. The language
comes from ``--lang`` or the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from burraco.locale import (
    LANGUAGES,
    N_,
    check_language,
    from_environment,
    ngettext_in,
    pgettext_in,
)
from burraco.locale.reasons import code_in, reason_in
from burraco.locale.seats import compass_names

LANGS = LANGUAGES

#: Every message's English, by key (the source of the catalogs' ``tui.*`` entries).
MESSAGES: dict[str, str] = {
    "title": N_("tui.title", "Burraco"),
    "you": N_("tui.you", "You"),
    "seat": N_("tui.seat", "Seat {n}"),
    "bot": N_("tui.bot", "{level} bot"),
    "open_seat": N_("tui.open_seat", "open seat"),
    "invite": N_("tui.invite", "Invite for {name}: {link}"),
    "waiting_players": N_("tui.waiting_players", "Waiting for the players to sit down"),
    "hand_no": N_("tui.hand_no", "Hand {n}"),
    "turn_of": N_("tui.turn_of", "turn: {name}"),
    "your_turn_draw": N_("tui.your_turn_draw", "Your turn: draw (d) or take the pile (p)"),
    "your_turn_play": N_("tui.your_turn_play", "Your turn: meld (m), attach (a), discard (x)"),
    "waiting_for": N_("tui.waiting_for", "Waiting for {name}"),
    "phase.draw": N_("tui.phase.draw", "draws"),
    "phase.play": N_("tui.phase.play", "plays"),
    "stock": N_("tui.stock", "Stock"),
    "pile": N_("tui.pile", "Pile"),
    "pile_empty": N_("tui.pile_empty", "empty"),
    "pozzetti": N_("tui.pozzetti", "Pozzetti"),
    "pozzetto_taken": N_("tui.pozzetto_taken", "{side}: {name}"),
    "pozzetto_none": N_("tui.pozzetto_none", "none taken"),
    "score": N_("tui.score", "Score"),
    "target": N_("tui.target", "to {n}"),
    "melds_of": N_("tui.melds_of", "{side}"),
    "no_melds": N_("tui.no_melds", "no melds"),
    "online": N_("tui.online", "online"),
    "offline": N_("tui.offline", "offline"),
    "standin": N_("tui.standin", "stand-in {level}"),
    "clock": N_("tui.clock", "clock {s}s"),
    "final_turn": N_("tui.final_turn", "last round"),
    "spectator": N_("tui.spectator", "Watching"),
    "replay": N_("tui.replay", "Replay"),
    "replay_pos": N_("tui.replay_pos", "move {i}/{n}"),
    "replay_seat": N_("tui.replay_seat", "seen from {name}"),
    "selected": N_("tui.selected", "selected: {cards}"),
    "nothing_selected": N_("tui.nothing_selected", "select cards with space first"),
    "attach_which": N_("tui.attach_which", "attach to which meld? type its number (Esc cancels)"),
    "attach_cancel": N_("tui.attach_cancel", "attach cancelled"),
    "no_such_meld": N_("tui.no_such_meld", "your side has no meld {n}"),
    "select_one": N_("tui.select_one", "select exactly one card to discard"),
    "sorted_suit": N_("tui.sorted_suit", "hand sorted by suit"),
    "sorted_rank": N_("tui.sorted_rank", "hand sorted by rank"),
    "refused": N_("tui.refused", "Refused: {reason}"),
    "rules_at": N_("tui.rules_at", "see RULES.md {section}"),
    "not_your_turn": N_("tui.not_your_turn", "It is not your turn."),
    "connecting": N_("tui.connecting", "connecting…"),
    "reconnecting": N_("tui.reconnecting", "link lost: reconnecting…"),
    "connected": N_("tui.connected", "connected"),
    "closed_link": N_("tui.closed_link", "the server closed the link: {reason}"),
    "quit_confirm": N_("tui.quit_confirm", "Leave the match? (y: yes, any other key: no)"),
    "hand_over": N_("tui.hand_over", "Hand over"),
    "hand_over_reason.closed": N_("tui.hand_over_reason.closed", "{name} closed"),
    "hand_over_reason.stock": N_("tui.hand_over_reason.stock", "the stock ran out"),
    "hand_over_reason.stall": N_("tui.hand_over_reason.stall", "the hand stalled"),
    "hand_over_reason.time": N_("tui.hand_over_reason.time", "time is up"),
    "result_line": N_("tui.result_line", "{side}: melds {melds}, burraco {bonuses}, closing "
                                         "{closing}, pozzetto {pozzetto}, hand {hand} = {total}"),
    "next_hand": N_("tui.next_hand", "press n for the next hand"),
    "saved": N_("tui.saved", "record: {path}"),
    "seed": N_("tui.seed", "Seed {seed}: burraco tui --seed {seed} deals these hands again"),
    "match_over": N_("tui.match_over", "Match over: {winner} win"),
    "match_tie": N_("tui.match_tie", "Match over: a tie"),
    "redeal": N_("tui.redeal", "Nobody took a pozzetto: the hand is dealt again"),
    "turn.draw": N_("tui.turn.draw", "drew"),
    "turn.pickup": N_("tui.turn.pickup", "took the pile"),
    "turn.meld": N_("tui.turn.meld", "melded {cards}"),
    "turn.attach": N_("tui.turn.attach", "attached {cards} to {n}"),
    "turn.discard": N_("tui.turn.discard", "discarded {card}"),
    "turn.time": N_("tui.turn.time", "time is called"),
    "help_title": N_("tui.help_title", "Keys"),
    "help_close": N_("tui.help_close", "any key closes this"),
    "help.draw": N_("tui.help.draw", "draw from the stock"),
    "help.pickup": N_("tui.help.pickup", "take the discard pile"),
    "help.left": N_("tui.help.left", "move left along the hand"),
    "help.right": N_("tui.help.right", "move right along the hand"),
    "help.select": N_("tui.help.select", "select or unselect the card"),
    "help.meld": N_("tui.help.meld", "meld the selected cards"),
    "help.attach": N_("tui.help.attach", "attach the selection: then the meld's number"),
    "help.discard": N_("tui.help.discard", "discard the selected card (or the "
                                           "one under the cursor)"),
    "help.undo": N_("tui.help.undo", "take back your last meld or attachment (casual tables)"),
    "help.sort": N_("tui.help.sort", "sort by suit / by rank"),
    "help.pile": N_("tui.help.pile", "show the whole discard pile"),
    "help.next": N_("tui.help.next", "next hand / replay: next move"),
    "help.back": N_("tui.help.back", "replay: previous move"),
    "help.seat": N_("tui.help.seat", "replay: see another seat"),
    "help.first": N_("tui.help.first", "replay: the start"),
    "help.last": N_("tui.help.last", "replay: the end"),
    "key.first": N_("tui.key.first", "start"),
    "key.last": N_("tui.key.last", "last move"),
    "help.help": N_("tui.help.help", "this help"),
    "help.quit": N_("tui.help.quit", "quit"),
    "help.mouse": N_("tui.help.mouse", "Mouse: click a card to select it, a meld to attach the "
                                       "selection to it, the stock to draw, the pile to take it."),
    "help.settings": N_("tui.help.settings", "Keys are rebound in {path}"),
    "key.draw": N_("tui.key.draw", "draw"),
    "key.pickup": N_("tui.key.pickup", "pile"),
    "key.meld": N_("tui.key.meld", "meld"),
    "key.attach": N_("tui.key.attach", "attach"),
    "key.discard": N_("tui.key.discard", "discard"),
    "key.undo": N_("tui.key.undo", "undo"),
    "key.sort": N_("tui.key.sort", "sort"),
    "key.pile": N_("tui.key.pile", "show pile"),
    "key.help": N_("tui.key.help", "help"),
    "key.quit": N_("tui.key.quit", "quit"),
    "key.select": N_("tui.key.select", "select"),
    "key.next": N_("tui.key.next", "next"),
    "key.back": N_("tui.key.back", "back"),
    "key.seat": N_("tui.key.seat", "seat"),
    "level.random": N_("tui.level.random", "Random"),
    "level.basic": N_("tui.level.basic", "Beginner"),
    "level.advanced": N_("tui.level.advanced", "Club player"),
    "level.expert": N_("tui.level.expert", "Expert"),
    "side.us": N_("tui.side.us", "Us"),
    "side.them": N_("tui.side.them", "Them"),
    "burraco.clean": N_("tui.burraco.clean", "clean"),
    "burraco.semi-clean": N_("tui.burraco.semi-clean", "semi-clean"),
    "burraco.dirty": N_("tui.burraco.dirty", "dirty"),
    "burraco.other": N_("tui.burraco.other", "burraco"),
    "seen_pozzetto": N_("tui.seen_pozzetto", "your pozzetto, played after your next draw: {cards}"),
    "turn.me.draw": N_("tui.turn.me.draw", "drew"),
    "turn.me.pickup": N_("tui.turn.me.pickup", "took the pile"),
    "turn.me.meld": N_("tui.turn.me.meld", "melded {cards}"),
    "turn.me.attach": N_("tui.turn.me.attach", "attached {cards} to {n}"),
    "turn.me.discard": N_("tui.turn.me.discard", "discarded {card}"),
}

#: The messages with a count ``{n}``, by key: each language's plural form for the count (the
#: catalogs' plural entries; they have no context, so each says where it is shown).
PLURALS: dict[str, Callable[[str, int], str]] = {
    # TRANSLATORS: the terminal client: the title of the whole discard pile ("v")
    "pile_all": lambda lang, n: ngettext_in(
        lang, "The discard pile, bottom first ({n} card)",
        "The discard pile, bottom first ({n} cards)", n),
    # TRANSLATORS: the terminal client's table line, after "Pozzetti:": how many are left to take
    "pozzetto_left": lambda lang, n: ngettext_in(lang, "{n} left", "{n} left", n),
}


def detect_lang(env: Mapping[str, str] | None = None) -> str:
    """The locale's language when the platform speaks it (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``), else English."""
    return from_environment(dict(env) if env is not None else None)


class Words:
    """The strings of one language: ``words("hand_no", n=2)``."""

    def __init__(self, lang: str) -> None:
        try:
            self.lang = check_language(lang)
        except ValueError as error:
            raise ValueError(f"{error} (--lang)") from None

    def __call__(self, key: str, **values: object) -> str:
        count = values.get("n")
        if key in PLURALS and isinstance(count, int):
            text = PLURALS[key](self.lang, count)
        else:
            english = MESSAGES.get(key)
            text = key if english is None else pgettext_in(self.lang, f"tui.{key}", english)
        return text.format(**values) if values else text

    def seat_name(self, seat: int, players: int) -> str:
        names = compass_names(players, self.lang)
        return names[seat] if names else self("seat", n=seat + 1)

    def level(self, level: str) -> str:
        return self(f"level.{level}") if f"level.{level}" in MESSAGES else level

    def reason(self, reason: str) -> str:
        """A refusal's reason in this language (cards with their suit symbols)."""
        return reason_in(self.lang, reason)

    def code(self, code: str) -> str:
        """A protocol error code's text in this language (the code itself when it has none)."""
        return code_in(self.lang, code) or code


_SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")


def rules_section(reason: str) -> str | None:
    """The RULES.md section a reason cites (``§3.1``), or ``None``."""
    match = _SECTION.search(reason)
    return f"§{match.group(1)}" if match else None
