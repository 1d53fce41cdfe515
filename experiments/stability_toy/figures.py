"""The figures of ``stability_toy``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from experiments import _lange2002 as lange2002
from experiments import _lange2002_figures as lange2002_figures
from experiments import _lange2002_tables as lange2002_tables
from experiments.stability_toy.protocol import SWEEP, Params
from mtc_cli.show import plotting


def plot(exp, rows, summary, p: Params, outdir) -> list:
    outdir = Path(outdir)
    main = ~rows["dataset"].str.startswith(SWEEP)  # the sweep has a figure of its own
    curve = lange2002_tables.curves(rows[main], list(exp.condition))
    summary = summary[~summary["dataset"].str.startswith(SWEEP)]
    title = (f"Lange et al. 2002 Fig. 1: toy data, {rows['rep'].nunique()} runs of "
             f"r = {p.criteria.n_resamples} splits")
    paths = [lange2002_figures.plot_curves(curve, summary, list(exp.condition), title,
                                     outdir / "stability_toy.png",
                                     p.criteria.ps_threshold)]
    points = pd.read_csv(outdir / "points.csv")
    names = list(points["dataset"].unique())
    fig, axes = plotting.figure(1, len(names), width=3.6, height=3.4)
    for ax, name in zip(axes[0], names, strict=True):
        pts = points[points["dataset"] == name]
        for comp, sub in pts.groupby("component"):
            ax.scatter(sub["x"], sub["y"], s=4, label=f"component {comp}")
        ax.set_aspect("equal")
        ax.set_title(f"{name} (data_seed {p.data_seed})")
        plotting.legend_below(ax, gap=20, fontsize=6, markerscale=2, ncol=3)
    paths.append(plotting.save(fig, outdir / "stability_toy_data.png"))
    if (outdir / "sweep.csv").is_file() and len(pd.read_csv(outdir / "sweep.csv")):
        paths.append(_plot_sweep(pd.read_csv(outdir / "sweep.csv"),
                                 outdir / "stability_toy_sweep.png"))
    return paths


def _plot_sweep(sweep: pd.DataFrame, path: Path) -> Path:
    """Each criterion's median choice against the small clouds' separation, the criteria
    side by side at each separation (every k on its integer tick)."""
    sweep = sweep.sort_values("separation")
    fig, axes = plotting.figure(1, 1, width=5.5, height=3.4)
    ax = axes[0, 0]
    offsets, _ = plotting.dodge(sweep["separation"], len(lange2002.CRITERIA))
    for c, off in zip(lange2002.CRITERIA, offsets, strict=True):
        (line,) = ax.step(sweep["separation"] + off, sweep[c], where="mid", lw=0.8,
                          alpha=0.5)
        ax.plot(sweep["separation"] + off, sweep[c], ls="none", marker="o", ms=4,
                color=line.get_color(), label=lange2002_figures.LABELS[c])
    ax.axhline(3, color="#999999", ls="--", lw=0.8, label="3 clouds")
    ax.set_xlabel("distance between the two small clouds (sd 0.5 each)")
    ax.set_ylabel("selected k (median over runs)")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("3 Gaussians: the small clouds moved apart", fontsize=9)
    plotting.legend_beside(ax, fontsize=7, title="at each distance,\nleft to right:",
                           title_fontsize=7)
    return plotting.save(fig, path)
