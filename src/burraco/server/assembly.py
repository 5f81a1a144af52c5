"""The table server put together: a hub, and with ``--redis`` its part of a cluster.

The cluster's node stands above the hub and the gateway (it forwards connections through
them), so the hub never builds it: this module does, and plugs it in.
"""

from __future__ import annotations

from burraco.infra.config import ServerConfig
from burraco.server.cluster.node import Cluster
from burraco.server.hub import Hub


def new_hub(settings: ServerConfig) -> Hub:
    """A hub for ``settings``; with a Redis URL, one process of a cluster."""
    hub = Hub(settings)
    if settings.redis_url:
        hub.cluster = Cluster(hub)
    return hub
