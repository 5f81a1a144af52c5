"""Finding a value in every row of a database, and replacing it, knowing nothing of the rows.

A row *names* a needle when one of its string columns equals it, or one of its JSON columns
holds it at any depth as a string value or as an object's key.  :func:`rows_naming` finds
such rows in every table (the database narrows them down with ``LIKE``, on the JSON's text
too; each is then checked exactly), and :func:`rewrite` replaces the value in the rows
found, each read again and updated by its primary key.  It serves the erasure of a
person (``accounts.erasure``), its export, and the tests that search a whole database.

What a :class:`Replacement` changes in a row:

* the old value, wherever it stands exactly: a string column, a JSON string, a JSON key;
* the names *beside* it: in a JSON object holding it as a value, every string under one
  of ``name_keys``; in a JSON list or object holding it, any string equal to one of
  ``aliases``; in a row one of whose columns holds it, the columns of ``name_columns``;
* the ``names`` (unique names, such as a username) wherever they stand under one of
  ``name_keys`` (JSON: as the key's string, or in the key's list of strings) or in one of
  ``name_columns``, beside the old value or not; and as whole words (in any case) in the
  ``text_columns`` of a row holding the old value.

Nothing else changes: a name equal to some other word of the database (a status, a rule's
option) is never touched outside those places.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Connection, MetaData, String, Table, Text, and_, cast, or_, select

_WORD = r"(?<![A-Za-z0-9_-]){}(?![A-Za-z0-9_-])"


def reflected(conn: Connection) -> MetaData:
    """Every table the database has now (of every schema history that shares it)."""
    metadata = MetaData()
    metadata.reflect(conn)
    return metadata


def holds(value: Any, needles: Collection[str]) -> bool:
    """Whether a JSON value holds one of ``needles`` as a string or a key, at any depth."""
    if isinstance(value, str):
        return value in needles
    if isinstance(value, dict):
        return any(k in needles or holds(v, needles) for k, v in value.items())
    if isinstance(value, list):
        return any(holds(v, needles) for v in value)
    return False


def _is_json(column: Any) -> bool:
    return isinstance(column.type, JSON)


def _is_text(column: Any) -> bool:
    return isinstance(column.type, String) and not _is_json(column)


def _like(needle: str) -> str:
    escaped = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _forms(needle: str) -> set[str]:
    """The needle as it may stand in a JSON text: as is, and escaped."""
    return {needle, json.dumps(needle)[1:-1]}


def _candidates(table: Table, needles: Collection[str]) -> Any:
    """The condition of the rows that may name a needle (checked exactly afterwards)."""
    terms: list[Any] = []
    for column in table.columns:
        if _is_json(column):
            text = cast(column, Text)
            terms += [text.like(_like(form), escape="\\")
                      for needle in needles for form in _forms(needle)]
        elif _is_text(column):
            terms.append(column.in_(list(needles)))
    return or_(*terms) if terms else None


def _names_row(table: Table, row: dict[str, Any], needles: Collection[str]) -> bool:
    for column in table.columns:
        value = row[column.name]
        if _is_json(column) and holds(value, needles):
            return True
        if _is_text(column) and value in needles:
            return True
    return False


def rows_naming(conn: Connection, metadata: MetaData, needles: Iterable[str], *,
                skip: Collection[str] = (), only: Collection[str] | None = None
                ) -> dict[str, list[dict[str, Any]]]:
    """``{table: [row as {column: value}]}`` of every row naming one of ``needles`` (tables
    without such rows are left out); ``skip`` and ``only`` name tables."""
    wanted = {n for n in needles if n}
    out: dict[str, list[dict[str, Any]]] = {}
    if not wanted:
        return out
    for name, table in sorted(metadata.tables.items()):
        if name in skip or (only is not None and name not in only):
            continue
        condition = _candidates(table, wanted)
        if condition is None:
            continue
        rows = [dict(r._mapping) for r in conn.execute(select(table).where(condition))]
        found = [r for r in rows if _names_row(table, r, wanted)]
        if found:
            out[name] = found
    return out


@dataclass(frozen=True, slots=True)
class Replacement:
    """One value replaced, and the names that go with it (module docstring)."""

    old: str
    new: str
    name: str = ""
    """What a name beside ``old`` (or one of ``names``) becomes."""
    names: frozenset[str] = field(default_factory=frozenset)
    aliases: frozenset[str] = field(default_factory=frozenset)
    name_keys: frozenset[str] = field(default_factory=frozenset)
    name_columns: frozenset[str] = field(default_factory=frozenset)
    text_columns: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not self.old or self.old == self.new:
            raise ValueError("a replacement needs an old value other than the new one")

    @property
    def spoken(self) -> frozenset[str]:
        """Every name replaced beside the old value."""
        return self.names | self.aliases

    def json(self, value: Any) -> Any:
        """``value`` (JSON) with the replacement made, at every depth."""
        if isinstance(value, str):
            return self.new if value == self.old else value
        if isinstance(value, list):
            beside = self.old in value
            return [self.name if beside and isinstance(v, str) and v in self.spoken
                    else self.json(v) for v in value]
        if isinstance(value, dict):
            beside = self.old in value or self.old in value.values()
            out: dict[str, Any] = {}
            for key, item in value.items():
                named = isinstance(item, str) and (
                    (beside and (key in self.name_keys or item in self.spoken))
                    or (key in self.name_keys and item in self.names))
                if named:
                    item = self.name
                elif key in self.name_keys and isinstance(item, list):
                    # a list of names (a hand record's seats)
                    known = self.spoken if beside else self.names
                    item = [self.name if isinstance(v, str) and v in known else v
                            for v in item]
                out[self.new if key == self.old else key] = self.json(item)
            return out
        return value

    def names_beside(self, value: Any) -> set[str]:
        """The strings under ``name_keys`` in the JSON objects of ``value`` that hold the
        old value: the other names the same one went by."""
        found: set[str] = set()
        if isinstance(value, list):
            for item in value:
                found |= self.names_beside(item)
        elif isinstance(value, dict):
            if self.old in value.values():
                found |= {v for k, v in value.items()
                          if k in self.name_keys and isinstance(v, str) and v != self.old}
            for item in value.values():
                found |= self.names_beside(item)
        return found

    def words(self, text: str) -> str:
        for name in sorted(self.names, key=len, reverse=True):
            text = re.sub(_WORD.format(re.escape(name)), self.name, text, flags=re.IGNORECASE)
        return text

    def row(self, table: Table, row: dict[str, Any]) -> dict[str, Any]:
        """The columns of ``row`` that change, with their new values."""
        beside = any(_is_text(c) and row[c.name] == self.old for c in table.columns)
        changes: dict[str, Any] = {}
        for column in table.columns:
            value = row[column.name]
            if _is_json(column):
                new = self.json(value)
            elif not _is_text(column) or not isinstance(value, str):
                continue
            elif value == self.old:
                new = self.new
            elif column.name in self.name_columns and (beside or value in self.names):
                new = self.name
            elif beside and column.name in self.text_columns:
                new = self.words(value)
            else:
                continue
            if new != value:
                changes[column.name] = new
        return changes


def names_beside(metadata: MetaData, found: dict[str, list[dict[str, Any]]],
                 replacement: Replacement) -> set[str]:
    """The names beside the old value in the rows found: under ``name_keys`` in the JSON
    objects holding it, and in the ``name_columns`` of rows one of whose columns holds it
    (the other names it went by, to pass as ``aliases``)."""
    out: set[str] = set()
    for name, rows in found.items():
        table = metadata.tables[name]
        for row in rows:
            beside = any(_is_text(c) and row[c.name] == replacement.old for c in table.columns)
            for column in table.columns:
                value = row[column.name]
                if _is_json(column):
                    out |= replacement.names_beside(value)
                elif beside and column.name in replacement.name_columns \
                        and isinstance(value, str) and value != replacement.old:
                    out.add(value)
    return out - {replacement.name}


def _key(table: Table, row: dict[str, Any]) -> Any:
    """The condition that finds ``row`` again: its primary key, else its plain columns."""
    columns = list(table.primary_key.columns) or [c for c in table.columns if not _is_json(c)]
    return and_(*[c.is_(None) if row[c.name] is None else c == row[c.name] for c in columns])


def rewrite(conn: Connection, metadata: MetaData, found: dict[str, list[dict[str, Any]]],
            replacement: Replacement) -> int:
    """Make ``replacement`` in the rows found (read again by their key: a row gone since is
    left alone); the number of rows changed."""
    changed = 0
    for name, rows in found.items():
        table = metadata.tables[name]
        for old in rows:
            current = conn.execute(select(table).where(_key(table, old))).first()
            if current is None:
                continue
            values = dict(current._mapping)
            changes = replacement.row(table, values)
            if changes:
                conn.execute(table.update().where(_key(table, values)).values(**changes))
                changed += 1
    return changed


def scrub(conn: Connection, metadata: MetaData, replacement: Replacement, *,
          skip: Collection[str] = ()) -> int:
    """Find and rewrite in one go (:func:`rows_naming`, then :func:`rewrite`)."""
    found = rows_naming(conn, metadata, [replacement.old, *replacement.names], skip=skip)
    return rewrite(conn, metadata, found, replacement)
