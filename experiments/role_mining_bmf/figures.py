"""The figures of ``role_mining_bmf``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from experiments.role_mining_bmf.protocol import SKEWED, Params
from experiments.role_mining_bmf.tables import curve_table, shape_table


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec

    from mtc_cli.show import plotting

    curve = curve_table(rows)
    shape = shape_table(rows, p).set_index("dataset")
    names = list(dict.fromkeys(rows["dataset"]))
    fig = plotting.new_figure(4.8 * len(names), 5.4)
    gs = GridSpec(2, len(names), figure=fig, height_ratios=[3, 1], hspace=0.12,
                  wspace=0.3)
    for j, name in enumerate(names):
        ax = fig.add_subplot(gs[0, j])
        low = fig.add_subplot(gs[1, j], sharex=ax)
        c = curve[curve["dataset"] == name]
        tc = c[c["criterion"] == "transfer_cost"].sort_values("k")
        tr = c[c["criterion"] == "training_cost"].sort_values("k")
        for fold, g in rows[(rows["dataset"] == name)
                            & (rows["criterion"] == "transfer_cost")].groupby("rep"):
            g = g.sort_values("k")
            ax.plot(g["k"], g["score"], color="#999999", lw=0.6, alpha=0.8,
                    label="one fold" if fold == 0 else None)
        ax.fill_between(tc["k"], tc["mean"] - tc["sd"], tc["mean"] + tc["sd"],
                        color=plotting.color("mtc"), alpha=0.12, lw=0)
        ax.plot(tc["k"], tc["mean"], "o-", ms=3, color=plotting.color("mtc"),
                label="transfer cost (mean ± sd over folds)")
        ax.plot(tr["k"], tr["mean"], "--", color="#1f77b4", lw=1.2,
                label="cost on the training users")
        s = shape.loc[name]
        for a in (ax, low):
            a.axvline(s["k_min_mean"], color="#555555", ls=":", lw=1)
            if np.isfinite(s["true_k"]):
                a.axvline(s["true_k"], color="#d62728", ls="--", lw=1)
        ax.axhline(s["copy_cost"], color="#8c564b", ls="-.", lw=1,
                   label="memorized training users (overfitting limit)")
        ax.plot([], [], color="#555555", ls=":", label=f"minimum of the mean curve: "
                                                       f"k = {int(s['k_min_mean'])}")
        if np.isfinite(s["true_k"]):
            ax.plot([], [], color="#d62728", ls="--",
                    label=f"true number of {'shared ' if name == SKEWED else ''}roles: "
                          f"{int(s['true_k'])}")
        info = rows[rows["dataset"] == name].iloc[0]
        ax.set_title(f"{name}: {int(info['n_train'] + info['n_test'])} users, "
                     f"{p.folds}-fold CV")
        ax.set_ylabel("mismatched bits per user")
        ax.set_ylim(bottom=0)
        ax.tick_params(labelbottom=False)
        ax.legend(fontsize=7)
        low.plot(tc["k"], tc["roles_used"], "o-", ms=3, color="#2ca02c")
        low.plot(tc["k"], tc["k"], color="#bbbbbb", lw=0.8)
        low.set_ylabel("roles used")
        low.set_xlabel("number of roles offered k")
        low.set_ylim(bottom=0)
    fig.suptitle("Boolean matrix factorization by MAC (MTC Fig. 4): transfer cost with "
                 "Hamming nearest-neighbour mapping\nlower row: roles with a user and a "
                 "permission (mean over folds; grey: k)", fontsize=9.5, y=0.99)
    return [plotting.save(fig, Path(outdir) / "role_mining_bmf.png")]
