"""Alembic environment: run by ``burraco.infra.db.migrate`` with an open connection.

Developers may also run ``alembic`` by hand with ``-x url=sqlite:///PATH``
and ``script_location`` pointing at this folder.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import burraco.accounts.models
import burraco.accounts.trust_models
import burraco.server.storage.models  # noqa: F401  (the tables' rows, on it too)
from burraco.infra.schema import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url")
    if not url:
        raise SystemExit("give the database as -x url=sqlite:///PATH")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
