"""The figure of ``league``, drawn from its tables (outside its code version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.league.protocol import FAMILIES, Params

#: candidates drawn: the best of each kind, and these many of the best overall
SHOWN = 14


def plot(exp, rows, summary, p: Params, outdir) -> list:
    return [plot_league(pd.read_csv(Path(outdir) / "summary.csv"),
                        Path(outdir) / "league.png")]


def plot_league(table: pd.DataFrame, path: Path) -> Path:
    """A heat map of the share recovered (leave one family out): the best candidates ×
    each family and the mean over families."""
    from mtc_cli.show import plotting

    best = table.head(SHOWN)
    kinds = table.drop_duplicates("kind")
    shown = pd.concat([best, kinds[~kinds["candidate"].isin(best["candidate"])]])
    cols = [f for f in FAMILIES if f in table.columns]
    values = shown[[*cols, "recovered_lofo"]].to_numpy(dtype=float)
    fig, axes = plotting.figure(1, 1, width=2.5 + 0.75 * (len(cols) + 1),
                                height=1.4 + 0.32 * len(shown))
    ax = axes[0, 0]
    im = ax.imshow(values, aspect="auto", vmin=0, vmax=1, cmap="viridis")
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=7,
                    color="white" if v < 0.6 else "black")
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels(shown["candidate"], fontsize=7)
    ax.set_xticks(range(len(cols) + 1))
    ax.set_xticklabels([*(c.replace("_", " ") for c in cols), "mean over families"],
                       rotation=30, ha="right", fontsize=8)
    ax.grid(False)
    fig.colorbar(im, ax=ax, fraction=0.04, label="share of data sets with k̂ = k")
    ax.set_title("League of families: the best candidates (fitted ones leave one family "
                 "out)", fontsize=9)
    return plotting.save(fig, path)
