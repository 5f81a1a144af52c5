"""Reading a registration line, as typed on the command line, in a file or in a web form.

* ``Rossi / Bianchi``                  a pair named so, whose players are Rossi and Bianchi
* ``Circolo Roma: Rossi / Bianchi / Verdi / Neri``
                                       an entrant named before the colon, players after it
                                       (how a team is registered)
* ``Rossi``                            a name alone (a player in an individual event)

Players are separated by ``/``, ``&``, ``+`` or, after a colon, commas.

>>> entry("Circolo Roma: Rossi, Bianchi, Verdi, Neri")
('Circolo Roma', ['Rossi', 'Bianchi', 'Verdi', 'Neri'])
>>> entry("Rossi / Bianchi")
('Rossi / Bianchi', ['Rossi', 'Bianchi'])
"""

from __future__ import annotations

import re

PLAYER_SPLIT = re.compile(r"\s*(?:/|&|\+)\s*")
LISTED_SPLIT = re.compile(r"\s*(?:/|&|\+|,)\s*")


def entry(text: str) -> tuple[str, list[str]]:
    """(name, players) of one registration line."""
    name, colon, listed = text.partition(":")
    if colon:
        return name.strip(), [p for p in LISTED_SPLIT.split(listed.strip()) if p]
    parts = [p for p in PLAYER_SPLIT.split(text.strip()) if p]
    return text.strip(), parts if len(parts) > 1 else []
