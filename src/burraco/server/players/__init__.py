"""Players: accounts, sessions, rated play, statistics, leaderboards and fair play.

The package is mounted on the game server by :func:`routes.install` and reached by
the hub through :class:`service.Players`.  It keeps to the server's ways: every
write goes through the single writer thread, reads run in worker threads, and a
seat at a table still names a *guest id*: an account's ``player_id`` is the guest
id it plays under, so a guest who registers keeps every table they held.

* ``models``     the tables (migration ``0003_accounts``)
* ``names``      usernames and passwords as the contract accepts them
* ``passwords``  Argon2id hashing (argon2-cffi)
* ``sessions``   opaque session tokens, stored hashed, cached in memory
* ``throttle``   wrong-password throttling per username and per address
* ``ratings``    OpenSkill (Weng–Lin, Plackett–Luce) per form of play; bots held fixed
* ``results``    a finished match turned into history, statistics, ratings, penalties
* ``fairplay``   abandonment and the escalating waits before the next rated match
* ``queries``    profile and leaderboard reads
* ``service``    what the hub, the gateway and the routes call
* ``routes``     the HTTP API (an ``APIRouter``)
* ``pad``        the score pad's sheets kept for an account; ``pad_routes`` their API
"""
