"""The figures of ``hansen_pca``, drawn from its rows and tables (outside its code version)."""

from __future__ import annotations

import pandas as pd

from experiments.hansen_pca.protocol import CRITERIA, Params
from mtc_cli.show import plotting
from mtc_cli.show.curves import errorbar_panel, selection_histogram

LABELS = {"train": "training error E", "test": "test error (empirical)",
          "analytic_paper": "E + dim/N, paper's dim = L+1+K(K+1)/2",
          "analytic_ppca": "E + dim/N, PPCA dim = L+1+KL−K(K−1)/2"}
STYLES = {"train": ("#7f7f7f", ":"), "test": ("#d62728", "-"),
          "analytic_paper": ("#1f77b4", "--"), "analytic_ppca": ("#000000", "-")}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    curves = pd.read_csv(outdir / "curves.csv")
    fig, axes = plotting.figure(1, 2, width=6.0, height=4.4)
    errorbar_panel(axes[0, 0], curves, ["train", "test", "analytic_paper", "analytic_ppca"],
                   f"PCA: L = {p.L}, K₀ = {p.k0}, N = {p.n_train}, test {p.n_test}, "
                   f"{p.reps} replications", styles=STYLES, labels=LABELS)
    axes[0, 0].axvline(p.k0, color="#999999", lw=0.8, ls="--")
    selection_histogram(axes[0, 1], rows, list(CRITERIA), styles=STYLES,
                        labels=LABELS)
    axes[0, 1].legend(fontsize=7)
    return [plotting.save(fig, outdir / "hansen_pca.png")]
