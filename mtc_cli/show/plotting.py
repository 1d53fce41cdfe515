"""Shared matplotlib helpers: Agg backend, one style, atomic PNG output.

Importing this module imports no matplotlib: pyplot is loaded (on the Agg backend) by the
first helper that draws, so a worker that only computes, or a command that only reads an
experiment's ``Params``, never pays for it. Experiments import ``matplotlib.*`` inside their
plotting code for the same reason."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np

#: one colour per criterion name, so a criterion looks the same in every figure
COLORS = {
    "mtc": "#000000", "transfer_cost": "#000000", "bic": "#1f77b4", "aic": "#d62728",
    "oracle": "#e377c2", "instability": "#2ca02c", "gap": "#9467bd", "clest": "#8c564b",
    "prediction_strength": "#ff7f0e", "bicross": "#17becf",
}

#: Okabe & Ito's colour-blind-safe palette (black left out)
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
             "#999999")

STYLE = {
    "figure.dpi": 110, "savefig.dpi": 130, "font.size": 9, "axes.titlesize": 10,
    "axes.labelsize": 9, "legend.fontsize": 8, "axes.grid": True, "grid.alpha": 0.3,
    "axes.spines.top": False, "axes.spines.right": False,
}


@functools.cache
def pyplot():
    """``matplotlib.pyplot``, imported on first use with the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 4.0, height: float = 3.2, **kw):
    """A figure with ``nrows × ncols`` axes of ``width × height`` inches each."""
    plt = pyplot()
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                 squeeze=False, **kw)
    return fig, axes


def color(name: str, default: str = "#7f7f7f") -> str:
    return COLORS.get(name, default)


def save(fig, path: Path) -> Path:
    """Save ``fig`` as PNG atomically and close it."""
    from mtc_cli.core.files import new_temp_file

    plt = pyplot()
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


def new_figure(width: float, height: float, **kw):
    """An empty figure in the shared style, for layouts built with GridSpec (``kw``: as
    ``pyplot.figure``, e.g. ``layout="constrained"``)."""
    plt = pyplot()
    with plt.rc_context(STYLE):
        return plt.figure(figsize=(width, height), **kw)


def legend_below(ax, *, gap: float = 36.0, **kw):
    """A legend centred under ``ax``, ``gap`` points below its bottom edge (clear of the
    tick labels and the x label), so that it never covers the data."""
    from matplotlib.transforms import offset_copy

    kw.setdefault("ncol", 2)
    where = offset_copy(ax.transAxes, fig=ax.figure, y=-gap, units="points")
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=where,
                     **kw)


def legend_beside(ax, *, gap: float = 6.0, **kw):
    """A legend to the right of ``ax``, ``gap`` points beyond its right edge (more for a
    twin axis with its own labels), so that it never covers the data."""
    from matplotlib.transforms import offset_copy

    where = offset_copy(ax.transAxes, fig=ax.figure, x=gap, units="points")
    return ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), bbox_transform=where,
                     borderaxespad=0, **kw)


def dodge(x, n: int, share: float = 0.6) -> tuple[np.ndarray, float]:
    """Side-by-side slots for ``n`` series drawn at the same grid points ``x``: the
    horizontal offset of each series and the width of a slot, together ``share`` of the
    smallest grid step (at most an eighth of the grid's range, so that a coarse grid keeps
    each group near its grid point). Integer values (a selected k) stay on their ticks; the
    series are told apart by their position, never by nudging their values."""
    grid = np.unique(np.asarray(x, dtype=float))
    step = min(np.diff(grid).min(), (grid[-1] - grid[0]) / 8) if len(grid) > 1 else 1.0
    width = share * float(step) / n
    return (np.arange(n) - (n - 1) / 2) * width, width
