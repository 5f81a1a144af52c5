"""Accounts: the person, knowing no table server's internals.

Identity (signed guest tokens), accounts and sessions, passwords, avatars, ratings, statistics,
leaderboards, fair play's waits and the score pad's saved sheets.  It keeps to the server's
ways through its :class:`service.Host` (the hub is one): every write goes through the single
writer thread, reads run in worker threads.  A seat at a table still names a *guest id*: an
account's ``player_id`` is the guest id it plays under, so a guest who registers keeps every
table they held.

* ``identity``   guest ids, nicknames and the signed tokens of guests, seats and watchers
* ``models``     the tables (migration ``0003_accounts``)
* ``names``      usernames and passwords as the contract accepts them
* ``passwords``  Argon2id hashing (argon2-cffi)
* ``sessions``   opaque session tokens, stored hashed, cached in memory; open sockets by session
* ``ratings``    OpenSkill (Weng–Lin, Plackett–Luce) per form of play; bots held fixed
* ``fairplay``   abandonment and the escalating waits before the next rated match
* ``queries``    profile, statistics and leaderboard reads
* ``avatars``    the ids of the drawn avatars: who may pick which, an account's default
* ``store``      accounts' and sessions' rows
* ``pad``        the score pad's sheets kept for an account
* ``service``    what the hub, the gateway and the routes call (``Players``)

A finished match becomes history and ratings in ``burraco.community.results``; the HTTP
routes are the app's (``burraco.app.account_routes``, ``pad_routes``).
"""
