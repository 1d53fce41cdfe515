"""The figures of ``kmeans_mappings``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.kmeans_mappings.protocol import CRITERIA, Params
from mtc_cli.show import plotting

LABELS = {"cost": "cost on X¹", "nn": "NN / structure (eq. 11)",
          "nn_object": "NN to objects (eq. 11, exact)", "generative": "generative (eq. 5)",
          "soft": "soft (eq. 14)", "soft_object": "soft to objects (eq. 13)"}
PANELS = (("cost",), ("nn", "nn_object"), ("generative",), ("soft", "soft_object"))
PANEL_TITLES = ("cost", "nearest-neighbour mapping", "generative mapping", "soft mapping")
COLORS = {"cost": "#7f7f7f", "nn": "#1f77b4", "nn_object": "#1f77b4", "generative": "#2ca02c",
          "soft": "#000000", "soft_object": "#000000"}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec

    curves = pd.read_csv(outdir / "curves.csv")
    scatter = pd.read_csv(outdir / "scatter.csv")
    sens = pd.read_csv(outdir / "sensitivity.csv")
    names = [s.name for s in p.settings]
    fig = plotting.new_figure(17, 2.9 * len(names) + 3.0)
    gs = GridSpec(len(names) + 1, 5, figure=fig, hspace=0.5, wspace=0.32,
                  height_ratios=[1] * len(names) + [1.0])
    for i, name in enumerate(names):
        cur = curves[curves["setting"] == name]
        chosen = summary[summary["setting"] == name].set_index("criterion")["selected_k"]
        for j, (panel, title) in enumerate(zip(PANELS, PANEL_TITLES, strict=True)):
            ax = fig.add_subplot(gs[i, j])
            for c in panel:
                _curve(ax, cur[cur["criterion"] == c], c, dashed=c.endswith("_object"))
            if panel[0] in chosen:
                ax.axvline(chosen[panel[0]], color="#999999", ls=":", lw=1)
            if i == 0:
                ax.set_title(title)
            ax.set_xlabel("k")
            if j == 0:
                ax.set_ylabel(f"{name}\ncost per object")
            if len(panel) > 1 and i == 0:
                ax.legend(loc="upper right", fontsize=7)
        _scatter_panel(fig.add_subplot(gs[i, 4]), scatter[scatter["setting"] == name], name)
    ax = fig.add_subplot(gs[-1, :2])
    for name in names:
        s = sens[sens["setting"] == name]
        ax.errorbar(s["beta_factor"], s["selected_k"],
                    yerr=[s["selected_k"] - s["selected_k_q25"],
                          s["selected_k_q75"] - s["selected_k"]],
                    marker="o", ms=4, capsize=3, label=name)
    ax.axvline(p.beta_factor, color="#999999", ls=":", lw=1)
    ax.set_xscale("log")
    factors = sorted(sens["beta_factor"].unique())
    ax.set_xticks(factors, [f"{f:g}" for f in factors])
    ax.minorticks_off()
    ax.set_xlabel("factor in β = factor / R(s¹, X¹, 1)   (dotted: the paper's 0.75)")
    ax.set_ylabel("k selected by soft MTC")
    ax.set_title("sensitivity of the soft mapping to β (median, quartiles)")
    ax.legend()
    ax = fig.add_subplot(gs[-1, 2:4])
    _selection_bars(ax, summary, names)
    return [plotting.save(fig, outdir / "kmeans_mappings.png")]


def _curve(ax, sub: pd.DataFrame, criterion: str, *, dashed: bool) -> None:
    sub = sub.sort_values("k")
    col = COLORS.get(criterion, "#7f7f7f")
    ls = "--" if dashed else "-"
    ax.plot(sub["k"], sub["median"], ls=ls, marker="o", ms=3, color=col, label=LABELS[criterion])
    ax.plot(sub["k"], sub["q25"], ls=":", lw=0.8, color=col)
    ax.plot(sub["k"], sub["q75"], ls=":", lw=0.8, color=col)


def _scatter_panel(ax, sub: pd.DataFrame, name: str) -> None:
    pts, cen = sub[sub["kind"] == "point"], sub[sub["kind"] == "centroid"]
    ax.scatter(pts["x"], pts["y"], c=pts["cluster"], cmap="tab10", vmin=0, vmax=9, s=8)
    ax.scatter(cen["x"], cen["y"], marker="x", s=60, c="k")
    ax.set_title(f"{name}: soft-MTC choice, k = {int(sub['k'].iloc[0])}")
    ax.set_aspect("equal", adjustable="datalim")


def _selection_bars(ax, summary: pd.DataFrame, names: list) -> None:
    crits = [c for c in CRITERIA if c in set(summary["criterion"])]
    width = 0.8 / len(crits)
    for j, c in enumerate(crits):
        s = summary[summary["criterion"] == c].set_index("setting").reindex(names)
        x = np.arange(len(names)) + (j - (len(crits) - 1) / 2) * width
        ax.bar(x, s["selected_k"], width, color=COLORS[c], alpha=0.5 if "_object" in c else 0.9,
               hatch="//" if "_object" in c else None, label=LABELS[c])
    true_k = summary.drop_duplicates("setting").set_index("setting").reindex(names)["true_k"]
    ax.scatter(np.arange(len(names)), true_k, marker="_", s=900, c="r", zorder=3,
               label="true k")
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_ylabel("median selected k")
    ax.set_title("selected k per mapping")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
