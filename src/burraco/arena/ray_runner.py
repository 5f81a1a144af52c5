"""Play arena matches and tournament tables on a Ray cluster (``--ray [ADDRESS]``).

The work units are the same picklable specs the process pool plays
(:class:`~burraco.arena.duplicate.MatchSpec`, the tournament's ``TableJob``),
each a pure function of its spec and seed, so a Ray cluster gives exactly the
figures ``--jobs`` gives for one seed.  Without an address a local cluster is
started for the run (and stopped after); with one (``auto``, ``HOST:6379``,
``ray://HOST:10001``) the run joins that cluster, whose nodes must all have
``burraco`` installed at the same version.  Ray is the optional extra
``cluster`` (``pip install 'burraco[cluster]'``); this module imports it only
when a run asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from burraco.arena.duplicate import MatchResult, MatchSpec, play_match

LOCAL = "local"
"""The ``--ray`` value without an address: start a local cluster for the run."""
INSTALL_HINT = "--ray needs Ray: pip install 'burraco[cluster]'"

Spec = TypeVar("Spec")
Result = TypeVar("Result")


class RayUnavailable(RuntimeError):
    """Ray is not installed (or the cluster cannot be reached): the message says what to do."""


def _ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]  # Ray loads only with --ray
    except ImportError:
        raise RayUnavailable(INSTALL_HINT) from None
    return ray


def connect(address: str = LOCAL, *, num_cpus: int | None = None) -> bool:
    """Join the cluster at ``address`` (``local``: start one, ``num_cpus`` cores, default
    all) unless this process already has; True if this call did.  Raises
    :class:`RayUnavailable` with the install command, or with why the cluster is out of
    reach.  The cluster is left when the process ends (or by :func:`disconnect`)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "configure_logging": False}
    try:
        if address == LOCAL:
            ray.init(num_cpus=num_cpus, **options)
        else:
            ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RayUnavailable(f"cannot join the Ray cluster at {address}: {exc}") from None
    return True


def disconnect() -> None:
    """Leave the cluster (a local one stops)."""
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()


def ray_map(
    work: Callable[[Spec], Result], address: str = LOCAL, *, num_cpus: int | None = None,
) -> tuple[Callable[[list[Spec]], Iterator[Result]], Callable[[], None]]:
    """``(run, close)`` like the process pool's: ``run(specs)`` yields results as the
    cluster finishes them (any order); ``close()`` leaves the cluster if this call joined
    it (a process that called :func:`connect` first stays joined)."""
    ray = _ray()
    started = connect(address, num_cpus=num_cpus)
    remote = ray.remote(num_cpus=1)(work)

    def run(specs: list[Spec]) -> Iterator[Result]:
        pending = [remote.remote(spec) for spec in specs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)

    def close() -> None:
        if started:
            disconnect()

    return run, close


def run_matches_on_ray(
    specs: list[MatchSpec], address: str = LOCAL, *,
    progress: Callable[[], None] | None = None, num_cpus: int | None = None,
) -> list[MatchResult]:
    """``run_matches`` on a Ray cluster: the same results, in match order."""
    run, close = ray_map(play_match, address, num_cpus=num_cpus)
    try:
        results = []
        for result in run(specs):
            results.append(result)
            if progress is not None:
                progress()
    finally:
        close()
    results.sort(key=lambda r: r.index)
    return results
