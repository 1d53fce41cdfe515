"""Mean criterion curves over replications: the table and the figure panels that show them
(mean ± one standard deviation vs k, and how often each k is selected)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtc_cli.show.tables import select_per_rep


def mean_curves(rows: pd.DataFrame, criteria) -> dict:
    """``curves``: mean and standard deviation over replications of each score vs k (the
    paper's error bars); ``curve_choice``: the k minimizing each criterion's mean curve,
    one wide row (``<criterion>_k``), so targets can compare criteria."""
    g = rows.groupby(["criterion", "k"])["score"]
    curves = pd.DataFrame({"mean": g.mean(), "std": g.std(ddof=1), "n": g.size()}).reset_index()
    choice = {f"{c}_k": int(curves.loc[curves[curves["criterion"] == c]["mean"].idxmin(), "k"])
              for c in criteria}
    return {"curves": curves, "curve_choice": pd.DataFrame([choice])}


def errorbar_panel(ax, curves: pd.DataFrame, criteria, title: str, *, styles: dict,
                   labels: dict) -> None:
    """Mean ± standard deviation over replications of each criterion vs k, with the
    minimum of each mean curve marked (not for ``train``, which always falls with K).
    ``styles[c]`` = (colour, line style); ``labels[c]`` = legend text."""
    for j, c in enumerate(criteria):
        sub = curves[curves["criterion"] == c].sort_values("k")
        col, ls = styles[c]
        x = sub["k"] + 0.08 * (j - (len(criteria) - 1) / 2)
        ax.errorbar(x, sub["mean"], yerr=sub["std"], color=col, ls=ls, marker="o", ms=3,
                    capsize=2, lw=1.2, label=labels[c])
        if c != "train":
            best = sub.loc[sub["mean"].idxmin()]
            ax.plot(best["k"], best["mean"], marker="*", ms=14, color=col, mec="w", zorder=4)
    ax.set_xticks(np.sort(curves["k"].unique()))
    ax.set_xlabel("K   (★: minimum of the mean curve; error bars: ±1 sd over replications)")
    ax.set_ylabel("negative log-likelihood per vector")
    ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=7)


def selection_histogram(ax, rows: pd.DataFrame, criteria, *, styles: dict, labels: dict
                        ) -> None:
    """How often each criterion selects each k over the replications."""
    chosen = select_per_rep(rows, [], {c: "min" for c in criteria})
    ks = np.arange(int(rows["k"].min()), int(rows["k"].max()) + 1)
    width = 0.8 / len(criteria)
    for j, c in enumerate(criteria):
        counts = chosen[chosen["criterion"] == c]["selected_k"].value_counts().reindex(ks,
                                                                                     fill_value=0)
        ax.bar(ks + (j - (len(criteria) - 1) / 2) * width, counts, width,
               color=styles[c][0], label=labels[c])
    ax.set_xticks(ks)
    ax.set_xlabel("selected K")
    ax.set_ylabel("replications")
    ax.set_title("per-replication choice (argmin)")
