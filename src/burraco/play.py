"""``burraco play``: bots play a hand or a match in the terminal, move by move.

Until a human client exists this is how a newcomer watches the game: every
action is printed with the seat's name, the table is drawn after each turn,
and the score sheet of RULES.md §9 closes each hand. The words are in the language of
``--lang`` or of the terminal (``LANG``); the actions stay in the record's notation.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import TextIO

from burraco.arena.runner import play_hand
from burraco.bots.base import make_bot
from burraco.engine.actions import Action, Discard
from burraco.engine.cards import card_face, face_str, sort_key
from burraco.engine.deal import deal_seeded
from burraco.engine.events import Event, PozzettoTaken
from burraco.engine.match import FreePlayMatch
from burraco.engine.records import record_of
from burraco.engine.result import hand_result
from burraco.engine.rules import Rules
from burraco.engine.scoring import half_up
from burraco.engine.state import HandState
from burraco.locale import LANGUAGES, N_, from_environment, pgettext_in
from burraco.locale.seats import compass_names


def seat_names(players: int, lang: str = "en") -> tuple[str, ...]:
    """The seats' names: the compass at 2 and 4 players, numbers otherwise."""
    named = compass_names(players, lang)
    if named:
        return named
    return tuple(pgettext_in(lang, "play.seat", "Seat {n}").format(n=seat + 1)
                 for seat in range(players))


def scorer_names(players: int, lang: str = "en") -> tuple[str, ...]:
    """Who keeps a score in a match: a side, or each seat at 3 and 5 players."""
    names = seat_names(players, lang)
    if players in (4, 6):
        half = players // 2
        return tuple(f"{names[k]}+{names[k + half]}" for k in range(half))
    return names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 5, 6), default=4)
    parser.add_argument("--bots", default="basic",
                        help="bot level for every seat, or one per seat: basic,random,...")
    parser.add_argument("--rules", default="fibur", help="rules preset (default fibur)")
    parser.add_argument("--seed", type=int, default=None, help="deal and bot seed (replayable)")
    parser.add_argument("--match", action="store_true", help="play hands until the target")
    parser.add_argument("--target", type=int, default=None, help="match target (505/1005/2005)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to pause per turn")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="language of the words (default: the terminal's, from LANG)")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="write the hand's record (docs/record-format.md) to FILE, for "
                        "burraco replay and burraco analyze; with --match, hand N goes to "
                        "FILE with -N before its extension")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout  # looked up per call: tests swap it
    lang = getattr(args, "lang", None) or from_environment()
    rules = Rules.preset(args.rules)
    if args.target is not None:
        rules = rules.with_options(target=args.target)
    levels = args.bots.split(",")
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        print(f"--bots: give one level or {args.players}", file=sys.stderr)  # an option's error
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        bots = [make_bot(level, seed=seed + seat) for seat, level in enumerate(levels)]
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    names = seat_names(args.players, lang)
    print(pgettext_in(lang, "play.header", "Burraco, {players} players, rules {rules}, seed {seed}")
          .format(players=args.players, rules=rules.name, seed=seed), file=out)
    print("  ".join(f"{n}: {lv}" for n, lv in zip(names, levels, strict=True)), file=out)
    match = FreePlayMatch(players=args.players, rules=rules)
    number = 0
    while True:
        number += 1
        deal = deal_seeded(seed + 1000 * number, players=args.players, dealer=match.dealer,
                           rules=rules, individual=match.individual)
        print("\n=== " + pgettext_in(lang, "play.hand", "Hand {n}, dealer {name}").format(
            n=number, name=names[deal.dealer]) + " ===", file=out)
        state = play_hand(HandState.start(deal, rules), bots,
                          on_move=_printer(out, names, args.delay, lang))
        result = hand_result(state)
        _print_result(out, state, result.to_dict()["sides"], names, lang)
        if args.record:
            path = record_path(args.record, number if args.match else None)
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(record_of(state, seats=levels), handle, indent=1)
                handle.write("\n")
            print(pgettext_in(lang, "play.record", "Record written to {path}").format(path=path),
                  file=out)
        if not args.match:
            return 0
        per_seat = args.players in (3, 5)
        match = match.record_hand(result.seat_totals if per_seat else result.totals)
        sides = scorer_names(args.players, lang)
        scores = ", ".join(f"{s} {t}" for s, t in zip(sides, match.scores, strict=True))
        print(pgettext_in(lang, "play.match", "Match: {scores}").format(scores=scores), file=out)
        if match.winner is not None:
            print("\n" + pgettext_in(lang, "play.winner", "{name} win the match.").format(
                name=sides[match.winner]), file=out)
            return 0


def record_path(path: str, hand: int | None) -> str:
    """``game.json`` for one hand; ``game-3.json`` for hand 3 of a match."""
    if hand is None:
        return path
    stem, dot, ext = path.rpartition(".")
    if not dot or "/" in ext:
        return f"{path}-{hand}"
    return f"{stem}-{hand}.{ext}"


def _printer(out: TextIO, names: tuple[str, ...], delay: float,  # type: ignore[no-untyped-def]
             lang: str = "en"):
    def on_move(state: HandState, seat: int, action: Action, events: list[Event]) -> None:
        print(f"  {names[seat]:<6} {action}", file=out)
        for event in events:
            if isinstance(event, PozzettoTaken):
                took = (pgettext_in(lang, "play.pozzettoLive", "takes a pozzetto in diretta")
                        if event.live else
                        pgettext_in(lang, "play.pozzettoDiscard",
                                    "takes a pozzetto with the discard"))
                print(f"  {names[seat]:<6} {took}", file=out)
        if isinstance(action, Discard) or state.is_over:
            _print_table(out, state, names, lang)
            if delay:
                out.flush()
                time.sleep(delay)
    return on_move


def _side_name(state: HandState, side: int, names: tuple[str, ...]) -> str:
    return "+".join(names[s] for s in state.seats_of(side))


def _print_table(out: TextIO, state: HandState, names: tuple[str, ...], lang: str) -> None:
    for side, melds in enumerate(state.melds):
        if melds:
            text = " | ".join(str(m) for m in melds)
            said = pgettext_in(lang, "play.melds", "{side} melds: {melds}")
            print("      " + said.format(side=_side_name(state, side, names), melds=text),
                  file=out)
    counts = ", ".join(f"{names[s]} {len(state.hands[s]) + len(state.pending[s])}"
                       for s in range(state.players))
    top = face_str(card_face(state.pile[-1])) if state.pile else "-"
    said = pgettext_in(lang, "play.table",
                       "cards: {counts}; stock {stock}; pile {pile} (top {top})")
    print("      " + said.format(counts=counts, stock=len(state.stock), pile=len(state.pile),
                                 top=top), file=out)


END_REASONS = {
    "closed": N_("play.end", "closed"), "stock": N_("play.end", "stock"),
    "stall": N_("play.end", "stall"), "time": N_("play.end", "time"),
}


def _print_result(out: TextIO, state: HandState, sides: list[dict[str, object]],
                  names: tuple[str, ...], lang: str) -> None:
    reason = str(state.end_reason)
    if reason in END_REASONS:
        reason = pgettext_in(lang, "play.end", END_REASONS[reason])
    print("\n" + pgettext_in(lang, "play.over", "Hand over: {reason}").format(reason=reason),
          file=out)
    for score in sides:
        seats = score["seats"]
        assert isinstance(seats, list)
        side = state.side_of[seats[0]]
        left = sorted((card_face(c) for s in state.seats_of(side) for c in state.hands[s]),
                      key=sort_key)
        unplayed = sorted((card_face(c) for s in state.seats_of(side) for c in state.pending[s]),
                          key=sort_key)
        note = pgettext_in(lang, "play.left", "left in hand: {cards}").format(
            cards=" ".join(face_str(f) for f in left) or "-")
        if unplayed:
            note += "; " + pgettext_in(lang, "play.unplayed", "pozzetto never played: {cards}"
                                       ).format(cards=" ".join(face_str(f) for f in unplayed))
        if state.mode == "pairs" and len(seats) == 2:
            note += "; " + pgettext_in(lang, "play.each", "{points} each (§13.2)").format(
                points=half_up(int(str(score["total"]))))
        who = _side_name(state, side, names)
        line = pgettext_in(lang, "play.score",
                           "melds {melds:>5}  burraco {bonuses:>4}  closing {closing:>4}  "
                           "pozzetto {pozzetto:>5}  hand {hand:>5}  = {total:>5}")
        print(f"  {who:<13} " + line.format(**score) + f"   ({note})", file=out)
