"""The figures of ``gmm_overlap``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.gmm_overlap.protocol import CRITERIA, Params, unit
from mtc_cli.show import plotting

LABELS = {"mtc": "MTC (transfer cost)", "bic": "BIC", "aic": "AIC"}
YLABELS = {"mtc": "NLL of X² per item", "bic": "BIC on X¹", "aic": "AIC on X¹"}

#: the paper's σ where BIC and MTC leave k = 3, "of the distance between the centers"
PAPER_THRESHOLDS = {"bic": 0.60, "mtc": 0.85}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec
    from matplotlib.ticker import MaxNLocator

    grid = np.sort(rows["sigma_over_d"].unique())
    examples = sorted({float(grid[np.abs(grid - s).argmin()]) for s in p.example_sigmas})
    fig = plotting.new_figure(11, 3.0 * len(examples) + 4.4)
    gs = GridSpec(len(examples) + 1, 3, figure=fig, hspace=0.8, wspace=0.3,
                  height_ratios=[1] * len(examples) + [1.6])
    for i, s in enumerate(examples):
        sub = rows[np.isclose(rows["sigma_over_d"], s)]
        for j, c in enumerate(CRITERIA):
            ax = fig.add_subplot(gs[i, j])
            _cost_curve(ax, sub[sub["criterion"] == c], c)
            chosen = summary[np.isclose(summary["sigma_over_d"], s)
                             & (summary["criterion"] == c)]["selected_k"]
            if len(chosen):
                ax.axvline(chosen.iloc[0], color="#999999", ls=":", lw=1)
            ax.set_title(f"{LABELS[c]}, σ/{'d' if p.distance == 'centres' else 'r'} "
                         f"= {s:g}")
            ax.set_xlabel("k")
            ax.set_ylabel(YLABELS[c])
    ax = fig.add_subplot(gs[-1, :])
    # side by side at each σ (BIC, MTC, AIC): every k stays on its integer tick
    order = ("bic", "mtc", "aic")
    offsets, width = plotting.dodge(grid, len(order), share=0.8)
    name = "d" if p.distance == "centres" else "r"
    for c, off in zip(order, offsets, strict=True):
        s = summary[summary["criterion"] == c].sort_values("sigma_over_d")
        x = s["sigma_over_d"].to_numpy() + off
        ax.bar(x, s["selected_k_q75"] - s["selected_k_q25"], bottom=s["selected_k_q25"],
               width=0.9 * width, color=plotting.color(c), alpha=0.3, lw=0)
        ax.plot(x, s["selected_k"], ls="none", marker="o", ms=3.5,
                color=plotting.color(c), label=f"{LABELS[c]}: median ●, quartiles ▮")
    true_k = int(summary["true_k"].iloc[0])
    ax.axhline(true_k, color="#999999", lw=0.8, ls="--", label=f"true k = {true_k}")
    to_paper = unit(p.centres, "centres") / unit(p.centres, p.distance)
    for c, x in PAPER_THRESHOLDS.items():
        ax.axvline(x * to_paper, color=plotting.color(c), lw=0.8, ls=":", alpha=0.9,
                   label=f"paper: {c.upper()} leaves k = 3 at σ/d = {x:.2f}")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    top_k = np.nanmax([summary["selected_k_q75"].max(), true_k])
    ax.set_ylim(0.5, top_k + 0.5)
    meaning = {"d": "d: distance between two centres", "r": "r: centre to the middle"}
    ax.set_xlabel(f"σ / {name}   ({meaning[name]})")
    other = "r" if name == "d" else "d"
    scale = unit(p.centres, p.distance) / unit(p.centres, "radius" if name == "d"
                                               else "centres")
    top = ax.secondary_xaxis("top", functions=(lambda v: v * scale, lambda v: v / scale))
    top.set_xlabel(f"σ / {other}   ({meaning[other]})", fontsize=8)
    ax.set_ylabel("selected k")
    ax.text(0.0, 1.2, f"Selected number of Gaussians vs overlap (n = {p.n} per set, "
            f"{p.covariance_type} covariances, {p.reps} repetitions)",
            transform=ax.transAxes, fontsize=10)
    plotting.legend_beside(ax, fontsize=7, title="at each σ, left to right:\nBIC, MTC, "
                           "AIC (k exact)", title_fontsize=7)
    return [plotting.save(fig, outdir / "gmm_overlap.png")]


def _cost_curve(ax, sub: pd.DataFrame, criterion: str) -> None:
    """Median and quartile band over repetitions of one criterion's score vs k."""
    q = sub.groupby("k")["score"].quantile([0.25, 0.5, 0.75]).unstack()
    ax.fill_between(q.index, q[0.25], q[0.75], color=plotting.color(criterion), alpha=0.2, lw=0)
    ax.plot(q.index, q[0.5], marker="o", ms=3, color=plotting.color(criterion))
    ax.set_xticks(q.index)
