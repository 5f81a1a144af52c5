"""Players meet: the matchmaking pools that seat people who want a game with each other.

A pool holds the people waiting for one kind of match: a format (``hand``, ``505``,
``1005``, ``2005``, ``vp3``), a form of play (``"2"``, or ``"4"`` in pairs) and rated or
casual play.  ``entries`` says what may wait in a pool and how far each entry's rating
window reaches; ``pool`` pairs the waiting entries, purely and deterministically; ``matches``
holds what a pairing makes (the seats, the teams, the bots); ``store`` keeps the pools, in
one process's memory or in Redis for a cluster, and hands every match to exactly one
process; ``bench`` measures it.

It knows the accounts (ratings, the bots' fitted ratings) and the plumbing; it knows no
table server: creating the table a match asks for is the caller's job (``store`` says how
to acknowledge it).
"""
