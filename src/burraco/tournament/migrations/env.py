"""Alembic environment of the tournament tables (own version table, see ``storage``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from burraco.tournament.storage import VERSION_TABLE, Base

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = context.get_x_argument(as_dictionary=True).get("url")
        if not url:
            raise SystemExit("give the database as -x url=sqlite:///PATH")
        with create_engine(url).connect() as conn:
            _run(conn)
        return
    _run(connection)


def _run(connection: object) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata,  # type: ignore[arg-type]
                      render_as_batch=True, version_table=VERSION_TABLE)
    with context.begin_transaction():
        context.run_migrations()


run()
