"""Club tournaments of pairs (RULES.md §11): movements, VP scales, standings, duplicate scoring.

The core is pure and depends only on the engine: :mod:`.model` (a tournament as an
immutable value), :mod:`.schedule` (``mitchell:3,danish:1``), :mod:`.scale` (MP → VP
tables), the movements (:mod:`.mitchell`, :mod:`.danish`, :mod:`.round_robin`,
:mod:`.draw`, dispatched by :mod:`.pairing`), :mod:`.standings` and
:mod:`.duplicate`.  Around it: :mod:`.storage` and :mod:`.service` (the database),
:mod:`.export` (CSV and printable HTML), :mod:`.simulate` (bots in parallel
processes), :mod:`.cli` (``burraco tournament``) and :mod:`.web` (director pages).
"""

from burraco.tournament.errors import TournamentError

__all__ = ["TournamentError"]
