"""The ``burraco`` command: argument parsing only; the referee logic is in :mod:`burraco.referee`.

Each subcommand is added by one small ``_add_<name>(subparsers)`` function
listed in :data:`SUBCOMMANDS`; it declares its arguments and sets a
``handler(args) -> int`` default.  Referee commands print one JSON value on
one line to stdout (nothing else goes to stdout) and messages to stderr; the
exit codes are those of :mod:`burraco.referee` (0 answer, 1 breaks a rule,
2 unreadable input or bad usage).

    burraco meld [--rules PRESET] [--onto MELD] CARD...
    burraco score [--rules PRESET] --melds "M1 / M2" --hand CARDS [--closed]
                  --pozzetto taken|missing|nobody [--unplayed CARDS]
    burraco vp [--rules PRESET] --hands 3|4 DIFF
    burraco replay [--rules PRESET] FILE|-
    burraco rules list [--json]
    burraco rules show [--json] [PRESET]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

from burraco import __version__, play, referee
from burraco.analysis import cli as analysis_cli
from burraco.app import admin_cli
from burraco.app import cli as app_cli
from burraco.arena import cli as arena_cli
from burraco.audit import cli as audit_cli
from burraco.bench import cli as bench_cli
from burraco.bench import env as bench_env  # NumPy and PettingZoo load only when it runs
from burraco.bench.engine import (
    bench_engine,
    compare_openspiel,
    format_comparison,
    format_report,
)
from burraco.cliparts import Subparsers
from burraco.engine.rules import Rules
from burraco.locale import LANGUAGES, from_environment
from burraco.referee import Outcome
from burraco.tournament import cli as tournament_cli
from burraco.tui import cli as tui_cli

Handler = Callable[[argparse.Namespace], int]


# --- shared helpers ---------------------------------------------------------------------------

def _preset(name: str) -> str:
    """argparse type for a rules preset name (unknown names are a usage error, exit 2)."""
    try:
        Rules.preset(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name


def _add_rules_option(parser: argparse.ArgumentParser, *, default: str | None = "fibur") -> None:
    parser.add_argument(
        "--rules", metavar="PRESET", type=_preset, default=default,
        help="rules preset, see `burraco rules list`"
        + (f" (default {default})" if default else " (default: the record's)"),
    )


def _emit(command: str, outcome: Outcome) -> int:
    """Print an outcome: its JSON (one line) or text on stdout, its message on stderr."""
    if outcome.payload is not None:
        print(json.dumps(outcome.payload, sort_keys=False, ensure_ascii=False))
    if outcome.text is not None:
        print(outcome.text)
    if outcome.error is not None:
        print(f"burraco {command}: {outcome.error}", file=sys.stderr)
    return outcome.code


# --- meld -------------------------------------------------------------------------------------

def _add_meld(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "meld", help="check a new meld, or an attachment to a table meld",
        description="Check a meld (RULES.md §4–5) and print it as JSON. Exit 0 valid, "
                    "1 invalid, 2 unreadable card.",
    )
    _add_rules_option(parser)
    parser.add_argument(
        "--onto", metavar="MELD",
        help='a table meld such as "5H 6H JK(=7H) 8H"; the CARDs are attached to it',
    )
    parser.add_argument("cards", nargs="+", metavar="CARD",
                        help='cards like 7H 10D JK, or one quoted string "5H 6H 7H"')
    parser.set_defaults(handler=_run_meld)


def _run_meld(args: argparse.Namespace) -> int:
    outcome = referee.check_meld(args.cards, onto=args.onto, rules=Rules.preset(args.rules))
    return _emit("meld", outcome)


# --- score ------------------------------------------------------------------------------------

def _add_score(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "score", help="score one side at the end of a hand",
        description="Score one side (RULES.md §9) and print the parts as JSON. Exit 0 scored, "
                    "1 invalid meld or impossible situation, 2 unreadable card.",
    )
    _add_rules_option(parser)
    parser.add_argument("--melds", required=True, metavar="MELDS",
                        help='the side\'s melds separated by "/", e.g. "4C 5C 6C / KD KH KS"; '
                             '"" for none')
    parser.add_argument("--hand", required=True, metavar="CARDS",
                        help='cards left in both partners\' hands; "" for none')
    parser.add_argument("--closed", action="store_true", help="this side closed the hand")
    parser.add_argument("--pozzetto", required=True, choices=referee.POZZETTO_STATES,
                        help="taken by this side; missing (another side took one); "
                             "nobody took one")
    parser.add_argument("--unplayed", default="", metavar="CARDS",
                        help="cards of a pozzetto this side took but never played")
    parser.set_defaults(handler=_run_score)


def _run_score(args: argparse.Namespace) -> int:
    outcome = referee.score(
        args.melds, args.hand, closed=args.closed, pozzetto=args.pozzetto,
        unplayed=args.unplayed, rules=Rules.preset(args.rules),
    )
    return _emit("score", outcome)


# --- vp ---------------------------------------------------------------------------------------

def _add_vp(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "vp", help="victory points for a match's MP difference",
        description="Convert a match's MP difference to VP (RULES.md §11.2). Exit 0, "
                    "1 no table for that many hands, 2 bad DIFF.",
    )
    _add_rules_option(parser)
    parser.add_argument("--hands", required=True, type=int, metavar="N",
                        help="smazzate per match (tables known: 2, 3, 4)")
    parser.add_argument("diff", metavar="DIFF",
                        help="winner's MP minus loser's (a non-negative multiple of 5)")
    parser.set_defaults(handler=_run_vp)


def _run_vp(args: argparse.Namespace) -> int:
    return _emit("vp", referee.vp(args.hands, args.diff, rules=Rules.preset(args.rules)))


# --- replay -----------------------------------------------------------------------------------

def _add_replay(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "replay", help="replay a game record and check every move",
        description="Replay a JSON game record. Exit 0 legal, 1 illegal move (its 0-based "
                    "index), 2 malformed file.",
    )
    _add_rules_option(parser, default=None)
    parser.add_argument("file", metavar="FILE", help="the record, or - for stdin")
    parser.set_defaults(handler=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            return _emit("replay", Outcome(referee.UNREADABLE, error=f"{args.file}: {exc}"))
    return _emit("replay", referee.replay_text(text, rules_name=args.rules, source=args.file))


# --- rules ------------------------------------------------------------------------------------

def _add_rules(sub: Subparsers) -> None:
    parser = sub.add_parser("rules", help="list the rules presets or show one's options")
    rules_sub = parser.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    listing = rules_sub.add_parser("list", help="every preset, one per line")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    listing.set_defaults(handler=_run_rules_list)
    show = rules_sub.add_parser("show", help="every option of a preset with its RULES.md section")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.add_argument("--lang", choices=LANGUAGES, default=None,
                      help="language of the text (default: the terminal's, from LANG; the JSON "
                           "is always English)")
    show.add_argument("preset", nargs="?", default="fibur", type=_preset, metavar="PRESET",
                      help="default fibur")
    show.set_defaults(handler=_run_rules_show)


def _run_rules_list(args: argparse.Namespace) -> int:
    return _emit("rules list", referee.rules_list(as_json=args.json))


def _run_rules_show(args: argparse.Namespace) -> int:
    lang = args.lang or from_environment()
    return _emit("rules show", referee.rules_show(args.preset, as_json=args.json, lang=lang))


# --- play -------------------------------------------------------------------------------------

def _add_play(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "play", help="watch bots play a hand (or a match) in the terminal",
        description="Bots play Burraco in the terminal, move by move, with the score sheet.")
    play.add_arguments(parser)
    parser.set_defaults(handler=play.run)


# --- bench ------------------------------------------------------------------------------------

def _add_bench(sub: Subparsers) -> None:
    parser = sub.add_parser("bench", help="measure speed (see README: Benchmarks)")
    bench_sub = parser.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
    engine = bench_sub.add_parser(
        "engine", help="hands and decisions per second with every seat random",
        description="Play hands with every seat choosing uniformly among the legal actions; "
        "report hands/s, decisions/s and per hand, median µs of legal_actions, apply and clone, "
        "and peak memory, on one core.")
    engine.add_argument("--players", type=int, action="append", choices=(2, 3, 4, 5, 6),
                        help="player count (repeatable; default 2 and 4)")
    _add_rules_option(engine)
    engine.add_argument("--hands", type=int, default=300, help="hands timed per player count")
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.add_argument(
        "--compare-openspiel", action="store_true",
        help="beside OpenSpiel's gin_rummy in the same run (needs open_spiel: the 'openspiel' "
        "extra); 4 players unless --players is given once")
    engine.set_defaults(handler=_run_bench_engine)
    env = bench_sub.add_parser(
        "env", help="burraco_v0 env steps/s and observation µs, next to the engine's decisions/s",
        description="Play hands through the research environment with every agent random over "
        "its mask; report env steps/s (raw and wrapped), median µs of the observation, the mask, "
        "observe and step, and the engine's decisions/s, on one core (needs burraco[research]).")
    bench_env.add_arguments(env)
    env.set_defaults(handler=bench_env.run)
    bench_cli.register(sub)  # bench server, bench frames


def _run_bench_engine(args: argparse.Namespace) -> int:
    if args.hands < 1:
        print("burraco bench engine: --hands must be at least 1", file=sys.stderr)
        return 2
    rules = Rules.preset(args.rules)
    if args.compare_openspiel:
        return _run_bench_compare(args, rules)
    results = {
        f"{players}p": bench_engine(players, rules, hands=args.hands,
                                    micro_hands=max(1, args.hands // 3), seed=args.seed)
        for players in (args.players or [2, 4])
    }
    print(json.dumps(results) if args.json else format_report(results, rules))
    return 0


def _run_bench_compare(args: argparse.Namespace, rules: Rules) -> int:
    players = args.players or [4]
    if len(players) != 1:
        print("burraco bench engine: --compare-openspiel takes one --players", file=sys.stderr)
        return 2
    try:
        result = compare_openspiel(players[0], rules, hands=args.hands, seed=args.seed)
    except ImportError:
        print("burraco bench engine: open_spiel is not importable; install it with "
              "pip install 'burraco[openspiel]' (open-spiel==2.0.2)", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else format_comparison(result))
    return 0


# --- the other areas register their own commands ----------------------------------------------

def _add_server(sub: Subparsers) -> None:
    app_cli.register(sub)


def _add_admin(sub: Subparsers) -> None:
    admin_cli.register(sub)


def _add_arena(sub: Subparsers) -> None:
    arena_cli.register(sub)


def _add_analyze(sub: Subparsers) -> None:
    analysis_cli.register(sub)


def _add_tournament(sub: Subparsers) -> None:
    tournament_cli.register(sub)


def _add_audit(sub: Subparsers) -> None:
    audit_cli.register(sub)


def _add_tui(sub: Subparsers) -> None:
    tui_cli.register(sub)


# --- the command ------------------------------------------------------------------------------

SUBCOMMANDS: list[Callable[[Subparsers], None]] = [
    _add_meld,
    _add_score,
    _add_vp,
    _add_replay,
    _add_rules,
    _add_play,
    _add_bench,
    _add_server,
    _add_admin,
    _add_arena,
    _add_analyze,
    _add_tournament,
    _add_tui,
    _add_audit,
    # More commands (e.g. bench, play, serve) go here: write `_add_<name>(sub)` above, which
    # calls `sub.add_parser(...)`, declares its arguments and sets `handler=<function(args)->int>`.
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burraco",
        description="Italian Burraco: play it in the browser (serve), watch bots (play), referee "
        "a game (meld, score, vp, replay, rules), measure bots (arena) and run tournaments. "
        "The rules: docs/RULES.md.",
    )
    parser.add_argument("--version", action="version", version=f"burraco {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in SUBCOMMANDS:
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``burraco`` with ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    try:
        return handler(args)
    except BrokenPipeError:  # `burraco ... | head`: the reader left; exit quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
