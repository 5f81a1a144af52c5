"""What the server benchmarks share: the table size, one HTTP call, percentiles."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

SEATS = 4


def http(base: str, method: str, path: str, body: dict[str, Any] | None = None,
          token: str | None = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(json.loads(response.read()))


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def rounded(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None
