"""The "tournaments" section of a player's profile: the club events an account's pair played.

The accounts' profile knows nothing of clubs; the server's composition root adds this part
(:attr:`burraco.accounts.service.Players.profile_parts`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from burraco.tournament.held import playing_rounds, public
from burraco.tournament.members import has_table
from burraco.tournament.service import Director
from burraco.tournament.standings import standings
from burraco.tournament.storage import PairAccountRow


def profile_tournaments(conn: Connection, player_id: str) -> list[dict[str, Any]]:
    """The profile's "tournaments" section: every event the player's pair was linked to.

    What anyone may see: a duplicate round still being played (a table without a result, or
    a web table of its deal group not finished: :mod:`.held`) does not count yet.
    """
    if not has_table(conn, "tournament_pair_accounts"):
        return []
    rows = conn.execute(select(PairAccountRow.tournament_id, PairAccountRow.pair).where(
        PairAccountRow.player_id == player_id)).all()
    director = Director(conn.engine, create_tables=False)
    out = []
    for tid, number in rows:
        full = director._load(conn, tid)[0]
        t = public(full, playing_rounds(conn, tid, full))
        mine = next(s for s in standings(t) if s.pair == number)
        out.append({"id": tid, "name": t.settings.name, "status": t.status,
                    "pair": number, "pair_name": t.pair(number).name, "rank": mine.rank,
                    "of": len(t.pairs), "vp": mine.vp, "played": mine.played})
    return sorted(out, key=lambda x: x["id"])
