"""Opening the database and migrating it to the current schema.

SQLite runs in WAL mode (readers never block the single writer) with
``synchronous=FULL`` by default, so an acknowledged command survives a crash of
the process and of the machine; ``normal`` survives a process crash only.
PostgreSQL uses psycopg 3 and a small pool.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, inspect

from burraco.infra.config import normalize_db_url, sqlite_path

MIGRATIONS = Path(__file__).resolve().parent.parent / "server" / "migrations"
"""The main schema's history (tables, accounts, the daily): a folder, not an import; the club's
schema passes its own (``tournament/migrations``)."""


def make_engine(url: str, *, sqlite_sync: str = "full") -> Engine:
    url = normalize_db_url(url)
    path = sqlite_path(url)
    if path is None:
        return create_engine(url, pool_size=4, max_overflow=8, pool_pre_ping=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    if sqlite_sync not in ("full", "normal"):
        raise ValueError(f"sqlite synchronous mode {sqlite_sync!r}: expected full or normal")
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    return engine


def alembic_config(migrations: Path = MIGRATIONS) -> Config:
    """Alembic's settings for one migration history (the server's, or another's folder)."""
    config = Config()
    config.set_main_option("script_location", str(migrations))
    return config


MIGRATION_LOCK = 0x6275727261636F  # "burraco": the advisory lock key of migrations


def migrate(engine: Engine, migrations: Path = MIGRATIONS) -> None:
    """Upgrade the database to the newest schema (creating it when empty)."""
    config = alembic_config(migrations)
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # processes of a cluster may start at once on an empty database: one migrates,
            # the others wait for it here and then find the schema current
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def checkpoint(engine: Engine, mode: str = "PASSIVE") -> None:
    """Copy the SQLite write-ahead log into the database file (no-op for PostgreSQL)."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")


def table_names(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())
