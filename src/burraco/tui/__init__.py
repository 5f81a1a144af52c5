"""``burraco tui``: Burraco in a terminal (Textual), offline against bots, online, watching,
or stepping through a record.

Modules: :mod:`app` (the Textual app), :mod:`widgets`, :mod:`render` (markup from the
table), :mod:`model` (what the seat sees), :mod:`offline` (bots in-process through the
engine's views), :mod:`online` (the WebSocket protocol, reconnection by version),
:mod:`replay` (a record forward and back), :mod:`keys` (bindings and the settings file),
:mod:`i18n` (English and Italian), :mod:`cli` (the command).
"""
