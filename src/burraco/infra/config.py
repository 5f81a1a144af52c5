"""Server settings: one frozen value, built by ``burraco serve`` from its options.

The default database is a SQLite file in the user's data folder
(``$BURRACO_DATA_DIR``, else ``$XDG_DATA_HOME/burraco``, else
``~/.local/share/burraco``).  PostgreSQL URLs may be given in the usual
``postgresql://`` form; the installed driver (psycopg 3) is filled in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SqliteSync = Literal["full", "normal"]


class ConfigError(ValueError):
    """A server setting is unusable; the message names it."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    db_url: str
    host: str = "127.0.0.1"
    port: int = 8000
    max_message_bytes: int = 16 * 1024
    """Largest client message the server reads; larger ones are rejected (``too_large``)."""
    ws_max_bytes: int = 1024 * 1024
    """Frames above this are refused by the WebSocket layer itself (close code 1009)."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to send its ``hello``."""
    outbox_limit: int = 2000
    """Frames waiting for one slow connection before it is closed (it may reconnect)."""
    queue_limit: int = 1000
    """Commands waiting at one table before new ones are rejected (``overloaded``)."""
    sqlite_sync: SqliteSync = "full"
    """SQLite ``synchronous`` pragma: ``full`` survives power loss, ``normal`` only crashes."""
    log_level: str = "warning"
    public_url: str = ""
    """Base URL put into invite links (default ``http://HOST:PORT``)."""
    # --- HTTP limits (docs/protocol.md "Limits"; docs/deployment.md) ---------------------------
    max_body_bytes: int = 64 * 1024
    """Largest HTTP request body; a larger one is refused (413) before it is read whole."""
    body_timeout: float = 30.0
    """Seconds a client has to send a request's whole body once its headers are in (408)."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's headers (then it is closed)."""
    keepalive_timeout: int = 5
    """Seconds an idle keep-alive connection is kept open between requests."""
    table_rate: str = "30/minute"
    """Tables one client address may create (``N/second|minute|hour|day``; ``none``: no limit)."""
    guest_rate: str = "30/minute"
    """Guests one client address may create (same form as ``table_rate``)."""
    waiting_tables_per_guest: int = 10
    """Tables one guest may have waiting for players at once (0: no limit)."""
    waiting_expiry: float = 24 * 3600.0
    account_rate: str = "10/hour"
    """Accounts one client address may register (each costs an Argon2 hash; ``none``)."""
    bot_tables_per_guest: int = 2
    """Unfinished tables of bots only (no human seat) one guest may have (0: no limit)."""
    bot_table_rate: str = "20/hour"
    """Tables of bots only one client address may create (``none``: no limit)."""
    bot_table_delay: float = 0.5
    """The least ``bot_delay`` of a table of bots only: such a table is a show, not a
    benchmark (``burraco arena`` plays bots at full speed), and costs a stored event per move."""
    rated_min_target: int = 505
    """The lowest target of a rated match played to a target (one deal's luck must not move a
    rating: docs/decisions.md)."""
    rated_min_hands: int = 3
    """The fewest hands of a rated match of a set number of hands."""
    """Seconds after its last change a waiting table nobody watches is deleted (0: never)."""

    engines: tuple[tuple[str, str], ...] = ()
    """Outside engines a table may seat as ``engine:NAME``: (NAME, command line) pairs."""
    engine_deadline_ms: int = 2000
    """Time an outside engine has for each decision before the fallback plays it."""
    analysis_level: str = "expert"
    """The level whose marks the replay page shows (``burraco.analysis``)."""
    analysis_samples: int = 32
    """Imagined deals per compared move in those analyses."""
    finished_table_seconds: float = 60.0
    """Seconds a finished table nobody watches stays in memory (then it is read again from the
    database when someone asks for it)."""
    recurring_events: str = "default"
    """The server's own recurring online tournaments (``--events``: ``default``, ``none``,
    JSON or ``@FILE``; ``community.recurring``)."""
    # --- cluster (burraco.server.cluster; docs/architecture.md "Cluster") ----------------------
    redis_url: str = ""
    """Redis of the cluster; empty: this process runs alone, as one server."""
    redis_prefix: str = "burraco"
    """Prefix of every Redis key and channel the cluster uses (one cluster per prefix)."""
    lease_seconds: float = 3.0
    """How long a table's lease lasts unrenewed (renewed every third of it)."""
    node_id: str = ""
    """This process's name in the cluster (default: random at each start)."""

    @property
    def engine_commands(self) -> dict[str, str]:
        return dict(self.engines)

    @property
    def base_url(self) -> str:
        return self.public_url.rstrip("/") or f"http://{self.host}:{self.port}"


def parse_engine(text: str) -> tuple[str, str]:
    """``NAME=COMMAND LINE`` (``burraco serve --engine``) -> (NAME, COMMAND LINE)."""
    name, eq, command = text.partition("=")
    name = name.strip()
    if not eq or not command.strip():
        raise ConfigError(f"--engine {text!r}: write NAME=COMMAND LINE")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"--engine {text!r}: a name is letters, digits, - and _")
    return name, command.strip()


def data_dir() -> Path:
    explicit = os.environ.get("BURRACO_DATA_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "burraco"


def default_db_url() -> str:
    return f"sqlite:///{data_dir() / 'server.db'}"


def normalize_db_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``; raise :class:`ConfigError` for an unsupported one."""
    url = url.strip()
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith(("postgresql+psycopg://", "sqlite:///")):
        return url
    if url == "sqlite://" or url.startswith("sqlite://"):
        raise ConfigError(
            f"--db {url!r}: give a SQLite file as sqlite:///PATH (an in-memory database would "
            "lose every table on restart)")
    raise ConfigError(
        f"--db {url!r}: expected sqlite:///PATH or postgresql://USER@HOST:PORT/DATABASE")


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL (``None`` for other databases)."""
    if not url.startswith("sqlite:///"):
        return None
    return Path(url[len("sqlite:///"):].split("?", 1)[0])
