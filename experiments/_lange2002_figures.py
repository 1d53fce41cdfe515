"""The figure of the protocol of Lange et al. (2002) that ``stability_toy`` and
``stability_leukemia`` draw (:mod:`experiments._lange2002`): the stability index and the
baselines' curves."""

from __future__ import annotations

import numpy as np
import pandas as pd

LABELS = {"stability": "Stability", "gap": "Gap statistic", "clest": "Clest",
          "prediction_strength": "Prediction Strength"}


def plot_curves(curve: pd.DataFrame, summary: pd.DataFrame, condition: list[str], title: str,
                path, ps_threshold: float = 0.8):
    """One column per condition: the stability index S̄(k) (mean over runs, band = the
    per-split quartiles) with its choice, and below the baselines' curves — Gap(k) ± s_k,
    prediction strength (threshold dotted) and Clest's d_k — each with its choice."""
    from mtc_cli.show import plotting

    keys = list(curve[condition].drop_duplicates().itertuples(index=False, name=None))
    fig, axes = plotting.figure(2, len(keys), width=4.4, height=3.4)
    fig.subplots_adjust(wspace=0.55, hspace=0.8)
    for j, key in enumerate(keys):
        mask = np.logical_and.reduce([curve[c] == v for c, v in zip(condition, key,
                                                                    strict=True)])
        cur = curve[mask]
        smask = np.logical_and.reduce([summary[c] == v for c, v in zip(condition, key,
                                                                       strict=True)])
        chosen = summary[smask].set_index("criterion")["selected_k"]
        ax = axes[0, j]
        s = cur[cur["criterion"] == "stability"]
        col = plotting.color("instability")
        ax.fill_between(s["k"], s["q25"], s["q75"], color=col, alpha=0.2, lw=0,
                        label="quartiles over splits")
        ax.plot(s["k"], s["score"], marker="o", ms=3, color=col, label="S̄(k), mean over runs")
        if "stability" in chosen:
            ax.axvline(chosen["stability"], color="#999999", ls=":", lw=1)
        ax.set_title(" / ".join(map(str, key)) + f": stability → k = "
                     f"{chosen.get('stability', np.nan):g}", fontsize=9)
        ax.set_xlabel("number of clusters k")
        ax.set_ylabel("normalised instability S̄(k)")
        ax.set_ylim(bottom=0)
        ax.set_xticks(s["k"])
        plotting.legend_below(ax, fontsize=7)
        ax = axes[1, j]
        right = ax.twinx()
        right.grid(False)
        g = cur[cur["criterion"] == "gap"]
        if len(g):
            ax.errorbar(g["k"], g["score"], yerr=g["se"], marker="s", ms=3, capsize=2,
                        color=plotting.color("gap", "#1f77b4"),
                        label=f"Gap(k) ± s_k → {chosen.get('gap', np.nan):g}")
        for crit, marker, colour in (("prediction_strength", "^", "#ff7f0e"),
                                     ("clest", "D", "#d62728")):
            c = cur[cur["criterion"] == crit]
            if len(c):
                right.plot(c["k"], c["score"], marker=marker, ms=3, color=colour,
                           label=f"{LABELS[crit]}{' d_k' if crit == 'clest' else ''} → "
                                 f"{chosen.get(crit, np.nan):g}")
        right.axhline(ps_threshold, color="#ff7f0e", ls=":", lw=0.8)
        ax.set_xlabel("number of clusters k")
        ax.set_ylabel("Gap(k)")
        right.set_ylabel("prediction strength; Clest d_k")
        handles = [h for a in (ax, right) for h in a.get_legend_handles_labels()[0]]
        names = [lab for a in (ax, right) for lab in a.get_legend_handles_labels()[1]]
        plotting.legend_below(ax, handles=handles, labels=names, fontsize=7)
    fig.suptitle(title, fontsize=10)
    return plotting.save(fig, path)
