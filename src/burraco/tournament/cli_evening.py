"""``burraco tournament`` actions for the paper and the evening's changes.

    burraco tournament pdf KIND --out FILE [-t ID] [--lang it|en|es|ro|sl] [--round N]
                       [--base-url URL]     (KIND: table-cards, seats, score-sheets,
                                             round, standings, deals)
    burraco tournament withdraw PAIR [--mode byes|reseat]
    burraco tournament penalty PAIR [--vp N] [--mp N] --reason TEXT [--round N]
    burraco tournament line-rankings on|off
    burraco tournament prizes "overall:3,NS:1,Senior:1"
    burraco tournament evening [--json]     the changes, NS/EW rankings and prize list
    burraco tournament member add NUMBER NAME --category C [--account USERNAME]
    burraco tournament member list [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from burraco.locale import LANGUAGES
from burraco.tournament import changes
from burraco.tournament.cli_common import UsageError, guard, open_director, tournament_id
from burraco.tournament.errors import TournamentError
from burraco.tournament.paper import KINDS, render

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def register(actions: Any, which: argparse.ArgumentParser,
             common: argparse.ArgumentParser) -> None:
    pdf = actions.add_parser("pdf", parents=[which], help="print the club's paper as a PDF",
                             description="Write a printable PDF: " + ", ".join(KINDS) + ".")
    pdf.add_argument("kind", choices=KINDS, metavar="KIND", help=", ".join(KINDS))
    pdf.add_argument("--out", required=True, metavar="FILE")
    pdf.add_argument("--lang", choices=LANGUAGES, default="it",
                     help="the paper's language (default it)")
    pdf.add_argument("--round", type=int, metavar="N",
                     help="default: the current round (deals: every round)")
    pdf.add_argument("--base-url", default=None, metavar="URL",
                     help="where the table cards' QR codes lead (default "
                          f"$BURRACO_PUBLIC_URL, else {DEFAULT_BASE_URL})")
    pdf.set_defaults(handler=guard("pdf", _pdf))

    out = actions.add_parser("withdraw", parents=[which],
                             help="a pair withdraws between rounds")
    out.add_argument("pair", metavar="PAIR", help="number or name")
    out.add_argument("--mode", choices=changes.MODES, default="byes",
                     help="its remaining matches become byes (default) or are re-seated")
    out.set_defaults(handler=guard("withdraw", _withdraw))

    pen = actions.add_parser("penalty", parents=[which], help="take VP or MP from a pair")
    pen.add_argument("pair", metavar="PAIR", help="number or name")
    pen.add_argument("--vp", type=int, default=0)
    pen.add_argument("--mp", type=int, default=0)
    pen.add_argument("--reason", required=True)
    pen.add_argument("--round", type=int, metavar="N")
    pen.set_defaults(handler=guard("penalty", _penalty))

    lines = actions.add_parser("line-rankings", parents=[which],
                               help="separate NS and EW rankings for the Mitchell rounds")
    lines.add_argument("state", choices=("on", "off"))
    lines.set_defaults(handler=guard("line-rankings", _line_rankings))

    prizes = actions.add_parser("prizes", parents=[which],
                                help="the prize list: places per category")
    prizes.add_argument("prizes", metavar="CATEGORY:PLACES,...",
                        help="e.g. overall:3,NS:1,EW:1,Senior:1 ('' for none)")
    prizes.set_defaults(handler=guard("prizes", _prizes))

    show = actions.add_parser("evening", parents=[which],
                              help="the evening's changes, NS/EW rankings and prize list")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=guard("evening", _evening))

    member = actions.add_parser("member", parents=[common], help="the club's members")
    what = member.add_subparsers(dest="member_command", metavar="add|list", required=True)
    add = what.add_parser("add", parents=[common], help="add or update a member")
    add.add_argument("number", metavar="NUMBER", help="membership number")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--category", required=True)
    add.add_argument("--account", metavar="USERNAME", help="the member's player account")
    add.set_defaults(handler=guard("member add", _member_add))
    listing = what.add_parser("list", parents=[common], help="every member")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=guard("member list", _member_list))


def _open(args: argparse.Namespace) -> tuple[Any, str]:
    director = open_director(args)
    return director, tournament_id(director, args)


def _pdf(args: argparse.Namespace) -> int:
    from burraco.tournament.table_desk import Desk  # SQLAlchemy: only when this runs

    director, tid = _open(args)
    t = director.load(tid)
    base = args.base_url or os.environ.get("BURRACO_PUBLIC_URL") or DEFAULT_BASE_URL
    links = Desk(director).link_builder(tid, base)
    body = render(args.kind, t, links=links, lang=args.lang, round_number=args.round)
    try:
        Path(args.out).write_bytes(body)
    except OSError as exc:
        raise UsageError(f"{args.out}: {exc}") from None
    print(f"wrote {args.out} ({len(body)} bytes)", file=sys.stderr)
    return 0


def _withdraw(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    pair = director.load(tid).find_pair(args.pair).number
    after = director.evening(tid, lambda t: changes.withdraw(t, pair, args.mode))
    w = after.evening.withdrawals[-1]
    print(f"pair {pair} withdrew: from round {w.from_round} its matches {w.mode}")
    return 0


def _penalty(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    pair = director.load(tid).find_pair(args.pair).number
    director.evening(tid, lambda t: changes.penalise(t, pair, vp=args.vp, mp=args.mp,
                                                     reason=args.reason,
                                                     round_number=args.round))
    print(f"pair {pair}: -{args.vp} VP, -{args.mp} MP ({args.reason})")
    return 0


def _line_rankings(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    director.evening(tid, lambda t: changes.set_line_rankings(t, args.state == "on"))
    print(f"NS and EW rankings {args.state}")
    return 0


def _prizes(args: argparse.Namespace) -> int:
    director, tid = _open(args)
    after = director.evening(tid, lambda t: changes.set_prizes(t, args.prizes))
    print("prize list: " + (", ".join(str(p) for p in after.evening.prizes) or "none"))
    return 0


def _evening(args: argparse.Namespace) -> int:
    from burraco.tournament.evening_web import evening_json  # FastAPI: only when this runs
    from burraco.tournament.members import pair_accounts  # SQLAlchemy: only when this runs

    director, tid = _open(args)
    t = director.load(tid)
    data = evening_json(t)
    with director.engine.connect() as conn:
        data["accounts"] = {str(k): v for k, v in pair_accounts(conn, tid).items()}
    if args.json:
        print(json.dumps(data))
        return 0
    for w in t.evening.withdrawals:
        print(f"withdrawn: pair {w.pair} {t.pair(w.pair).name} from round {w.from_round} "
              f"({w.mode})")
    for p in t.evening.penalties:
        print(f"penalty: pair {p.pair} -{p.vp} VP -{p.mp} MP: {p.reason}")
    for line, rows in data.get("line_standings", {}).items():
        print(f"{line} ranking:")
        for s in rows:
            print(f"  {s['rank']:>3} {s['pair']:>3} {s['name']:<30} {s['vp']:>4} VP")
    for a in data["prize_list"]:
        who = f"pair {a['pair']} {a['name']}" if a["awarded"] else "not awarded"
        print(f"prize {a['category']} {a['place']}: {who}")
    return 0


def _member_add(args: argparse.Namespace) -> int:
    from burraco.tournament.members import save_member  # SQLAlchemy: only when this runs

    director = open_director(args)
    with director.engine.begin() as conn:
        m = save_member(conn, args.number, args.name, args.category, args.account)
    print(f"member #{m.number} {m.name} ({m.category})"
          + (f" @{m.username}" if m.username else ""))
    return 0


def _member_list(args: argparse.Namespace) -> int:
    from burraco.tournament.members import members  # SQLAlchemy: only when this runs

    director = open_director(args)
    with director.engine.connect() as conn:
        rows = members(conn)
    if args.json:
        print(json.dumps({"members": [m.to_dict() for m in rows]}))
        return 0
    for m in rows:
        print(f"#{m.number:<8} {m.name:<30} {m.category:<16} {m.username or ''}")
    return 0


__all__ = ["TournamentError", "register"]
