"""Shared matplotlib helpers: Agg backend, one style, atomic PNG output."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

#: one colour per criterion name, so a criterion looks the same in every figure
COLORS = {
    "mtc": "#000000", "transfer_cost": "#000000", "bic": "#1f77b4", "aic": "#d62728",
    "oracle": "#e377c2", "instability": "#2ca02c", "gap": "#9467bd", "clest": "#8c564b",
    "prediction_strength": "#ff7f0e", "bicross": "#17becf",
}

STYLE = {
    "figure.dpi": 110, "savefig.dpi": 130, "font.size": 9, "axes.titlesize": 10,
    "axes.labelsize": 9, "legend.fontsize": 8, "axes.grid": True, "grid.alpha": 0.3,
    "axes.spines.top": False, "axes.spines.right": False,
}


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 4.0, height: float = 3.2, **kw):
    """A figure with ``nrows × ncols`` axes of ``width × height`` inches each."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                 squeeze=False, **kw)
    return fig, axes


def color(name: str, default: str = "#7f7f7f") -> str:
    return COLORS.get(name, default)


def cmap_cycle(n: int) -> list:
    """``n`` distinct colours (tab10, then tab20 for more than ten)."""
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def save(fig, path: Path) -> Path:
    """Save ``fig`` as PNG atomically and close it."""
    from mtc_cli.results import new_temp_file

    path = Path(path)
    fd, tmp = new_temp_file(path, suffix=".png")
    os.close(fd)
    try:
        with plt.rc_context(STYLE):
            fig.savefig(tmp, bbox_inches="tight", metadata={"Software": None})
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
        plt.close(fig)
    return path


def new_figure(width: float, height: float):
    """An empty figure in the shared style, for layouts built with GridSpec."""
    with plt.rc_context(STYLE):
        return plt.figure(figsize=(width, height))
