"""What the ``burraco tournament`` actions share (:mod:`.cli`, :mod:`.cli_evening`).

A refusal is one line on stderr and exit code 1, bad usage exit code 2; every action
opens the director of the database ``--db`` names and works on the tournament ``-t``
names (default: the one created last).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from burraco.infra.config import ConfigError, default_db_url
from burraco.tournament.errors import TournamentError

REFUSED = 1
USAGE = 2


class UsageError(Exception):
    pass


def guard(command: str, fn: Callable[[argparse.Namespace], int]) -> Callable[
        [argparse.Namespace], int]:
    """Turn refusals into one line on stderr and exit code 1."""
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except TournamentError as exc:
            print(f"burraco tournament {command}: {exc}", file=sys.stderr)
            return REFUSED
        except UsageError as exc:
            print(f"burraco tournament {command}: {exc}", file=sys.stderr)
            return USAGE
    return run


def open_director(args: argparse.Namespace) -> Any:
    """The director of the tournaments in ``--db`` (default: the game server's database)."""
    from burraco.tournament.service import Director  # SQLAlchemy: only when an action runs

    try:
        return Director.open(args.db or default_db_url())
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def tournament_id(director: Any, args: argparse.Namespace) -> str:
    """The tournament ``-t`` names, or the one created last."""
    return args.tournament or director.latest()  # type: ignore[no-any-return]
