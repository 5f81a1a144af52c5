"""The ladder's plot: each bot's Elo rating with its 95 % interval, as a PNG.

matplotlib is an optional dependency (``pip install 'burraco[plot]'``): the
arena runs without it and says how to get the plot.
"""

from __future__ import annotations

from collections.abc import Sequence


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def plot_ladder(rows: Sequence[tuple[str, float, float, float]], path: str, *,
                title: str) -> None:
    """Write a PNG of ``(bot, elo, low, high)`` rows, the strongest at the top."""
    try:
        import matplotlib  # optional (burraco[plot]): loaded only to draw a ladder

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # likewise, after choosing the file backend
    except ImportError:
        raise PlotUnavailable(
            "the ladder plot needs matplotlib: pip install 'burraco[plot]'") from None
    ordered = sorted(rows, key=lambda r: r[1])
    names = [r[0] for r in ordered]
    elo = [r[1] for r in ordered]
    low = [max(0.0, r[1] - r[2]) for r in ordered]
    high = [max(0.0, r[3] - r[1]) for r in ordered]
    figure, axes = plt.subplots(figsize=(7.5, 1.2 + 0.55 * len(rows)), dpi=120)
    positions = list(range(len(rows)))
    axes.errorbar(elo, positions, xerr=[low, high], fmt="o", color="#1f5f8b",
                  ecolor="#7aa7c7", elinewidth=3, capsize=5, markersize=7)
    for y, (value, top) in enumerate(zip(elo, [r[3] for r in ordered], strict=True)):
        axes.annotate(f"{value:+.0f}", (top, y), xytext=(6, 0), textcoords="offset points",
                      va="center", fontsize=9)
    axes.set_yticks(positions, names)
    axes.set_xlabel("Elo (95 % bootstrap interval)")
    axes.set_title(title, fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    axes.margins(x=0.15, y=0.25)
    figure.tight_layout()
    figure.savefig(path, format="png")
    plt.close(figure)
