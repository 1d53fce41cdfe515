"""The figures of ``wasc_gmm_annealing``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

import numpy as np

from experiments.wasc_gmm_annealing.protocol import Params
from mtc_cli.show import plotting

LABELS = {"mutual_information": "I_β at β = 1/T (10 centroids)",
          "transfer_cost": "expected transfer cost (eq. 15), β = 1/T",
          "capacity": "capacity max_β I_β (K̂ merged centroids)", "bic": "BIC"}
COLORS = {"mutual_information": "#1f77b4", "transfer_cost": "#000000",
          "capacity": "#2ca02c", "bic": "#d62728"}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    rep0 = rows[rows["rep"] == rows["rep"].min()]
    fig, axes = plotting.figure(1, 3, width=4.6, height=3.6, gridspec_kw={"wspace": 0.55})
    ax = axes[0, 0]
    proj = rep0[rep0["criterion"] == "centroid_projection"]
    for _, c in proj.groupby("centroid"):
        c = c.sort_values("T")
        ax.plot(c["score"], c["T"], color="#1f77b4", lw=0.9)
    ax.set_yscale("log")
    ax.set_xlabel("centroid position, 1-D MDS projection (relative to centre of mass)")
    ax.set_ylabel("stopping temperature T")
    ax.set_title(f"(a) centroid hierarchy (rep 0, {p.n_centroids} centroids)")

    ax = axes[0, 1]
    curves = {c: rep0[rep0["criterion"] == c].sort_values("T")
              for c in ("mutual_information", "capacity", "transfer_cost")}
    for c in ("mutual_information", "capacity"):
        ax.plot(curves[c]["T"], curves[c]["score"], color=COLORS[c], label=LABELS[c])
    ax.axhline(np.log2(len(p.means)), color="#999999", ls=":", lw=0.8,
               label=f"log₂ {len(p.means)}")
    kk = curves["mutual_information"]
    true = kk.loc[kk["k"] == len(p.means), "T"]
    if len(true):
        ax.axvline(true.min(), color="#999999", ls="--", lw=0.8,
                   label=f"lowest T with K̂ = {len(p.means)}")
    ax.set_xscale("log")
    ax.set_xlabel("stopping temperature T (β = 1/T)")
    ax.set_ylabel("bits")
    tw = ax.twinx()
    tw.plot(curves["transfer_cost"]["T"], curves["transfer_cost"]["score"],
            color=COLORS["transfer_cost"], ls="--", label=LABELS["transfer_cost"])
    tw.set_ylabel("expected transfer cost per object")
    tw.spines["right"].set_visible(True)
    tw.grid(False)
    lines = ax.get_legend_handles_labels()
    more = tw.get_legend_handles_labels()
    ax.legend(lines[0] + more[0], lines[1] + more[1], loc="center right", fontsize=6.5)
    ax.set_title("(b) mutual information and transfer cost")
    for j, (T, k) in enumerate(zip(kk["T"], kk["k"], strict=True)):
        if j == 0 or k != kk["k"].iloc[j - 1]:
            ax.annotate(f"{k}", (T, 0.02), xycoords=("data", "axes fraction"),
                        fontsize=6, color="#555555", ha="center")

    ax = axes[0, 2]
    b = rows[rows["criterion"] == "bic"]
    q = b.groupby("k")["score"].agg(["mean", "min", "max"])
    ax.fill_between(q.index, q["min"], q["max"], color=COLORS["bic"], alpha=0.2, lw=0)
    ax.plot(q.index, q["mean"], marker="o", ms=3, color=COLORS["bic"])
    ax.axvline(len(p.means), color="#999999", ls="--", lw=0.8)
    ax.set_xlabel("number of components k")
    ax.set_ylabel("BIC (spherical GMM on X¹)")
    ax.set_title(f"(c) BIC vs k (mean, range over {b['rep'].nunique()} reps)")
    ax.set_xticks(q.index)
    return [plotting.save(fig, outdir / "wasc_gmm_annealing.png")]
