"""The figures of ``pac_mdl_text``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.pac_mdl_text.protocol import Params
from experiments.pac_mdl_text.tables import _fig_datasets
from mtc_cli.core.criteria import pac_mdl
from mtc_cli.show import plotting

LANGUAGE_COLORS = {"Simple": "#bbbbbb", "Init": "#1f77b4", "Cluster": "#2ca02c",
                   "Algo": "#d62728"}
ALGORITHM_COLORS = {"SPKMeans": "#1f77b4", "FSKMeans": "#17becf", "Hard-moVMF": "#2ca02c",
                    "Soft-moVMF": "#98df8a", "KMeans": "#d62728", "KLKMeans": "#ff7f0e"}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    outdir = Path(outdir)
    t = {name: pd.read_csv(outdir / f"{name}.csv") for name in
         ("fig1_runs", "fig2_best_per_k", "fig3_best_per_algorithm",
          "fig45_best_overall", "fig6_languages")}
    return [_plot_fig1(t["fig1_runs"], outdir), _plot_fig2(t["fig2_best_per_k"], outdir),
            _plot_fig3(t["fig3_best_per_algorithm"], p, outdir),
            _plot_fig45(t["fig45_best_overall"], outdir),
            _plot_fig6(t["fig6_languages"], outdir)]


def _panels(n: int, width: float = 4.0, height: float = 3.0, max_cols: int = 2):
    cols = min(n, max_cols)
    rows = (n + cols - 1) // cols
    fig, axes = plotting.figure(rows, cols, width=width, height=height)
    axes = axes.ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def _plot_fig1(df: pd.DataFrame, outdir: Path) -> Path:
    df = df[df["algorithm"].isin(["KMeans", "SPKMeans"])]
    df = df[df["k"] == (3 if (df["k"] == 3).any() else df["k"].min())]
    datasets = _fig_datasets(df) if not df.empty else []
    fig, axes = _panels(max(len(datasets), 1))
    for ax, d in zip(axes, datasets, strict=False):
        sub = df[df["dataset"] == d]
        for j, (a, g) in enumerate(sub.groupby("algorithm", sort=True)):
            ax.bar(g["init"] + 1 + (j - 0.5) * 0.4, g["simple_pct"], width=0.4,
                   color=ALGORITHM_COLORS[a], label=a)
        ax.set(xlabel="initialisation", ylabel="test-error bound (%)")
        ax.set_title(f"Fig. 1 — {d}, k = {sub['k'].iloc[0]}: single runs (Simple), 50-50",
                     fontsize=8)
        ax.legend(fontsize=7)
    return plotting.save(fig, outdir / "fig1_runs.png")


def _plot_fig2(df: pd.DataFrame, outdir: Path) -> Path:
    datasets = _fig_datasets(df)
    fig, axes = _panels(len(datasets))
    for ax, d in zip(axes, datasets, strict=False):
        for a, g in df[df["dataset"] == d].groupby("algorithm", sort=False):
            bold = a in ("KMeans", "SPKMeans")
            ax.plot(g["k"], g["init_pct"], marker="o" if bold else ".", ms=3,
                    lw=1.6 if bold else 0.8, color=ALGORITHM_COLORS[a], label=a)
        ax.set(xlabel="number of clusters k", ylabel="test-error bound (%)")
        ax.set_title(f"Fig. 2 — {d}: best of r initialisations (Init), 50-50", fontsize=8)
        ax.legend(fontsize=6)
    return plotting.save(fig, outdir / "fig2_best_per_k.png")


def _plot_fig3(df: pd.DataFrame, p: Params, outdir: Path) -> Path:
    df = df[np.isclose(df["train_frac"], p.focus_fraction)]
    datasets = [d for d in p.datasets if d in set(df["dataset"])]
    algorithms = [a for a in p.algorithms if a in set(df["algorithm"])]
    fig, axes = plotting.figure(1, 1, width=max(5.0, 0.75 * len(datasets) + 2), height=3.6)
    ax = axes[0, 0]
    width = 0.8 / len(algorithms)
    x = np.arange(len(datasets))
    for j, a in enumerate(algorithms):
        g = df[df["algorithm"] == a].set_index("dataset").reindex(datasets)
        ax.bar(x + (j - (len(algorithms) - 1) / 2) * width, g["bound_pct"], width=width,
               color=ALGORITHM_COLORS[a], label=a)
    ax.set_xticks(x, datasets, rotation=35, ha="right", fontsize=7)
    ax.set(ylabel="test-error bound (%)")
    ax.set_title("Fig. 3: best over k and initialisations (language Cluster), 50-50 split",
                 fontsize=9)
    ax.legend(fontsize=6, ncol=3)
    return plotting.save(fig, outdir / "fig3_best_per_algorithm.png")


def _plot_fig45(df: pd.DataFrame, outdir: Path) -> Path:
    groups = [("Fig. 4", ["classic2", "classic3", "cmu-different-100", "cmu-different-1000"]),
              ("Fig. 5", ["cmu-same-100", "cmu-same-1000", "cmu-newsgroup-clean-100",
                          "cmu-newsgroup-clean-1000"])]
    present = set(df["dataset"])
    rest = [d for d in dict.fromkeys(df["dataset"]) if not any(d in g for _, g in groups)]
    groups = [(t, [d for d in g if d in present]) for t, g in groups] + [("others", rest)]
    groups = [(t, g) for t, g in groups if g]
    fig, axes = _panels(len(groups), max_cols=3)
    cycle = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"]
    for ax, (title, datasets) in zip(axes, groups, strict=False):
        for i, d in enumerate(datasets):
            g = df[df["dataset"] == d].sort_values("train_frac")
            col = cycle[i % len(cycle)]
            ax.plot(g["train_frac"], g["bound_pct"], marker="o", ms=3, color=col, label=d)
            ax.plot(g["train_frac"], g["constant_pct"], ls="--", lw=0.8, color=col)
        ax.set(title=f"{title}: best of all (Algo); dashed: constant classifier",
               xlabel="train fraction", ylabel="test-error bound (%)", ylim=(0, 100))
        ax.title.set_fontsize(7)
        ax.legend(fontsize=6)
    return plotting.save(fig, outdir / "fig45_best_overall.png")


def _plot_fig6(df: pd.DataFrame, outdir: Path) -> Path:
    datasets = list(df["dataset"])
    fig, axes = plotting.figure(1, 1, width=max(5.0, 0.75 * len(datasets) + 2), height=3.6)
    ax = axes[0, 0]
    x = np.arange(len(datasets))
    langs = list(pac_mdl.LANGUAGES)
    width = 0.8 / len(langs)
    for j, lang in enumerate(langs):
        ax.bar(x + (j - 1.5) * width, df[lang], width=width, color=LANGUAGE_COLORS[lang],
               label=lang)
    ax.set_xticks(x, datasets, rotation=35, ha="right", fontsize=7)
    ax.set(ylabel="average test-error bound (%)")
    ax.set_title("Fig. 6: average bound per description language, 50-50 split", fontsize=9)
    ax.legend(fontsize=7)
    return plotting.save(fig, outdir / "fig6_languages.png")
