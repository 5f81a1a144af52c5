"""Burraco: the Italian rummy of the Canasta family, as a rules engine and platform."""

__version__ = "0.1.0"
