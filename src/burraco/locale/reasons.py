"""The refusals' words, in one place for every client: the engine's and the server's reasons
(their English sentences are the msgids, context ``reason``), the protocol's error codes
(context ``code.<code>``) and the words a reason names (ranks, closing needs, table states).

The browser app reads the same entries from the same catalogs (``web/src/reasons.ts``), so a
refusal reads alike in the browser, the terminal client and the server's pages. A reason the
catalogs do not know is shown as the engine wrote it: never lost, only untranslated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from burraco.locale import N_, pgettext_in

#: Every reason the engine or the server gives, with ``{name}`` where a value goes: ``card``
#: a card (``7H``), ``ranks`` a rank's plural (``aces``, ``7s``), ``allowed`` ranks joined by
#: "and", ``need`` a closing need, ``status`` a table's state; the rest are numbers or names.
TEMPLATES: tuple[str, ...] = (
    N_("reason", "the hand is over"),
    N_("reason", "draw from the stock or take the discard pile first (§3.1)"),
    N_("reason", "you have already drawn this turn (§3.1)"),
    N_("reason", "time has already been called"),
    N_("reason", "the discard pile is empty"),
    N_("reason", "only a side that has melded may take the pile (house rule)"),
    N_("reason", "the pile holds a wild your partner discarded: you may not take it (§13.2)"),
    N_("reason", "you may take the pile only if you can use a card at once, of your hand or of the "
                 "pile: attach one or open a meld (§14.1)"),
    N_("reason", "you may take the pile only if you can use a card at once, one of its own: attach "
                 "it or open a meld with it (§14.1)"),
    N_("reason", "you may take the lone first up-card only if you can "
                 "then open a new meld (§14.1)"),
    N_("reason", "you may take the lone first up-card only if you can open a meld with it (§14.1)"),
    N_("reason", "you may take a pile holding a pinella only if you can then meld it or open a "
                 "meld of your own hand cards (§14.1)"),
    N_("reason", "you took a pinella with the pile: meld it, or open a meld of your own hand "
                 "cards, before anything else (§14.1)"),
    N_("reason", "after this play you could neither meld the other pinella taken with the pile nor "
                 "open a meld of your own hand cards (§14.1)"),
    N_("reason", "you took a pinella with the pile: you may keep it only by opening a meld of your "
                 "own hand cards; otherwise meld it before discarding (§14.1)"),
    N_("reason", "you may take the pile only if you can meld one of its cards (§14.3)"),
    N_("reason", "your side already has a sequence of this suit"),
    N_("reason", "you took the pile: first meld at least one of its cards (§14.3)"),
    N_("reason", "you cannot end your turn without a card to discard: keep one (§7.2)"),
    N_("reason", "your last card would be the one just taken from a one-card pile, which you may "
                 "not discard this turn (§3.1.4)"),
    N_("reason", "your last card would be a wild, which may not be discarded"),
    N_("reason", "you could not close: the closing discard may not be a wild (§7.1)"),
    N_("reason", "you took the pile: meld at least one of its cards before discarding (§14.3)"),
    N_("reason", "wild cards may not be discarded under these rules"),
    N_("reason", "you cannot close by discarding a wild (§7.1)"),
    N_("reason", "the cards do not form a set or a sequence"),
    N_("reason", "two wild cards in one meld"),
    N_("reason", "a meld needs at least two natural cards"),
    N_("reason", "too many cards for one set"),
    N_("reason", "a meld needs at least three cards"),
    N_("reason", "the same physical card is named twice"),
    N_("reason", "jokers are not in play under these rules"),
    N_("reason", "a meld needs at least two natural cards; a set of twos is not allowed"),
    N_("reason", "the cards form neither a sequence (one suit) nor a set (one rank)"),
    N_("reason", "attach at least one card"),
    N_("reason", "the cards do not form a sequence"),
    N_("reason", "a sequence holds one ace, low or high, never both"),
    N_("reason", "a sequence cannot hold two cards of the same rank"),
    N_("reason", "the cards are not consecutive"),
    N_("reason", "no room for the wild: the sequence already runs from ace to ace"),
    N_("reason", "time is called by the referee, not a player"),
    N_("reason", "undo is not allowed at tournament tables"),
    N_("reason", "you have not drawn yet"),
    N_("reason", "no meld or attachment of yours since the draw"),
    N_("reason", "that play took the pozzetto, whose cards have been seen"),
    N_("reason", "no hand is being played at this table"),
    N_("reason", "spectators cannot act"),
    N_("reason", "hints are given at casual tables only"),
    N_("reason", "the hint for this position is on its way"),
    N_("reason", "the table moved on while the hint was thought: ask again"),
    N_("reason", "the hint could not be thought; ask again"),
    N_("reason", "you do not hold another {card}"),
    N_("reason", "you do not hold {card}"),
    N_("reason", "your side already has a set of {ranks}: attach to it (§4.2.3)"),
    N_("reason", "your side has no meld {meld} (it has {count})"),
    N_("reason", "you could not close: your side needs {need} (§7.1)"),
    N_("reason", "you cannot close: your side needs {need} (§7.1)"),
    N_("reason", "you may not discard the {card} you just took from a one-card pile this turn "
                 "(§3.1.4)"),
    N_("reason", "{card} is not of the sequence's suit"),
    N_("reason", "sets of {ranks} are not allowed (only {allowed})"),
    N_("reason", "{card} does not belong to a set of {ranks}"),
    N_("reason", "it is seat {seat}'s turn, not {other}'s"),
    N_("reason", "no seat {seat} at a table of {players}"),
    N_("reason", "seat {seat} is held by {name}"),
    N_("reason", "seat {seat} is played by a bot"),
    N_("reason", "the table is {status}"),
)

#: What a side needs to close (``{need}``), as the engine names it.
NEEDS: tuple[str, ...] = (
    N_("reason.need", "a burraco"),
    N_("reason.need", "a clean burraco"),
    N_("reason.need", "a clean and a non-clean burraco"),
)

#: A table's states (``{status}``).
STATUSES: tuple[str, ...] = (
    N_("reason.status", "waiting"),
    N_("reason.status", "playing"),
    N_("reason.status", "finished"),
)

#: Ranks in the plural, as reasons name them (``{ranks}``): "sets of aces".
RANKS: dict[str, str] = {
    "A": N_("reason.ranks", "aces"), "2": N_("reason.ranks", "twos"), "3": N_("reason.ranks", ""
                                                                                              "threes"),
    "4": N_("reason.ranks", "4s"), "5": N_("reason.ranks", "5s"), "6": N_("reason.ranks", "6s"),
    "7": N_("reason.ranks", "7s"), "8": N_("reason.ranks", "8s"), "9": N_("reason.ranks", "9s"),
    "10": N_("reason.ranks", "10s"), "J": N_("reason.ranks", "Js"), "Q": N_("reason.ranks", "Qs"),
    "K": N_("reason.ranks", "Ks"),
}

#: The word joining the last two of a list of ranks ("aces and threes").
AND = N_("reason.list", "{first} and {last}")

#: The protocol's error codes (docs/protocol.md), for refusals whose reason is the server's.
CODES: dict[str, str] = {
    "not_your_turn": N_("code.not_your_turn", "It is not your turn."),
    "stale_version": N_("code.stale_version", "The table moved on meanwhile: try again."),
    "spectator": N_("code.spectator", "Spectators cannot play."),
    "not_your_seat": N_("code.not_your_seat", "That seat is not yours."),
    "not_playing": N_("code.not_playing", "No hand is being played."),
    "undo_not_allowed": N_("code.undo_not_allowed", "Undo is not possible here."),
    "nothing_to_undo": N_("code.nothing_to_undo", "Nothing to undo."),
    "hint_not_allowed": N_("code.hint_not_allowed", "Hints are given at casual tables only."),
    "hint_given": N_("code.hint_given", "The hint for this position is already shown."),
    "overloaded": N_("code.overloaded", "The table is busy: try again."),
    "rate_limited": N_("code.rate_limited", "Too many commands at once: try again in a moment."),
    "storage_error": N_("code.storage_error", "The server could not save that: try again."),
    "internal_error": N_("code.internal_error", "The server failed on that command."),
    "bad_action": N_("code.bad_action", "That action cannot be read."),
    "forbidden_action": N_("code.forbidden_action", "Players may not do that."),
    "table_not_found": N_("code.table_not_found", "There is no such table."),
    "bad_token": N_("code.bad_token", "This link or token is not valid."),
    "guest_required": N_("code.guest_required", "Pick a nickname first."),
    "seat_token_mismatch": N_("code.seat_token_mismatch", "This invite is for another seat."),
    "seat_taken": N_("code.seat_taken", "Someone else holds this seat."),
    "no_such_seat": N_("code.no_such_seat", "The table has no such seat."),
    "bot_seat": N_("code.bot_seat", "A bot plays this seat."),
    "watch_token_required": N_("code.watch_token_required", "This table is private: you need its "
                                                            "link."),
    "account_required": N_("code.account_required", "Only accounts sit at rated tables: log in or "
                                                    "register in the lobby."),
    "rated_wait": N_("code.rated_wait", "You left a rated match: you must wait "
                                        "before the next one."),
    "rated_live": N_("code.rated_live", "A rated match can be watched only once it is over."),
    "one_seat": N_("code.one_seat", "You already hold a seat at this rated match: a person plays "
                                    "one seat."),
    "session_ended": N_("code.session_ended", "Your session ended (logout or a new password): log "
                                              "in again."),
    "table_cancelled": N_("code.table_cancelled", "The table was cancelled by its creator."),
    "not_creator": N_("code.not_creator", "Only the table's creator may cancel it."),
    "not_waiting": N_("code.not_waiting", "The match has started: it can no longer be cancelled."),
    "others_joined": N_("code.others_joined", "Another player has taken a seat: the table can no "
                                              "longer be cancelled."),
    "private_table": N_("code.private_table", "A private table is joined by its invite link."),
    "duplicate_message": N_("code.duplicate_message", "That command was already applied."),
    "unknown_quick": N_("code.unknown_quick", "That message is not one of the quick messages."),
    "no_rematch": N_("code.no_rematch", "A rematch is offered to the match's players once it is "
                                        "over."),
    "hand_not_over": N_("code.hand_not_over", "That hand is not over yet."),
}

_SLOT = re.compile(r"\{(\w+)\}")
_WHAT = {"card": r"(\S+)", "ranks": r"(\S+)", "seat": r"(\d+)", "other": r"(\d+)",
         "players": r"(\d+)", "meld": r"(\d+)", "count": r"(\d+)", "status": r"(\S+)"}
SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
_FACE = re.compile(r"(?<![\w(=])(10|[2-9AJQK])([HDCS])(?!\w)")


@dataclass(frozen=True)
class Template:
    """A reason's template, its pattern and the names of its values in order."""

    text: str
    pattern: re.Pattern[str]
    names: tuple[str, ...]


def _compile(text: str) -> Template:
    parts: list[str] = []
    names: list[str] = []
    last = 0
    for slot in _SLOT.finditer(text):
        parts.append(re.escape(text[last:slot.start()]))
        parts.append(_WHAT.get(slot[1], r"(.+)"))
        names.append(slot[1])
        last = slot.end()
    parts.append(re.escape(text[last:]))
    return Template(text, re.compile("^" + "".join(parts) + "$"), tuple(names))


# the most literal first: "you do not hold another {card}" before "you do not hold {card}"
_COMPILED = sorted((_compile(t) for t in TEMPLATES), key=lambda t: -len(_SLOT.sub("", t.text)))


def match(reason: str) -> tuple[str, dict[str, str]] | None:
    """The template ``reason`` was written from and its values, or ``None``."""
    for template in _COMPILED:
        found = template.pattern.match(reason)
        if found:
            return template.text, dict(zip(template.names, found.groups(), strict=True))
    return None


def with_suit_symbols(text: str) -> str:
    """Cards as a player reads them: ``8H`` → ``8♥`` (jokers stay ``JK``)."""
    return _FACE.sub(lambda m: m[1] + SUITS[m[2]], text)


def _rank_of(word: str) -> str | None:
    for rank, english in RANKS.items():
        if word == english:
            return rank
    return None


def _value(lang: str, name: str, value: str) -> str:
    if name == "card":
        return with_suit_symbols(value)
    if name == "ranks":
        rank = _rank_of(value)
        return pgettext_in(lang, "reason.ranks", RANKS[rank]) if rank else value
    if name == "allowed":
        words = [_value(lang, "ranks", part) for part in value.split(" and ")]
        if len(words) < 2:
            return ", ".join(words)
        joined = pgettext_in(lang, "reason.list", AND)
        return fill(joined, {"first": ", ".join(words[:-1]), "last": words[-1]})
    if name == "need":
        return pgettext_in(lang, "reason.need", value) if value in NEEDS else value
    if name == "status":
        return pgettext_in(lang, "reason.status", value) if value in STATUSES else value
    return value


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{name}`` replaced by its value (an unknown name left as it is)."""
    return _SLOT.sub(lambda m: values.get(m[1], m[0]), text)


def reason_in(lang: str, reason: str) -> str:
    """The engine's (or server's) reason in ``lang``, cards with their suit symbols; the
    English sentence when the catalogs do not know it."""
    found = match(reason)
    if found is None:
        return with_suit_symbols(reason)
    template, values = found
    return fill(pgettext_in(lang, "reason", template),
                {name: _value(lang, name, value) for name, value in values.items()})


def code_in(lang: str, code: str) -> str | None:
    """The text of a protocol error code in ``lang``, or ``None`` for a code without one."""
    english = CODES.get(code)
    return None if english is None else pgettext_in(lang, f"code.{code}", english)
