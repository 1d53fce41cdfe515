"""The figures of ``hansen_kmeans``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

import pandas as pd

from experiments.hansen_kmeans.protocol import CRITERIA, Params
from mtc_cli.show import plotting
from mtc_cli.show.curves import errorbar_panel, selection_histogram

LABELS = {"train": "training error E", "test": "test error (empirical)",
          "analytic": "E + dim/N (eq. 10)"}
STYLES = {"train": ("#7f7f7f", ":"), "test": ("#d62728", "-"), "analytic": ("#000000", "-")}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    curves = pd.read_csv(outdir / "curves.csv")
    example = pd.read_csv(outdir / "example.csv")
    fig, axes = plotting.figure(1, 3, width=4.6, height=4.2)
    ax = axes[0, 0]
    pts, cen = example[example["kind"] == "point"], example[example["kind"] == "centre"]
    ax.scatter(pts["x"], pts["y"], s=12, c="#7f7f7f")
    for _, c in cen.iterrows():
        ax.text(c["x"], c["y"], str(int(c["cluster"]) + 1), color="#d62728", fontsize=12,
                fontweight="bold", ha="center", va="center")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(f"Fig. 2: N = {len(pts)} training points, K = {len(cen)} centres")
    errorbar_panel(axes[0, 1], curves, ["train", "test", "analytic"],
                   f"Fig. 3: N = {p.n_train}, test {p.n_test}, the paper's "
                   f"{min(p.paper_reps, p.reps)} replications",
                   styles=STYLES, labels=LABELS)
    axes[0, 1].axvline(len(p.centres), color="#999999", lw=0.8, ls="--")
    selection_histogram(axes[0, 2], rows, list(CRITERIA), styles=STYLES,
                        labels=LABELS)
    axes[0, 2].set_title(f"per-replication choice (argmin), all {p.reps} replications")
    axes[0, 2].legend(fontsize=7)
    return [plotting.save(fig, outdir / "hansen_kmeans.png")]
