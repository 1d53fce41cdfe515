"""The figures of ``wasc_boolean_mac``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

import numpy as np

from experiments.wasc_boolean_mac.protocol import MODELS, Params
from experiments.wasc_boolean_mac.tables import _curves
from mtc_cli.show import plotting

COLORS = {"MAC": "#1f77b4", "MAC-mix": "#d62728", "SAC": "#2ca02c", "SAC-mix": "#ff7f0e"}


def plot(exp, rows, summary, p: Params, outdir) -> list:
    curves = _curves(rows)
    fig, axes = plotting.figure(1, 4, width=4.4, height=3.6)
    for ax, crit, ylab, title in (
            (axes[0, 0], "mismatch", "fraction of wrong profile bits",
             "(a) parameter mismatch vs noise"),
            (axes[0, 1], "capacity", "approximation capacity (bits)",
             "(b) capacity, eq. 13 over all sets"),
            (axes[0, 2], "capacity_in_use", "approximation capacity (bits)",
             "(c) capacity over the sets in use")):
        for model in MODELS:
            s = curves[(curves["criterion"] == crit) & (curves["model"] == model)]
            s = s.sort_values("epsilon")
            ax.fill_between(s["epsilon"], s["q25"], s["q75"], color=COLORS[model],
                            alpha=0.15, lw=0)
            ax.plot(s["epsilon"], s["median"], marker="o", ms=3, color=COLORS[model],
                    label=model)
        ax.set_xlabel("noise fraction ε")
        ax.set_ylabel(ylab)
        ax.set_title(title)
        ax.legend()
    for ax in axes[0, 1:3]:
        ax.axhline(np.log2(3), color="#999999", ls=":", lw=0.8)
    ax = axes[0, 3]
    unused = (rows[rows["criterion"] == "capacity"]
              .groupby(["model", "epsilon"])["unused_sets"].mean())
    for model in MODELS:
        u = unused.loc[model].sort_index()
        ax.plot(u.index, u.to_numpy(), marker="o", ms=3, color=COLORS[model], label=model)
    ax.set_xlabel("noise fraction ε")
    ax.set_ylabel("assignment sets no object of X¹ prefers")
    ax.set_title("(d) unused sets (eq. 13 still counts them)")
    ax.legend()
    fig.suptitle(f"D = {p.n_dims}, Hamming distance {p.distance}, {p.per_set} objects per "
                 f"set, r = {p.r}; median and quartiles over {p.reps} reps", fontsize=9,
                 y=1.04)
    return [plotting.save(fig, outdir / "wasc_boolean_mac.png")]
