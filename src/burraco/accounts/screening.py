"""Screening for two accounts of one person playing each other: address hashes.

Nothing prevents two accounts of one person from queueing together or challenging each
other (a family shares an address; a club's room shares one network).  Instead, whenever
the server pairs players (the matchmaking pool, a challenge), it keeps, for each player of
the table, a keyed hash of the address they asked to play from: the hash of the address
with the server's signing secret (HMAC-SHA-256), so the stored value says nothing about the
address itself, and two rows of one address, at one server, have the same hash.  A
moderator's screening (or a query) then finds the tables where two players share one.
"""

from __future__ import annotations

import time

from sqlalchemy import Connection, delete, insert, select

from burraco.accounts.identity import Signer
from burraco.accounts.models import AddressSeenRow, MatchAddressRow


def address_hash(signer: Signer, address: str) -> str:
    return signer.digest(f"address:{address}")


def seen(conn: Connection, player_id: str, context: str, hashed: str) -> None:
    """Keep the hash of the address ``player_id`` last asked to play from in ``context``."""
    conn.execute(delete(AddressSeenRow).where(AddressSeenRow.player_id == player_id,
                                              AddressSeenRow.context == context))
    conn.execute(insert(AddressSeenRow).values(player_id=player_id, context=context,
                                               address_hash=hashed, at=time.time()))


def paired(conn: Connection, table_id: str, players: dict[str, str | None], context: str
           ) -> None:
    """Record the address hash of each player of a paired table: the one given, else the
    one last seen for the player in ``context`` (a player without one is left out)."""
    for player_id, hashed in players.items():
        if hashed is None:
            hashed = conn.scalar(select(AddressSeenRow.address_hash).where(
                AddressSeenRow.player_id == player_id, AddressSeenRow.context == context))
        if hashed is None:
            continue
        conn.execute(delete(MatchAddressRow).where(MatchAddressRow.table_id == table_id,
                                                   MatchAddressRow.player_id == player_id))
        conn.execute(insert(MatchAddressRow).values(table_id=table_id, player_id=player_id,
                                                    address_hash=hashed))


def shared_tables(conn: Connection) -> list[tuple[str, str, list[str]]]:
    """(table, address hash, players) of every paired table where two players or more asked
    to play from one address: what a screening looks at first."""
    rows = conn.execute(select(MatchAddressRow.table_id, MatchAddressRow.address_hash,
                               MatchAddressRow.player_id)
                        .order_by(MatchAddressRow.table_id, MatchAddressRow.player_id))
    groups: dict[tuple[str, str], list[str]] = {}
    for table_id, hashed, player_id in rows:
        groups.setdefault((table_id, hashed), []).append(player_id)
    return [(table, hashed, players) for (table, hashed), players in groups.items()
            if len(players) > 1]
