"""``burraco tui``: the terminal table, offline, online, watching or replaying.

    burraco tui [--players 2..6] [--bots LEVEL,...] [--rules PRESET] [--seed N]
    burraco tui --server http://HOST:PORT [--table ID --seat N --token S.…]
    burraco tui http://HOST:PORT/play/TABLE?seat=0&token=…     (an invite or watch link)
    burraco tui --replay RECORD.json [--seat N]

Bad options, links, records and settings are refused before the screen opens,
with what is wrong (exit 2).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from burraco.bots.base import LEVEL_NAMES
from burraco.cliparts import Subparsers
from burraco.engine.rules import Rules
from burraco.locale import LANGUAGES
from burraco.tui.i18n import Words, detect_lang
from burraco.tui.keys import SettingsError, load_settings
from burraco.tui.links import Seat, create_table, guest_token, parse_link, server_base
from burraco.tui.offline import OfflineDriver
from burraco.tui.replay import ReplayDriver, load_record


def register(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "tui", help="play in the terminal: against bots, at a server's table, or a replay",
        description="Burraco in the terminal (Textual). Offline against bots by default; "
        "--server or an invite link plays online; a watch link spectates; --replay steps "
        "through a record. Keys: d draw, p pile, arrows + space select, m meld, a attach, "
        "x discard, u undo, s sort, v whole pile, ? help, q quit.")
    parser.add_argument("link", nargs="?", metavar="LINK",
                        help="an invite or watch link (http://HOST:PORT/play/TABLE?...)")
    offline = parser.add_argument_group("offline and new online tables")
    offline.add_argument("--players", type=int, choices=(2, 3, 4, 5, 6), default=None,
                         help="players at the table, you included (default 4)")
    offline.add_argument("--bots", default="advanced",
                         help="the other seats' bot levels, one or one per seat, in order: "
                              "random, basic, advanced, expert (online also: human); "
                              "default advanced")
    offline.add_argument("--rules", default="fibur", help="rules preset (default fibur)")
    offline.add_argument("--seed", type=int, default=None, help="deal and bot seed (offline)")
    offline.add_argument("--save", type=Path, default=None, metavar="DIR",
                         help="offline: write each finished hand's record into DIR "
                              "(replay it with --replay)")
    offline.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                         help="pause before each bot move (default 0.6)")
    online = parser.add_argument_group("online")
    online.add_argument("--server", metavar="URL", help="a burraco server, e.g. "
                        "http://127.0.0.1:8000 (alone: creates a table with you at seat 0)")
    online.add_argument("--table", metavar="ID", help="a table at --server")
    online.add_argument("--seat", type=int, metavar="N",
                        help="your seat (online) or the seat whose view a replay shows")
    online.add_argument("--token", metavar="TOKEN", help="the seat token (from the invite)")
    online.add_argument("--watch-token", metavar="TOKEN", help="a private table's watch token")
    online.add_argument("--name", metavar="NICK", help="your nickname (default: your login)")
    online.add_argument("--guest", metavar="TOKEN",
                        help="a guest token to use (default: the remembered one, or a new one)")
    parser.add_argument("--replay", metavar="RECORD", type=Path,
                        help="step through a record (docs/record-format.md)")
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="language (default: the settings file, else the locale)")
    parser.add_argument("--settings", type=Path, default=None, metavar="FILE",
                        help="settings file (default ~/.config/burraco/tui.toml)")
    parser.set_defaults(handler=run)


def _fail(message: str) -> int:
    print(f"burraco tui: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.settings, required=args.settings is not None)
    except SettingsError as exc:
        return _fail(str(exc))
    try:
        driver, words = build_driver(args, settings.lang)
    except ValueError as exc:  # LinkError, RecordError, bad options
        return _fail(str(exc))
    from burraco.tui.app import BurracoApp  # Textual loads only when the table opens

    app = BurracoApp(driver, words=words, settings=settings)
    code = app.run()
    return int(code or 0)


def build_driver(args: argparse.Namespace, settings_lang: str | None = None):  # type: ignore[no-untyped-def]
    """The driver the options ask for (ValueError with the reason when they do not fit)."""
    words = Words(args.lang or settings_lang or detect_lang())
    levels = [b.strip() for b in str(args.bots).split(",") if b.strip()]
    modes = [m for m, on in (("LINK", args.link), ("--server", args.server),
                             ("--replay", args.replay)) if on]
    if len(modes) > 1:
        raise ValueError(f"{' and '.join(modes)} do not go together: choose one")
    if args.replay is not None:
        data = load_record(args.replay)
        return ReplayDriver(data, words=words, seat=args.seat if args.seat is not None else 0), \
            words
    if args.link or args.server:
        return _online(args, words, levels), words
    for level in levels:
        if level.partition(":")[0] not in LEVEL_NAMES:
            raise ValueError(f"--bots: unknown level {level!r} ({', '.join(LEVEL_NAMES)})")
    try:
        rules = Rules.preset(args.rules)
    except ValueError as exc:
        raise ValueError(f"--rules: {exc}") from None
    if args.bot_delay < 0:
        raise ValueError("--bot-delay: seconds, 0 or more")
    players = args.players or 4
    return OfflineDriver(players=players, bots=levels, rules=rules, seed=args.seed,
                         words=words, bot_delay=args.bot_delay, save_dir=args.save), words


def _online(args: argparse.Namespace, words, levels: list[str]):  # type: ignore[no-untyped-def]
    from burraco.tui.online import OnlineDriver  # websockets loads only to play online

    nickname = args.name or _login()
    if args.link:
        where = parse_link(args.link)
    else:
        base = server_base(args.server)
        if args.table:
            if args.seat is None:
                where = Seat(base, args.table, None, watch_token=args.watch_token)
            else:
                if not args.token:
                    raise ValueError("--seat needs --token (the seat token of the invite)")
                where = Seat(base, args.table, args.seat, token=args.token)
        else:
            guest = args.guest or guest_token(base, nickname)
            players = args.players or 4
            if len(levels) == 1:
                levels = levels * (players - 1)
            if len(levels) != players - 1:
                raise ValueError(f"--bots: give one level, or {players - 1}")
            where, made = create_table(base, guest, players=players, seats=levels,
                                       rules=args.rules)
            invites = {int(s["seat"]): str(s["invite"]) for s in made["seats"]
                       if s.get("invite") and s["seat"] != 0}
            for seat, link in sorted(invites.items()):
                print(words("invite", name=words.seat_name(seat, players), link=link),
                      file=sys.stderr)
            return OnlineDriver(where, guest=guest, words=words, nickname=nickname,
                                invites=invites)
    guest = args.guest
    if where.seat is not None and guest is None:
        guest = guest_token(where.base, nickname)
    return OnlineDriver(where, guest=guest, words=words, nickname=nickname)


def _login() -> str:
    try:
        return getpass.getuser()[:24] or "Player"
    except (OSError, KeyError):
        return "Player"


__all__ = ["build_driver", "register", "run"]
