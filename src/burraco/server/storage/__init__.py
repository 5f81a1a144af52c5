"""Durable storage: SQLAlchemy 2 models, the repository, the group-commit writer, migrations.

SQLite (WAL) by default, PostgreSQL by URL.  Every command that changes a table
is one :class:`~burraco.server.storage.repository.CommitUnit`, written in one
transaction before anything about it is sent to a client.
"""
