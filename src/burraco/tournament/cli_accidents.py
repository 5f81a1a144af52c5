"""``burraco tournament`` actions for the evening's accidents (:mod:`.changes`).

    burraco tournament late "NAME[: PLAYER, PLAYER]" [--mode bye|redraw]
                                            a pair arriving after round 1 was drawn
    burraco tournament absent VP MP | default   what a round a late pair missed scores
    burraco tournament remove PAIR          a no-show, before round 1
    burraco tournament undo-round           the last round, while nobody entered a result
    burraco tournament rename PAIR [--name NAME] [--players "A, B"]
    burraco tournament arbitral ROUND TABLE NS_VP EW_VP [--mp NS EW]

Each is written to the director's log, as the same change made on the web page is.
"""

from __future__ import annotations

import argparse
from typing import Any

from burraco.tournament import changes
from burraco.tournament.cli_common import UsageError, guard, open_director, tournament_id
from burraco.tournament.entries import entry


def register(actions: Any, which: argparse.ArgumentParser) -> None:
    late = actions.add_parser("late", parents=[which],
                              help="register a pair arriving after round 1 was drawn")
    late.add_argument("pair", metavar="NAME", help="a registration line (name: player, player)")
    late.add_argument("--mode", choices=changes.LATE_MODES, default="bye",
                      help="bye: it takes the bye table (default); redraw: the movement is "
                           "drawn again for the rounds to come")
    late.set_defaults(handler=guard("late", _late))

    absent = actions.add_parser("absent", parents=[which],
                                help="what a round a late pair missed scores")
    absent.add_argument("score", nargs="+", metavar="VP MP | default")
    absent.set_defaults(handler=guard("absent", _absent))

    remove = actions.add_parser("remove", parents=[which],
                                help="take a pair off the register before round 1")
    remove.add_argument("pair", metavar="PAIR", help="number or name")
    remove.set_defaults(handler=guard("remove", _remove))

    undo = actions.add_parser("undo-round", parents=[which],
                              help="take back the last round drawn (no result entered)")
    undo.set_defaults(handler=guard("undo-round", _undo))

    rename = actions.add_parser("rename", parents=[which], help="correct a pair's names")
    rename.add_argument("pair", metavar="PAIR", help="number or name")
    rename.add_argument("--name")
    rename.add_argument("--players", help='comma separated: "Anna Rossi, Luca Verdi"')
    rename.set_defaults(handler=guard("rename", _rename))

    arbitral = actions.add_parser("arbitral", parents=[which],
                                  help="the director's VP for a table (arbitral score)")
    for name in ("round", "table", "ns_vp", "ew_vp"):
        arbitral.add_argument(name, type=int, metavar=name.upper())
    arbitral.add_argument("--mp", type=int, nargs=2, metavar=("NS", "EW"), default=(0, 0))
    arbitral.set_defaults(handler=guard("arbitral", _arbitral))


def _open(args: argparse.Namespace) -> tuple[Any, str]:
    director = open_director(args)
    return director, tournament_id(director, args)


def _log(director: Any, tid: str, round_number: int | None, table: int | None,
         what: str) -> None:
    from burraco.tournament.table_desk import Desk  # SQLAlchemy: only when this runs

    Desk(director).log(tid, round_number, table, "director", what)


def _late(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    name, players = entry(args.pair)
    pair = director.late_register(tid, name, players, args.mode)
    e = director.load(tid).evening.late_entry(pair.number)
    _log(director, tid, e.from_round, None, f"late {pair.number} {e.from_round} {e.mode} "
                                            f"{pair.name}")
    print(f"pair {pair.label} registered late: plays from round {e.from_round} ({e.mode})")
    return 0


def _absent(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    if args.score == ["default"]:
        vp, mp = None, None
    elif len(args.score) == 2:
        vp, mp = (int(x) for x in args.score)
    else:
        raise UsageError("absent: give VP and MP (e.g. 6 -355), or 'default'")
    after = director.evening(tid, lambda t: changes.set_absent(t, vp, mp))
    a, b = after.evening.absent_score(after.settings.bye_vp, after.settings.bye_mp)
    _log(director, tid, None, None, f"absent {a} {b}")
    print(f"a missed round scores {a} VP, {b} MP")
    return 0


def _remove(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    number = director.load(tid).find_pair(args.pair).number
    pair = director.remove_pair(tid, number)
    _log(director, tid, None, None, f"remove {pair.number} {pair.name}")
    print(f"pair {pair.label} removed; the pairs after it moved up a number")
    return 0


def _undo(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    played = director.undo_round(tid)
    _log(director, tid, played.number, None, f"undo {played.number}")
    print(f"round {played.number} taken back")
    return 0


def _rename(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    number = director.load(tid).find_pair(args.pair).number
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    after = director.evening(tid, lambda t: changes.rename(t, number, args.name, players))
    r = after.evening.renames[-1]
    _log(director, tid, None, None, f"rename {number} {r.was} → {r.now}")
    print(f"pair {number}: {r.was} → {r.now}")
    return 0


def _arbitral(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    before = director.load(tid).result(args.round, args.table)
    r = director.record(tid, args.round, args.table, args.mp[0], args.mp[1],
                        arbitral=(args.ns_vp, args.ew_vp), correct=before is not None)
    was = f" {before.logged}" if before is not None else ""
    _log(director, tid, args.round, args.table,
         f"arbitral {r.vp[0]} {r.vp[1]} {r.mp[0]} {r.mp[1]}{was}")
    print(f"round {args.round} table {args.table}: arbitral VP {r.vp[0]}-{r.vp[1]}")
    return 0
