"""The figures of ``criteria_league``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from experiments.criteria_league.protocol import FAMILIES, Params


def plot(exp, rows, summary, p: Params, outdir) -> list:
    table = pd.read_csv(Path(outdir) / "league.csv")
    return [plot_league(table[table["half"] == "test"],
                        Path(outdir) / "criteria_league.png")]


def plot_league(table: pd.DataFrame, path: Path) -> Path:
    """Per model: the recovered share of every criterion on the test half (bars, best on
    top, mean |k̂ − k| beside; the votes in red) and a heat map of the share per family."""
    from mtc_cli.show import plotting

    models = list(dict.fromkeys(table["model"]))
    fams = [f for f in FAMILIES if f in table.columns]
    fig, axes = plotting.figure(len(models), 2, width=5.2, height=0.32 * table.groupby(
        "model").size().max() + 1.6, gridspec_kw={"width_ratios": [1.2, 1.0]},
        layout="constrained")
    for i, m in enumerate(models):
        t = table[table["model"] == m].iloc[::-1]
        ax = axes[i, 0]
        colours = ["#d62728" if c in ("vote", "plurality") else "#1f77b4"
                   for c in t["criterion"]]
        ax.barh(t["criterion"], t["recovered"], color=colours)
        for y, (share, err) in enumerate(zip(t["recovered"], t["mean_abs_error"],
                                             strict=True)):
            ax.text(min(share, 1.0) + 0.01, y, f"{share:.0%}  |Δk| {err:.2f}", va="center",
                    fontsize=7)
        ax.set_xlim(0, 1.35)
        ax.set_ylim(-0.5, len(t) - 0.5)  # row for row with the heat map beside
        ax.set_xlabel("share of data sets with k̂ = k")
        ax.set_title(f"{m}: {int(t['n_datasets'].max())} data sets of the test half",
                     fontsize=9)
        ax = axes[i, 1]
        best_first = t.iloc[::-1]  # the bars' order, best at the top
        im = ax.imshow(best_first[fams].to_numpy(dtype=float), aspect="auto", vmin=0, vmax=1,
                       cmap="viridis")
        ax.set_yticks(range(len(best_first)))
        ax.set_yticklabels(best_first["criterion"], fontsize=7)
        ax.set_xticks(range(len(fams)))
        ax.set_xticklabels([f.replace("_", " ") for f in fams], rotation=30, ha="right",
                           fontsize=7)
        ax.grid(False)
        fig.colorbar(im, ax=ax, fraction=0.05, label="recovered share")
    fig.suptitle("League of the criteria: recovery of the known number of groups", fontsize=10)
    return plotting.save(fig, path)
