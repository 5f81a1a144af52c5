"""The game server: live tables over WebSockets, every action durable (docs/protocol.md).

Data flows one way: a command enters through the gateway, the table's actor
checks it and has the engine apply it, the events are appended to the database
in one transaction, and only then are they projected per seat and sent.

Modules, one job each:

* ``config``      server settings and database URLs
* ``identity``    signed guest, seat and watch tokens
* ``commitment``  CSPRNG deck orders and their SHA-256 commitments
* ``tables``      a table's settings, checked
* ``game``        the match lifecycle on top of ``HandState`` (pure)
* ``projection``  what each seat may see of a stored event, and resyncs
* ``protocol``    the WebSocket messages (pydantic) and error codes
* ``storage``     SQLAlchemy models, repository, group-commit writer, migrations
* ``actor``       one asyncio owner per live table
* ``seats``       bots at the table: bot seats and stand-ins for dropped players
* ``clock``       the optional turn clock and its timeout action
* ``hub``         the live tables: creation and recovery from the database
* ``app``         the FastAPI application: HTTP API and the WebSocket gateway
* ``cli``         ``burraco serve`` and ``burraco bench server``
"""
