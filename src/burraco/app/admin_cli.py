"""``burraco admin``: what only the server's machine does (docs/moderation.md).

    burraco admin grant  --user NAME --role moderator|admin --reason TEXT [--db URL]
    burraco admin revoke --user NAME --role moderator|admin --reason TEXT [--db URL]
    burraco admin roles  [--db URL]
    burraco admin screening [--days N] [--json] [--db URL]

Roles are given here and nowhere else: whoever can run this reaches the server's database.
Every change needs a reason (it is logged with who ran the command); exit 0 done, 1 refused
(the message says why; nothing changed), 2 bad usage.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from sqlalchemy import Connection, Engine, select

from burraco.accounts import moderation
from burraco.accounts.models import AccountRow
from burraco.accounts.names import FieldError, username_key
from burraco.community.collusion import render_text, screening_report
from burraco.infra.config import ConfigError, default_db_url, normalize_db_url
from burraco.infra.db import make_engine, migrate


def register(sub: Any) -> None:
    admin = sub.add_parser("admin", help="the server's administration: roles, fair-play "
                           "screening (run on the server's machine)",
                           description="Administration of a game server's database: give and "
                           "take the moderator and admin roles, read the fair-play screening.")
    cmds = admin.add_subparsers(dest="admin_command", required=True)
    for name, text in (("grant", "give a role"), ("revoke", "take a role back")):
        cmd = cmds.add_parser(name, help=text)
        cmd.add_argument("--user", required=True, help="the account's username")
        cmd.add_argument("--role", required=True, choices=moderation.ROLES)
        cmd.add_argument("--reason", required=True, help="why (3 to 500 characters; logged)")
        _db(cmd)
        cmd.set_defaults(handler=run_role, grant=name == "grant")
    roles = cmds.add_parser("roles", help="list who holds a role")
    _db(roles)
    roles.set_defaults(handler=run_roles)
    screening = cmds.add_parser("screening", help="the fair-play screening report over rated "
                                "matches (it flags, it never punishes; docs/fair-play.md)")
    screening.add_argument("--days", type=float, default=90.0,
                           help="look at the rated matches of the last N days (default 90)")
    screening.add_argument("--json", action="store_true", help="the report as JSON")
    _db(screening)
    screening.set_defaults(handler=run_screening)


def _db(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--db", metavar="URL", default=None,
                     help=f"the server's database (default {default_db_url()})")


def _engine(args: argparse.Namespace) -> Engine:
    engine = make_engine(normalize_db_url(args.db or default_db_url()))
    migrate(engine)
    return engine


def _fail(message: str) -> int:
    print(f"burraco admin: {message}", file=sys.stderr)
    return 1


def _player(conn: Connection, username: str) -> str | None:
    pid = conn.scalar(select(AccountRow.player_id).where(
        AccountRow.username_key == username_key(username)))
    return None if pid is None else str(pid)


def run_role(args: argparse.Namespace) -> int:
    try:
        reason = moderation.check_reason(args.reason)
        engine = _engine(args)
    except (FieldError, ConfigError) as exc:
        return _fail(str(exc))
    by = f"admin:{getpass.getuser()}"
    with engine.begin() as conn:
        pid = _player(conn, args.user)
        if pid is None:
            return _fail(f"no account named {args.user!r}")
        if args.grant:
            changed = moderation.grant(conn, pid, args.role, by, reason)
        else:
            changed = moderation.revoke(conn, pid, args.role, by, reason)
    verb = "now holds" if args.grant else "no longer holds"
    print(f"{args.user} {verb} the role {args.role}" if changed
          else f"{args.user} already {'held' if args.grant else 'did not hold'} the role "
               f"{args.role}: nothing changed")
    return 0


def run_roles(args: argparse.Namespace) -> int:
    try:
        engine = _engine(args)
    except ConfigError as exc:
        return _fail(str(exc))
    with engine.connect() as conn:
        rows = moderation.staff(conn)
    if not rows:
        print("nobody holds a role (burraco admin grant --user NAME --role moderator "
              "--reason TEXT)")
    for row in rows:
        print(f"{row['username']:<20} {row['role']:<10} by {row['granted_by']}: {row['reason']}")
    return 0


def run_screening(args: argparse.Namespace) -> int:
    if not args.days > 0:
        return _fail("--days: more than 0")
    try:
        engine = _engine(args)
    except ConfigError as exc:
        return _fail(str(exc))
    with engine.connect() as conn:
        report = screening_report(conn, since_days=args.days)
    print(json.dumps(report, indent=1) if args.json else render_text(report))
    return 0
