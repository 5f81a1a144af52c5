"""Where the built browser client lives: ``$BURRACO_WEB_DIR``, else ``static/`` beside this
file (the scripts build it there)."""

from __future__ import annotations

import os
from pathlib import Path

STATIC_ENV = "BURRACO_WEB_DIR"


def static_dir() -> Path:
    """The folder of the built client (it may not exist: then pages answer 503)."""
    explicit = os.environ.get(STATIC_ENV)
    return Path(explicit) if explicit else Path(__file__).with_name("static")
