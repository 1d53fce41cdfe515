"""The figures of ``correlation_clustering``, drawn from its rows and tables (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.correlation_clustering.protocol import Params
from experiments.correlation_clustering.tables import mean_curve
from mtc_cli.show import plotting

LABELS = {"transfer_cost": "transfer cost", "training_cost": "cost on graph 1",
          "instability": "instability (permuted labels)",
          "instability_uniform": "instability (uniform labels)"}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec

    curve = mean_curve(rows)
    grid = np.sort(curve["p"].unique())
    panels = sorted({float(grid[np.abs(grid - x).argmin()]) for x in p.figure_p})
    fig = plotting.new_figure(4.6 * len(panels), 7.0)
    gs = GridSpec(2, len(panels), figure=fig, hspace=0.45, wspace=0.75)
    true_k = int(summary["true_k"].iloc[0])
    for i, noise in enumerate(panels):
        handles = _panel(fig.add_subplot(gs[0, i]), curve[np.isclose(curve["p"], noise)],
                         noise, true_k)
    ax = fig.add_subplot(gs[1, :max(len(panels) - 1, 1)])
    more = _selection_panel(ax, summary, true_k)
    fig.legend(*zip(*(handles + more), strict=True), loc="lower right", fontsize=7.5,
               bbox_to_anchor=(0.98, 0.08))
    fig.suptitle(f"Correlation clustering (MTC Fig. 5): N = {sum(p.sizes)} nodes in "
                 f"{len(p.sizes)} clusters, q = {p.q:g}, two graphs of "
                 f"{sum(p.sizes) // 2}; mean ± sd over {rows['rep'].nunique()} splits",
                 fontsize=10)
    return [plotting.save(fig, outdir / "correlation_clustering.png")]


def _panel(ax, curve: pd.DataFrame, noise: float, true_k: int) -> list:
    """One panel of Fig. 5: transfer cost (left axis) and instability (right axis) vs k;
    when the drop below true k dwarfs the rest, an inset zooms on k ≥ true k. Returns the
    (handle, label) pairs for the figure's legend."""
    tc = curve[curve["criterion"] == "transfer_cost"].sort_values("k")
    ax.fill_between(tc["k"], tc["mean"] - tc["sd"], tc["mean"] + tc["sd"],
                    color=plotting.color("transfer_cost"), alpha=0.12, lw=0)
    ax.plot(tc["k"], tc["mean"], marker="o", ms=3, color=plotting.color("transfer_cost"),
            label="transfer cost (mean ± sd over splits)")
    ax.axvline(tc.loc[tc["mean"].idxmin(), "k"], color="#999999", ls=":", lw=1)
    ax.set_xlabel("number of clusters k")
    ax.set_ylabel("transfer cost (eq. 8 on graph 2)")
    ax.set_xticks(tc["k"])
    ax.set_title(f"p = {noise:g}")
    tail = tc[tc["k"] >= true_k]
    span = tail["mean"].max() - tail["mean"].min()
    if len(tail) > 1 and 10 * span < tc["mean"].max() - tc["mean"].min():
        inset = ax.inset_axes([0.42, 0.45, 0.54, 0.4])
        low = tail["mean"].min()
        inset.plot(tail["k"], tail["mean"] - low, marker="o", ms=2.5,
                   color=plotting.color("transfer_cost"))
        inset.set_xticks(tail["k"])
        inset.tick_params(labelsize=6)
        inset.set_title(f"k ≥ {true_k}: mean − {low:.0f}", fontsize=7)
    right = ax.twinx()
    right.grid(False)
    for criterion, (style, marker) in (("instability", ("-", "s")),
                                       ("instability_uniform", ("--", "^"))):
        s = curve[curve["criterion"] == criterion].sort_values("k")
        right.plot(s["k"], s["mean"], ls=style, marker=marker, ms=2.5, color=_color(criterion),
                   label=LABELS[criterion])
    right.set_ylabel("normalised instability")
    right.set_ylim(bottom=0)
    return [(h, lab) for a in (ax, right) for h, lab in zip(*a.get_legend_handles_labels(),
                                                             strict=True)]


def _selection_panel(ax, summary: pd.DataFrame, true_k: int) -> list:
    """Selected k against p from the mean curves: the argmin (lines; slightly offset so
    that equal choices stay visible) and the one-standard-error rule (open markers), with
    the per-split quartiles of the transfer cost; returns the legend's (handle, label)
    pairs."""
    styles = {"transfer_cost": ("o", "-", 0.0), "instability": ("s", "-", 0.1),
              "instability_uniform": ("^", "--", -0.1)}
    tc = summary[summary["criterion"] == "transfer_cost"].sort_values("p")
    ax.fill_between(tc["p"], tc["selected_k_q25"], tc["selected_k_q75"],
                    color=plotting.color("transfer_cost"), alpha=0.12, lw=0,
                    label="transfer cost: per-split quartiles")
    for criterion, (marker, ls, shift) in styles.items():
        s = summary[summary["criterion"] == criterion].sort_values("p")
        ax.plot(s["p"], s["selected_k_mean_curve"] + shift, marker=marker, ls=ls, ms=4,
                color=_color(criterion), label=f"{LABELS[criterion]}: argmin")
        ax.plot(s["p"], s["selected_k_1se"] + shift, marker=marker, ls="none", ms=9,
                mfc="none", color=_color(criterion), label=f"{LABELS[criterion]}: 1-s.e. rule")
    ax.axhline(true_k, color="#999999", ls=":", lw=1, label=f"planted k = {true_k}")
    ax.set_xlabel("noise p")
    ax.set_ylabel("selected k")
    ax.set_title("selected k from the mean curves over splits")
    ax.set_yticks(range(1, int(summary["selected_k_mean_curve"].max()) + 2))
    return list(zip(*ax.get_legend_handles_labels(), strict=True))


def _color(criterion: str) -> str:
    """The uniform-label instability in a lighter shade of the instability colour."""
    return "#98df8a" if criterion == "instability_uniform" else plotting.color(criterion)
