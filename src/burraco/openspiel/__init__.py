"""Burraco in OpenSpiel (optional extra ``burraco[openspiel]``: open-spiel, NumPy).

Importing this package registers the Python game ``python_burraco`` with OpenSpiel::

    import pyspiel
    import burraco.openspiel  # registers python_burraco
    game = pyspiel.load_game("python_burraco(players=4)")

:mod:`burraco.openspiel.game` is the game, :mod:`burraco.openspiel.table` the hand it plays
(chance deals the deck face by face), :mod:`burraco.openspiel.tensors` its strings and
tensors, :mod:`burraco.openspiel.resample` the deals a seat cannot tell apart (for IS-MCTS),
:mod:`burraco.openspiel.bots` this project's bots as OpenSpiel bots.  docs/openspiel.md.
"""

from burraco.openspiel.game import SHORT_NAME, BurracoGame, BurracoObserver, BurracoState

__all__ = ["SHORT_NAME", "BurracoGame", "BurracoObserver", "BurracoState"]
