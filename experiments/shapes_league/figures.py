"""The figures of ``shapes_league``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.shapes_league.protocol import Params
from mtc_cli.core.datasets import shapes


def plot(exp, rows, summary, p: Params, outdir) -> list:
    return [plot_league(pd.read_csv(Path(outdir) / "shapes_league.csv"),
                        Path(outdir) / "shapes_league.png")]


def plot_league(table: pd.DataFrame, path: Path) -> Path:
    """A heat map of the recovered share: algorithms (``auto`` last) × each shape, all shapes
    and Milligan & Cooper's designs."""
    from mtc_cli.show import plotting

    groups = [c for c in table.columns if c in shapes.SHAPES]
    cols = [*groups, "shapes_recovered", "milligan_cooper_recovered"]
    names = [*groups, "all shapes", "Milligan–Cooper"]
    values = table[cols].to_numpy(dtype=float)
    fig, axes = plotting.figure(1, 1, width=1.0 + 0.75 * len(cols),
                                height=1.4 + 0.38 * len(table))
    ax = axes[0, 0]
    im = ax.imshow(values, aspect="auto", vmin=0, vmax=1, cmap="viridis")
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=7,
                    color="white" if v < 0.6 else "black")
    ax.set_yticks(range(len(table)))
    ax.set_yticklabels(table["model"], fontsize=8)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax.grid(False)
    fig.colorbar(im, ax=ax, fraction=0.04, label="share of data sets with k̂ = k")
    ax.set_title("mtc select per algorithm and --model auto: recovery of the known k",
                 fontsize=9)
    return plotting.save(fig, path)
