"""The keys and the settings file (TOML) that rebinds them.

Every command has an id; ``[keys]`` in the settings file maps ids to Textual
key names, several separated by commas::

    lang = "it"            # or "en"; default: the locale
    suits = "letters"      # "symbols" (default): 7♥; "letters": 7H
    [keys]
    draw = "d"
    discard = "x,delete"
    left = "left,h"

The file lives at ``$XDG_CONFIG_HOME/burraco/tui.toml`` (``~/.config/...``)
unless ``--settings`` names another.  A bad file is refused with what is
wrong in it, before the screen opens.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from burraco.locale import LANGUAGES

# id -> (default keys, shown in the footer)
DEFAULT_KEYS: dict[str, tuple[str, bool]] = {
    "draw": ("d", True),
    "pickup": ("p", True),
    "meld": ("m", True),
    "attach": ("a", True),
    "discard": ("x", True),
    "undo": ("u", True),
    "sort": ("s", True),
    "pile": ("v", False),
    "left": ("left", False),
    "right": ("right", False),
    "select": ("space", False),
    "next": ("n", False),
    "back": ("b", False),
    "seat": ("tab", False),
    "first": ("home", False),
    "last": ("end", False),
    "help": ("question_mark", True),
    "quit": ("q", True),
}
ACTIONS = tuple(DEFAULT_KEYS)


class SettingsError(ValueError):
    """The settings file is unreadable or wrong; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class Settings:
    keys: Mapping[str, str] = field(default_factory=lambda: {
        k: v for k, (v, _) in DEFAULT_KEYS.items()})
    lang: str | None = None
    suits: str = "symbols"
    path: Path | None = None


def default_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    return Path(base) / "burraco" / "tui.toml"


def load_settings(path: Path | None = None, *, required: bool = False) -> Settings:
    """Read the settings file (a missing default file means the defaults)."""
    path = path or default_path()
    if not path.exists():
        if required:
            raise SettingsError(f"{path}: no such file")
        return Settings(path=path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    return settings_from(data, path)


def settings_from(data: Mapping[str, object], path: Path | None = None) -> Settings:
    where = f"{path}: " if path else ""
    unknown = sorted(set(data) - {"lang", "suits", "keys"})
    if unknown:
        raise SettingsError(f"{where}unknown setting {unknown[0]!r} (lang, suits, keys)")
    lang = data.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise SettingsError(f"{where}lang: {lang!r} is not one of {', '.join(LANGUAGES)}")
    suits = data.get("suits", "symbols")
    if suits not in ("symbols", "letters"):
        raise SettingsError(f"{where}suits: {suits!r} is not \"symbols\" or \"letters\"")
    keys = {k: v for k, (v, _) in DEFAULT_KEYS.items()}
    given = data.get("keys", {})
    if not isinstance(given, dict):
        raise SettingsError(f"{where}keys: expected a table such as [keys] draw = \"d\"")
    for action, value in given.items():
        if action not in DEFAULT_KEYS:
            raise SettingsError(
                f"{where}keys.{action}: no such command (one of {', '.join(ACTIONS)})")
        if not isinstance(value, str) or not [k for k in value.split(",") if k.strip()]:
            raise SettingsError(f"{where}keys.{action}: expected keys such as \"d\" or "
                                "\"x,delete\"")
        keys[action] = ",".join(k.strip() for k in value.split(",") if k.strip())
    owner: dict[str, str] = {}
    for action, value in keys.items():
        for key in value.split(","):
            if key in owner:
                raise SettingsError(
                    f"{where}keys: {key!r} is bound to both {owner[key]!r} and {action!r}")
            owner[key] = action
    return Settings(keys=keys, lang=str(lang) if lang else None, suits=str(suits), path=path)


def key_label(key: str) -> str:
    """How a Textual key name is shown: ``question_mark`` -> ``?``."""
    names = {"question_mark": "?", "space": "space", "left": "←", "right": "→", "tab": "tab",
             "delete": "del", "home": "home", "end": "end", "enter": "enter", "escape": "esc"}
    return ",".join(names.get(k, k) for k in key.split(","))
