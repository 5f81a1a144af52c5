"""Many ``burraco serve`` processes on one PostgreSQL and one Redis, behaving as one server.

PostgreSQL holds the truth (every table's commands, compare-and-set by version);
Redis holds who runs which table (:mod:`.lease`), which processes are alive and
how loaded (:mod:`.nodes`), and carries messages between them (:mod:`.bus`).
A connection may arrive at any process (its *door*); the door forwards what the
client sends to the table's owner and passes back what the owner sends
(:mod:`.remote`).  :mod:`.node` ties them together.
"""
