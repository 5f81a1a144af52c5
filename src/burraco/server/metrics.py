"""The server's Prometheus metrics, one registry per process.

Every part of the server counts into these (the hub, the actors, the cluster's leases);
``GET /metrics`` serves :func:`render`.  A registry of our own, not the library's
global one, so that tests starting several apps in one process never collide.
"""

from __future__ import annotations

import os

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = [
    "COMMANDS",
    "COMMIT_SECONDS",
    "CONNECTIONS",
    "CONTENT_TYPE",
    "FORWARDED",
    "LEASE_LOST",
    "LEASE_RENEWALS",
    "REGISTRY",
    "TABLES_OWNED",
    "TAKEOVERS",
    "render",
]

REGISTRY = CollectorRegistry(auto_describe=True)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""Set (by ``serve --workers``) before a worker starts: the workers' shared folder of values."""

TABLES_OWNED = Gauge(
    "burraco_tables_owned", "Live tables this process runs (holds the lease of).",
    multiprocess_mode="livesum", registry=REGISTRY)
CONNECTIONS = Gauge(
    "burraco_connections", "Open WebSocket connections to this process.",
    multiprocess_mode="livesum", registry=REGISTRY)
COMMANDS = Counter(
    "burraco_commands", "Commands applied by the tables this process owns, by outcome.",
    ["outcome"], registry=REGISTRY)
FORWARDED = Counter(
    "burraco_commands_forwarded", "Commands this process forwarded to another owner.",
    registry=REGISTRY)
COMMIT_SECONDS = Histogram(
    "burraco_commit_seconds", "Time to commit one table version to the database.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY)
LEASE_RENEWALS = Counter(
    "burraco_lease_renewals", "Table leases renewed in Redis by this process.",
    registry=REGISTRY)
LEASE_LOST = Counter(
    "burraco_leases_lost", "Table leases this process found taken or expired on renewal.",
    registry=REGISTRY)
TAKEOVERS = Counter(
    "burraco_takeovers", "Tables this process took over after their owner's lease expired.",
    registry=REGISTRY)


def render() -> bytes:
    """The registry in the Prometheus text format.

    Under ``serve --workers`` (prometheus-client's multiprocess mode) the values of
    every worker of the supervisor, dead ones included for the counters: the gauges
    of the living only (``livesum``).
    """
    folder = os.environ.get(MULTIPROC_ENV)
    if not folder:
        return generate_latest(REGISTRY)
    from prometheus_client import multiprocess

    _forget_dead_workers(folder)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def _forget_dead_workers(folder: str) -> None:
    """Drop the live gauges of workers that died (a SIGKILL leaves their files behind)."""
    from prometheus_client import multiprocess

    for name in os.listdir(folder):
        if not name.startswith("gauge_live") or not name.endswith(".db"):
            continue
        pid = name[:-3].rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), path=folder)  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
