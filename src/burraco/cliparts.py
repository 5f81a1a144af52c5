"""What the areas of the ``burraco`` command share when they register their subcommands.

Each area (server, arena, tournaments, research) adds its own commands; those
that measure speed hang under ``burraco bench``, found here by name.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def subcommands_of(sub: Subparsers, name: str) -> Subparsers:
    """The sub-subcommands of command ``name`` (e.g. ``bench``), to add one more."""
    parser = sub.choices[name]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    raise ValueError(f"`burraco {name}` takes no subcommands")
