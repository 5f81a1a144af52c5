"""``burraco tournament``: run a club evening from the command line (registered by ``burraco.cli``).

    burraco tournament create NAME [--kind pairs|individual|teams] [--hands 3]
                       [--schedule mitchell:3,danish:1] [--duplicate]
                       [--vp-table NAME:B1,...,B10] [--bye-vp 14] [--bye-mp 355]
                       [--tie-breaks mp_diff,h2h,lot] [--seating registration|draw] [--seed S]
    burraco tournament list
    burraco tournament register [-t ID] "Rossi / Bianchi" ... | --file PAIRS.txt
                       (a team: "Circolo Roma: Rossi / Bianchi / Verdi / Neri";
                        an individual event: one player's name)
    burraco tournament start-round [-t ID] [--json]
    burraco tournament show [-t ID] [--round N] [--json]
    burraco tournament result [-t ID] [--round N] TABLE NS_MP EW_MP [--vp NS EW]
                       [--pairs NS EW] [--hands 450:-100,300:200,...]
                       [--rooms HOME:AWAY,HOME:AWAY] [--correct] [--timed-out]
    burraco tournament standings [-t ID] [--json]
    burraco tournament export [-t ID] [--csv FILE] [--results-csv FILE] [--html FILE]
    burraco tournament serve [--host H] [--port P]
    burraco tournament pdf KIND --out FILE, withdraw, penalty, line-rankings, prizes,
                       evening, member add|list  (see :mod:`.cli_evening`)
    burraco tournament late, absent, remove, undo-round, rename, arbitral
                       (see :mod:`.cli_accidents`)
    burraco tournament simulate --pairs 24 --schedule mitchell:3,danish:1 --hands 3
                       --bots advanced [--duplicate] [--jobs J] [--seed S] [--json FILE]
                       [--kind individual --players 16 | --kind teams --teams 8 ...]

Every command takes ``--db URL`` (default: the game server's database, so
``burraco serve`` shows the same tournaments) and ``-t/--tournament ID``
(default: the tournament created last).  Exit codes: 0 done, 1 refused (the
message on stderr says what was wrong; nothing was changed), 2 bad usage.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from burraco.arena.ray_runner import RayUnavailable, connect
from burraco.bots.base import make_bot
from burraco.engine.rules import Rules
from burraco.infra.config import ConfigError, default_db_url, normalize_db_url
from burraco.tournament import cli_accidents, cli_evening
from burraco.tournament.cli_common import UsageError, guard, open_director, tournament_id
from burraco.tournament.entries import entry
from burraco.tournament.errors import TournamentError
from burraco.tournament.export import (
    printable_html,
    results_csv,
    round_text,
    standings_csv,
    standings_text,
)
from burraco.tournament.model import (
    DEFAULT_TIE_BREAKS,
    KINDS,
    Settings,
    Tournament,
    default_schedule,
)
from burraco.tournament.pairing import check_schedule
from burraco.tournament.scale import scale_for
from burraco.tournament.schedule import Schedule
from burraco.tournament.simulate import matches_total, simulate, summary_json
from burraco.tournament.standings import standings

COMMENT = re.compile(r"(?:^|\s)#(?![A-Za-z0-9])")


def register(sub: Any) -> None:
    """Add ``tournament`` and its actions to the ``burraco`` command."""
    parser = sub.add_parser(
        "tournament", help="club tournaments: pairs, Mitchell/Danish rounds, VP, standings",
        description="Run a pairs, individual or team tournament (RULES.md §11): create it, "
        "register entrants, start rounds, enter results, print standings, export; or "
        "simulate one with bots.  See docs/tournaments.md.")
    actions = parser.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="URL", default=None,
                        help="sqlite:///PATH or postgresql://... (default: the game server's, "
                             "$BURRACO_DATA_DIR/server.db)")
    which = argparse.ArgumentParser(add_help=False, parents=[common])
    which.add_argument("-t", "--tournament", metavar="ID",
                       help="tournament id (default: the one created last)")

    create = actions.add_parser("create", parents=[common], help="create a tournament",
                                description="Create a tournament and print its id.")
    create.add_argument("name", metavar="NAME")
    create.add_argument("--id", help="the id to use (default: made from the name)")
    _add_event_options(create)
    create.set_defaults(handler=guard("create", _create))

    listing = actions.add_parser("list", parents=[common], help="every tournament, newest first")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=guard("list", _list))

    reg = actions.add_parser(
        "register", parents=[which], help="register pairs, players or teams (before round 1)",
        description='Register entrants in order; they are numbered 1, 2, … "Rossi / Bianchi" '
        "registers a pair of that name whose players are Rossi and Bianchi; "
        '"Circolo Roma: Rossi / Bianchi / Verdi / Neri" a team and its players; in an '
        "individual event each entrant is one player's name.")
    reg.add_argument("pairs", nargs="*", metavar="PAIR")
    reg.add_argument("--file", metavar="FILE", help="one pair per line (# starts a comment)")
    reg.set_defaults(handler=guard("register", _register))

    start = actions.add_parser("start-round", parents=[which],
                               help="seat the next round and print its tables",
                               description="Seat the next round of the schedule (every "
                               "result of the current round must be in) and print the tables.")
    start.add_argument("--json", action="store_true")
    start.set_defaults(handler=guard("start-round", _start_round))

    show = actions.add_parser("show", parents=[which], help="a round's tables and results")
    show.add_argument("--round", type=int, metavar="N", help="default: the current round")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=guard("show", _show))

    result = actions.add_parser(
        "result", parents=[which], help="enter or correct a table's result",
        description="Enter the MP of both lines at a table; VP follow from the table of "
        "§11.2.  Scores must be multiples of 5; --vp and --pairs, if given, are checked "
        "against the table and the seating.")
    result.add_argument("table", type=int, metavar="TABLE")
    result.add_argument("ns_mp", metavar="NS_MP", help="NS match points (e.g. 1200 or -150)")
    result.add_argument("ew_mp", metavar="EW_MP", help="EW match points")
    result.add_argument("--round", type=int, metavar="N", help="default: the current round")
    result.add_argument("--vp", type=int, nargs=2, metavar=("NS", "EW"),
                        help="the VP written on the score sheet, checked")
    result.add_argument("--pairs", type=int, nargs=2, metavar=("NS", "EW"),
                        help="the pair numbers on the score sheet, checked")
    result.add_argument("--hands", metavar="NS:EW,...",
                        help="each smazzata's scores, e.g. 450:-100,300:200,450:800")
    result.add_argument("--rooms", metavar="HOME:AWAY,HOME:AWAY",
                        help="team matches: each of the two tables' scores (home team first), "
                             "which must add up to the totals")
    result.add_argument("--correct", action="store_true",
                        help="replace the result already entered at this table")
    result.add_argument("--timed-out", action="store_true",
                        help="the match was cut short by the round's time-out: --hands may "
                             "list fewer smazzate than planned")
    result.set_defaults(handler=guard("result", _result))

    links = actions.add_parser(
        "table-links", parents=[which], help="each table's two links for the pairs' phones",
        description="Print the current round's tables and, for each, the NS and the EW "
        "pair's link to the phone page that takes their result (for the table cards' QR "
        "codes).  A link opens only its table of this round.")
    links.add_argument("--json", action="store_true",
                       help='{"tables": [{"table": N, "ns": URL, "ew": URL}, ...]}')
    links.add_argument("--base-url", metavar="URL", default=None,
                       help="where the players reach the server (default $BURRACO_PUBLIC_URL, "
                            "else http://127.0.0.1:8000)")
    links.set_defaults(handler=guard("table-links", _table_links))

    stand = actions.add_parser("standings", parents=[which],
                               help="the standings now (the final ranking once finished)")
    stand.add_argument("--json", action="store_true")
    stand.set_defaults(handler=guard("standings", _standings))

    export = actions.add_parser("export", parents=[which],
                                help="standings and results as CSV, or a printable HTML page")
    export.add_argument("--csv", metavar="FILE", help="standings as CSV ('-': stdout)")
    export.add_argument("--results-csv", metavar="FILE", help="every table's result as CSV")
    export.add_argument("--html", metavar="FILE", help="printable HTML page")
    export.set_defaults(handler=guard("export", _export))

    serve = actions.add_parser(
        "serve", parents=[common], help="serve the director's web pages on their own",
        description="Serve the director and player pages (/tournaments/) without the game "
        "server.  `burraco serve` shows them too when it includes the tournament router.")
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8010, help="port (default 8010)")
    serve.set_defaults(handler=guard("serve", _serve))

    sim = actions.add_parser(
        "simulate", help="play a whole event with bots and print the standings",
        description="Register bot pairs, play every round (tables in parallel processes) "
        "and print the final ranking.  Nothing is stored unless --db is given.")
    sim.add_argument("--pairs", "--players", "--teams", dest="entrants", type=int,
                     required=True, metavar="N",
                     help="how many entrants: pairs, players (--kind individual) or teams")
    _add_event_options(sim)
    sim.add_argument("--bots", default="advanced", metavar="LEVEL[,LEVEL...]",
                     help="bot level of every pair, or levels dealt to the pairs in turn "
                          "(default advanced)")
    sim.add_argument("--rules", default="fibur", metavar="PRESET", help="rules preset")
    sim.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                     help=f"processes (default {os.cpu_count() or 1}, the cores)")
    sim.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                     help="play the tables on a Ray cluster (a local one without ADDRESS; "
                          "needs pip install 'burraco[cluster]')")
    sim.add_argument("--json", metavar="FILE", help="write standings and matches as JSON")
    sim.add_argument("--db", metavar="URL", help="also store the event in this database")
    progress = sim.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="always show the progress bar (default: on a terminal)")
    progress.add_argument("--no-progress", dest="progress", action="store_false")
    sim.set_defaults(handler=guard("simulate", _simulate))

    cli_evening.register(actions, which, common)  # the paper and the evening's changes
    cli_accidents.register(actions, which)  # late pairs, no-shows, renames, arbitral scores


def _add_event_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kind", choices=KINDS, default="pairs",
                        help="pairs (default); individual: partners change every round; "
                             "teams: a match is played at two tables (needs --vp-table)")
    parser.add_argument("--hands", type=int, default=3, metavar="N",
                        help="smazzate per match (default 3; official VP tables: 3, 4)")
    parser.add_argument("--schedule", default=None,
                        help="rounds, e.g. mitchell:3,danish:1 (default), mitchell:4@2, "
                             "roundrobin, danish-modified:2, random:1; individual events: "
                             "random and danish only (default random:3,danish:1)")
    parser.add_argument("--duplicate", action="store_true",
                        help="same deals at every table of a round; rank by MP against the "
                             "field (§11.4)")
    parser.add_argument("--vp-table", metavar="NAME:B1,...,B10",
                        help="the club's own VP table (needed for team events and for 5 "
                             "smazzate or more): its name, then the MP-difference upper bounds "
                             "for VP 10…19")
    parser.add_argument("--bye-vp", type=int, default=14, help="VP for a bye (default 14)")
    parser.add_argument("--bye-mp", type=int, default=355,
                        help="MP difference for a bye (default 355)")
    parser.add_argument("--tie-breaks", default=",".join(DEFAULT_TIE_BREAKS),
                        help="after VP, in order: mp_diff, h2h, mp, lot (default "
                             f"{','.join(DEFAULT_TIE_BREAKS)}; '' for none)")
    parser.add_argument("--seating", choices=("registration", "draw"), default="registration",
                        help="first-round order of the pairs (default registration)")
    parser.add_argument("--seed", type=int, default=1, help="seed of draws and deals")


def _settings(args: argparse.Namespace, name: str) -> Settings:
    tie_breaks = tuple(k.strip() for k in args.tie_breaks.split(",") if k.strip())
    return Settings(
        name=name, hands=args.hands, kind=args.kind,
        schedule=Schedule.parse(args.schedule or default_schedule(args.kind)),
        scale=scale_for(args.hands, args.vp_table) if args.vp_table else None,
        duplicate=args.duplicate, bye_vp=args.bye_vp, bye_mp=args.bye_mp,
        tie_breaks=tie_breaks, seating=args.seating, seed=args.seed)


def _points(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TournamentError(f"{what} must be a whole number, not {text!r}") from None


# --- actions ----------------------------------------------------------------------------------

def _create(args: argparse.Namespace) -> int:
    settings = _settings(args, args.name)
    director = open_director(args)
    tid = director.create(settings, args.id)
    print(tid)
    print(f"created {settings.name!r} as {tid}: {settings.kind}, schedule {settings.schedule}, "
          f"{settings.hands} smazzate, VP table {settings.vp_scale.name}"
          + (", duplicate" if settings.duplicate else ""), file=sys.stderr)
    return 0


def _list(args: argparse.Namespace) -> int:
    rows = open_director(args).summaries()
    if args.json:
        print(json.dumps([dataclasses.asdict(r) for r in rows]))
        return 0
    for r in rows:
        print(f"{r.id:<30} {r.status:<16} {r.pairs:>3} {r.entrants:<7} {r.schedule:<24} "
              f"{r.name}")
    return 0


def _register(args: argparse.Namespace) -> int:
    names = list(args.pairs)
    if args.file:
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{args.file}: {exc}") from None
        # "#" starts a comment, except "#NUMBER" (a club member) after a space or slash
        names += [COMMENT.split(line, maxsplit=1)[0].strip() for line in text.splitlines()]
        names = [n for n in names if n]
    if not names:
        raise UsageError("give the entrants to register (or --file)")
    director = open_director(args)
    tid = tournament_id(director, args)
    for pair in director.register_all(tid, [entry(name) for name in names]):
        print(f"{pair.number:>3} {pair.name}" + (f" ({', '.join(pair.players)})"
                                                 if len(pair.players) > 2 else ""))
    return 0


def _start_round(args: argparse.Namespace) -> int:
    director = open_director(args)
    tid = tournament_id(director, args)
    played = director.start_round(tid)
    t = director.load(tid)
    if args.json:
        print(json.dumps(_round_json(t, played.number)))
    else:
        print(round_text(t, played))
    return 0


def _round_json(t: Tournament, number: int) -> dict[str, Any]:
    played = t.round(number)
    tables = []
    for table in played.tables:
        r = t.result(number, table.number)
        row: dict[str, Any] = {"table": table.number, "ns": table.ns, "ew": table.ew}
        if table.ns_partner is not None:
            row["ns_partner"], row["ew_partner"] = table.ns_partner, table.ew_partner
        row |= {"mp": list(r.mp) if r else None, "vp": list(r.vp) if r else None}
        if r and r.rooms:
            row["rooms"] = [list(room) for room in r.rooms]
        tables.append(row)
    return {"round": number, "movement": played.movement, "tables": tables,
            "byes": list(played.byes)}


def _show(args: argparse.Namespace) -> int:
    director = open_director(args)
    t = director.load(tournament_id(director, args))
    if not t.rounds:
        print(f"{t.settings.name}: {len(t.pairs)} {t.settings.entrant}s registered, no round "
              "started yet")
        for p in t.pairs:
            print(f"{p.number:>3} {p.name}")
        return 0
    number = args.round or len(t.rounds)
    played = t.round(number)
    print(json.dumps(_round_json(t, number)) if args.json else round_text(t, played))
    return 0


def _score_pairs(text: str | None, part: str, sides: tuple[str, str],
                 example: str) -> list[tuple[int, int]]:
    """``A:B,A:B,...`` (each smazzata's, or each table's, two scores) as numbers."""
    out: list[tuple[int, int]] = []
    for k, item in enumerate(text.split(",") if text else [], start=1):
        a, sep, b = item.partition(":")
        if not sep:
            expected = ":".join(side.split()[0].upper() for side in sides)
            raise TournamentError(f"{part} {k} {item!r}: expected {expected}, e.g. {example}")
        out.append((_points(a, f"{part} {k}, the {sides[0]} score"),
                    _points(b, f"{part} {k}, the {sides[1]} score")))
    return out


def _result(args: argparse.Namespace) -> int:
    director = open_director(args)
    tid = tournament_id(director, args)
    t = director.load(tid)
    number = args.round or len(t.rounds)
    if number == 0:
        raise TournamentError("no round has started: run start-round first")
    ns_mp = _points(args.ns_mp, "the NS score")
    ew_mp = _points(args.ew_mp, "the EW score")
    hands = _score_pairs(args.hands, "smazzata", ("NS", "EW"), "450:-100")
    rooms = _score_pairs(args.rooms, "table", ("home team's", "away team's"), "1200:900")
    ns, ew = args.pairs if args.pairs else (None, None)
    result = director.record(tid, number, args.table, ns_mp, ew_mp,
                             vp=tuple(args.vp) if args.vp else None, ns=ns, ew=ew,
                             hands=hands, correct=args.correct, rooms=rooms,
                             timed_out=args.timed_out)
    t = director.load(tid)
    left = len(t.missing(number))
    what = t.settings.entrant
    lines = [("players " if t.settings.kind == "individual" else f"{what} ")
             + "+".join(map(str, result.line(side))) for side in (0, 1)]
    unit = "match" if t.settings.kind == "teams" else "table"
    print(f"round {number}, {unit} {result.table}: {lines[0]} {result.mp[0]} – "
          f"{result.mp[1]} {lines[1]}, VP {result.vp[0]}–{result.vp[1]}"
          + (" (corrected)" if args.correct else "")
          + (f"; {left} {unit}(es) still to report" if left and unit == "match" else
             f"; {left} table(s) still to report" if left else f"; round {number} complete"))
    return 0


def _table_links(args: argparse.Namespace) -> int:
    from burraco.tournament.table_desk import Desk  # SQLAlchemy: only when this runs

    director = open_director(args)
    base = args.base_url or os.environ.get("BURRACO_PUBLIC_URL") or "http://127.0.0.1:8000"
    if not base.startswith(("http://", "https://")):
        raise UsageError(f"--base-url {base!r}: give an http:// or https:// address")
    tables = Desk(director).links(tournament_id(director, args), base)
    if args.json:
        print(json.dumps({"tables": tables}))
        return 0
    for row in tables:
        print(f"table {row['table']}\n  NS {row['ns']}\n  EW {row['ew']}")
    return 0


def _standings(args: argparse.Namespace) -> int:
    director = open_director(args)
    t = director.load(tournament_id(director, args))
    if args.json:
        print(json.dumps({"status": t.status, "standings": [s.to_dict() for s in standings(t)]}))
    else:
        print(standings_text(t))
    return 0


def _export(args: argparse.Namespace) -> int:
    if not (args.csv or args.results_csv or args.html):
        raise UsageError("say what to write: --csv FILE, --results-csv FILE and/or --html FILE")
    director = open_director(args)
    t = director.load(tournament_id(director, args))
    for target, render in ((args.csv, standings_csv), (args.results_csv, results_csv),
                           (args.html, printable_html)):
        if target:
            _write(target, render(t))
    return 0


def _write(target: str, text: str) -> None:
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{target}: {exc}") from None
    print(f"wrote {target}", file=sys.stderr)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn  # uvicorn and FastAPI load only to serve

    from burraco.tournament.web import create_app  # FastAPI: only to serve

    try:
        url = normalize_db_url(args.db or default_db_url())
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    print(f"tournament pages on http://{args.host}:{args.port}/tournaments/ ({url})",
          file=sys.stderr)
    from burraco.infra.http_protocol import header_timeout_protocol  # uvicorn: only to serve

    uvicorn.run(create_app(url), host=args.host, port=args.port, log_level="warning",
                http=header_timeout_protocol(10.0))  # slowloris: as burraco serve
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm  # type: ignore[import-untyped]  # slow to import: not at --help

    least = 4 if args.kind == "individual" else 2
    if args.entrants < least:
        raise UsageError(f"--pairs must be at least {least}, not {args.entrants}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.ray is not None:
        try:
            connect(args.ray)
        except RayUnavailable as exc:
            raise UsageError(str(exc)) from None
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        Rules.preset(args.rules)
        for level in levels or ["?"]:
            make_bot(level, seed=0)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    count = args.entrants
    probe = _settings(args, "simulation")
    settings = dataclasses.replace(
        probe, name=f"Simulation: {count} {probe.entrant}s, {probe.schedule}")
    check_schedule(settings.schedule, count)
    total = matches_total(settings, count)
    print(f"simulate: {count} {settings.entrant}s of {','.join(levels)} bots, schedule "
          f"{settings.schedule} ({settings.schedule.total_rounds(count)} rounds, {total} "
          f"tables of {settings.hands} smazzate){', duplicate deals' if args.duplicate else ''}"
          f", {f'Ray cluster {args.ray}' if args.ray else f'{args.jobs} job(s)'}, seed "
          f"{args.seed}", file=sys.stderr)
    disable = None if args.progress is None else not args.progress
    start = time.perf_counter()
    with tqdm(total=total, desc="tables", unit="table", disable=disable,
              file=sys.stderr) as bar:
        t = simulate(settings, pairs=count, bots=levels, rules=args.rules, jobs=args.jobs,
                     progress=lambda: bar.update(1), ray=args.ray)
    seconds = time.perf_counter() - start
    print(standings_text(t))
    tables = len(t.results) * (2 if settings.kind == "teams" else 1)
    print(f"{len(t.results)} matches, {tables * settings.hands} smazzate in "
          f"{seconds:.1f} s", file=sys.stderr)
    if args.json:
        data = summary_json(t)
        data["seconds"] = round(seconds, 2)
        _write(args.json, json.dumps(data, indent=1) + "\n")
    if args.db:
        director = open_director(args)
        tid = director.save(t)
        print(f"stored as tournament {tid}", file=sys.stderr)
    return 0
