"""The figures of ``boolean_denoising``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments._access_control import HP
from experiments.boolean_denoising.protocol import Params
from experiments.boolean_denoising.tables import _info, choices, method_labels
from mtc_cli.show import plotting

ORACLE = "#d62728"


def data_note(p: Params) -> str:
    """The figure's source: the paper's (MTC Fig. 3), or the user's files among ``real``
    (any outside the shipped HP Labs folder), by name."""
    own = [Path(f).name for f in p.real if Path(f).resolve().parent != HP.resolve()]
    return f"on {', '.join(own)}" if own else "(MTC Fig. 3)"


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec
    from matplotlib.lines import Line2D

    picks = choices(rows, p)
    names = list(dict.fromkeys(summary["dataset"]))
    labels = method_labels(p)
    fig = plotting.new_figure(max(2.7 * len(names), 8.0), 7.0)
    gs = GridSpec(2, len(names), figure=fig, hspace=0.42, wspace=0.45)
    curves = (rows[rows["criterion"] == "hamming"].groupby(["dataset", "k"])["score"]
              .mean())
    for j, name in enumerate(names):
        summ = summary[summary["dataset"] == name].set_index("criterion")
        info = _info(rows, name)
        ax = fig.add_subplot(gs[0, j])
        _rank_panel(ax, picks[picks["dataset"] == name], summ, labels)
        ax.set_title(f"{name} ({int(info['n_users'])}×{int(info['n_perms'])})")
        if j == 0:
            ax.set_ylabel("selected rank k")
        ax2 = fig.add_subplot(gs[1, j])
        _error_panel(ax2, curves.loc[name], summ, labels, int(info["ones"]))
        if j == 0:
            ax2.set_ylabel("Hamming error to X* (% of |X*|₁)")
    handles = [Line2D([], [], color=ORACLE, marker="s", ms=9, ls="none",
                      label="optimal rank (oracle; median over noise draws)"),
               Line2D([], [], color="black", marker="D", ms=5, ls="none",
                      label="median rank of a method (MTC box: all splits)"),
               Line2D([], [], color="#777777", marker="o", ms=3, ls="none",
                      label="one noise draw"),
               Line2D([], [], color="#555555", lw=1.2,
                      label="lower row: Hamming error of X̃_k to X*; legend: "
                            "k and mean error ratio to the oracle")]
    fig.legend(handles=handles, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 0.99),
               fontsize=8)
    nz = p.noise
    unit = "of the ones of X*" if nz.relative_to == "ones" else "per entry"
    fig.suptitle(f"Denoising access-control matrices with rank-k SVD {data_note(p)}: noise "
                 f"+{nz.additive:.0%} / −{nz.subtractive:.0%} {unit}, "
                 f"{int(summary['n_reps'].max())} noise draws, {p.splits} MTC splits, "
                 f"{p.permutations} OP-CV permutations", fontsize=10, y=1.04)
    return [plotting.save(fig, Path(outdir) / "boolean_denoising.png")]


def _color(crit: str) -> str:
    """One colour per method: MTC black, OP-CV blues, Molloy's rules purple and orange."""
    if crit == "mtc":
        return plotting.color("mtc")
    if crit.startswith("op_cv"):
        return "#17becf" if crit == "op_cv_50" else "#1f77b4"
    return {"coverage": "#9467bd", "increment": "#ff7f0e"}.get(crit, "#7f7f7f")


MARKERS = {"mtc": "D", "coverage": "v", "increment": "^"}


def _rank_panel(ax, picks: pd.DataFrame, summ: pd.DataFrame, labels: dict) -> None:
    """Fig. 3 of the paper: the rank each method selects against the optimal rank (red
    square); MTC as a box over all its splits, the others as one dot per noise draw."""
    methods = list(labels)
    mtc = picks.loc[picks["criterion"] == "mtc", "selected_k"]
    ax.boxplot([mtc.to_numpy()], positions=[0], widths=0.5, showfliers=True,
               medianprops={"color": "black"}, flierprops={"ms": 2})
    for i, crit in enumerate(methods):
        ks = picks.loc[(picks["criterion"] == crit) & (picks["split"] < 0), "selected_k"]
        if len(ks):
            ax.plot(i + np.linspace(-0.15, 0.15, len(ks)), ks, "o", ms=2.5, color="#777777",
                    alpha=0.7)
        ax.plot(i, summ.loc[crit, "selected_k"], MARKERS.get(crit, "o"), ms=6,
                color=_color(crit), zorder=3)
    ok = summ.loc["oracle", "selected_k"]
    ax.axhline(ok, color=ORACLE, lw=0.8, ls=":")
    ax.plot(len(methods) - 0.4, ok, "s", ms=10, color=ORACLE, clip_on=False, zorder=4)
    ax.set_xticks(np.arange(len(methods)))
    ax.set_xticklabels([labels[m] for m in methods], rotation=50, ha="right", fontsize=7.5)
    ax.set_xlim(-0.6, len(methods) - 0.2)
    ax.set_ylim(bottom=0)


def _error_panel(ax, curve: pd.Series, summ: pd.DataFrame, labels: dict, ones: int) -> None:
    """Hamming error of X̃_k to X* vs k (mean over noise draws, % of the ones of X*), with
    each method's median rank marked on it and its mean error ratio in the legend."""
    ks = curve.index.to_numpy()
    err = 100.0 * curve.to_numpy() / ones
    ax.plot(ks, err, color="#555555", lw=1.2)
    ok = summ.loc["oracle", "selected_k"]
    ax.plot(np.interp(ok, ks, ks), np.interp(ok, ks, err), "s", ms=9, color=ORACLE,
            label=f"oracle k={ok:g}", zorder=2)
    for crit, lab in labels.items():
        k = summ.loc[crit, "selected_k"]
        ax.plot(k, np.interp(k, ks, err), MARKERS.get(crit, "o"), ms=5, color=_color(crit),
                zorder=3, label=f"{lab} k={k:g} ×{summ.loc[crit, 'ratio']:.2f}")
    ax.legend(fontsize=6, loc="upper center", handletextpad=0.3, borderpad=0.3,
              labelspacing=0.25, framealpha=0.85)
    ax.set_xlabel("rank k")
    ax.set_xscale("log")
    ax.set_ylim(0, max(err.max(), 1e-9) * 1.6)
