"""The declarative base every table of the main schema shares (one metadata, one migration
history: the table server's rows, the accounts', the daily duplicate's)."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlalchemy import JSON
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}
