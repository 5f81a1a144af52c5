"""The terminal client's tests: Textual's pilot drives the real app (offline against bots,
online against a real ``burraco serve`` process); the server harness of ``tests/server``
is importable from here on."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
