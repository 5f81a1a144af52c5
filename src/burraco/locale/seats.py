"""The seats' compass names at 2 and 4 players, in any language (the terminal client and
``burraco play`` name the seats so; other counts number them)."""

from __future__ import annotations

from burraco.locale import N_, pgettext_in

COMPASS: dict[int, tuple[str, ...]] = {
    2: (N_("seat.compass", "North"), N_("seat.compass", "South")),
    4: (N_("seat.compass", "North"), N_("seat.compass", "East"), N_("seat.compass", "South"),
        N_("seat.compass", "West")),
}


def compass_names(players: int, lang: str) -> tuple[str, ...] | None:
    """The seats' names in ``lang`` at a table of ``players``, or ``None`` when it has none."""
    names = COMPASS.get(players)
    return None if names is None else tuple(pgettext_in(lang, "seat.compass", n) for n in names)
