"""MTC Fig. 5: correlation clustering — transfer cost against Lange et al.'s instability.

Frank, Chehreghani, Buhmann 2011, Sect. 6. A signed graph with planted clusters (q, noise
p) is split at random into two graphs of equal size. Annealed Gibbs sampling (10 random
initialisations, the lowest cost kept) clusters both with k = 1..k_max clusters. The
solution of graph 1 is transferred to graph 2 node by node (eqs. 9–10); its cost there
(eq. 8) is the transfer cost. The instability (Lange et al. 2002) compares the transferred
labels with graph 2's own clustering, normalised by random labellings — two ways:
``instability`` permutes the actual labels (cluster sizes kept, empty clusters stay
empty), ``instability_uniform`` draws k uniform labels (Lange et al.'s baseline).

One task is one graph per p with all its node splits (its resamples): every split's two
graphs and every k are annealed together in one batch of chains.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtc_cli.core.criteria import stability
from mtc_cli.core.datasets.correlation_graph import correlation_graph
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import correlation
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param
from mtc_cli.show import plotting

CRITERIA = {"transfer_cost": "min", "instability": "min", "instability_uniform": "min"}
INSTABILITIES = {"instability": "permutation", "instability_uniform": "uniform"}
LABELS = {"transfer_cost": "transfer cost", "training_cost": "cost on graph 1",
          "instability": "instability (permuted labels)",
          "instability_uniform": "instability (uniform labels)"}


@dataclass(frozen=True)
class Params:
    sizes: list[int] = param([300, 300, 300], help="planted cluster sizes (N = their sum, even)",
                             min=1)
    q: float = param(0.30, help="probability that an inter-cluster edge is set to +1 "
                                "(structure complexity)", min=0.0, max=1.0)
    p: list[float] = param([0.70, 0.75, 0.80, 0.85, 0.90, 0.95],
                           help="noise levels: probability that an edge is redrawn at random",
                           min=0.0, max=1.0)
    k_max: int = param(10, help="largest number of clusters offered (k = 1..k_max)",
                       min=2, max=50)
    n_init: int = param(10, help="random initialisations per graph and k (lowest cost kept)",
                        min=1)
    splits: int = param(5, help="random node splits (resamples) of each graph", min=1)
    graphs: int = param(1, help="independent graphs per p (rep = graph × splits + split)",
                        min=1)
    n_sweeps: int = param(500, help="annealing sweeps (each visits every node once)", min=0)
    t_start: float | None = param(None, help="start temperature (default 2√N of one half)",
                                  min=0.0)
    t_end: float = param(0.5, help="temperature of the last annealing sweep", min=1e-6)
    max_greedy_sweeps: int = param(100, help="greedy sweeps after annealing (until no move)",
                                   min=0)
    n_random: int = param(20, help="random labellings per instability baseline", min=1)
    figure_p: list[float] = param([0.70, 0.80, 0.95],
                                  help="p of the cost-curve panels (nearest grid value)")


class CorrelationClustering(Experiment):
    name = "correlation_clustering"
    description = "MTC Fig. 5 — correlation clustering: transfer cost vs instability"
    Params = Params
    condition = ("p",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        if sum(p.sizes) % 2:
            raise MtcError(f"key 'sizes': the {sum(p.sizes)} nodes must split into two "
                           "graphs of equal size (even sum)")
        if p.t_start is not None and p.t_start <= p.t_end:
            raise MtcError(f"key 't_start': expected a value above t_end = {p.t_end}, "
                           f"got {p.t_start}")
        n = sum(p.sizes)
        check_memory("sizes", 8.0 * 3 * n * n)  # the signed graph and its halves, float64

    def tasks(self, p: Params) -> list[dict]:
        shared = {"sizes": p.sizes, "q": p.q, "k_max": p.k_max, "n_init": p.n_init,
                  "splits": p.splits, "n_sweeps": p.n_sweeps, "t_start": p.t_start,
                  "t_end": p.t_end, "max_greedy_sweeps": p.max_greedy_sweeps,
                  "n_random": p.n_random}
        return [{"p": noise, "graph": g, **shared} for noise in p.p for g in range(p.graphs)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X, truth = correlation_graph(rng, task["sizes"], task["q"], task["p"])
        halves = [stability.split_halves(len(truth), rng) for _ in range(task["splits"])]
        pairs = np.stack([X[np.ix_(idx, idx)] for split in halves for idx in split])
        ks = list(range(1, task["k_max"] + 1))
        labels, costs = correlation.fit(
            pairs, ks, task["n_init"], rng, n_sweeps=task["n_sweeps"],
            t_start=task["t_start"], t_end=task["t_end"],
            max_greedy_sweeps=task["max_greedy_sweeps"])
        rows = []
        for s, (i1, i2) in enumerate(halves):
            X2, X21 = pairs[2 * s + 1], X[np.ix_(i2, i1)]
            base = {"p": task["p"], "rep": task["graph"] * task["splits"] + s,
                    "graph": task["graph"], "split": s}
            for j, k in enumerate(ks):
                own1, own2 = labels[2 * s, j], labels[2 * s + 1, j]
                moved = correlation.transfer_labels(X21, own1, k)
                sizes = np.sort(np.bincount(own1))[::-1]
                rows.append({**base, "criterion": "training_cost", "k": k,
                             "score": float(costs[2 * s, j]),
                             "clusters_used": int(np.count_nonzero(sizes)),
                             "outside_largest": int(sizes[len(task["sizes"]):].sum()),
                             "truth_disagreement": stability.disagreement(truth[i1], own1)})
                rows.append({**base, "criterion": "transfer_cost", "k": k,
                             "score": correlation.disagreement_cost(X2, moved),
                             "clusters_used": len(np.unique(moved)),
                             "truth_disagreement": stability.disagreement(truth[i2], moved)})
                if k < 2:  # instability is not defined for one cluster
                    continue
                d = stability.disagreement(own2, moved)
                for criterion, norm in INSTABILITIES.items():
                    rand = stability.random_disagreement(own2, moved, k, rng,
                                                         normalisation=norm,
                                                         n_draws=task["n_random"])
                    rows.append({**base, "criterion": criterion, "k": k,
                                 "score": d / rand if rand > 0 else np.nan,
                                 "disagreement": d, "random_disagreement": rand})
        return rows

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per-split choices (median, quartiles) as usual, and beside them two choices
        from the mean curve over splits (the paper's figure shows mean curves):
        ``selected_k_mean_curve``, its argmin (ties to the smallest k), and
        ``selected_k_1se``, the smallest k whose mean is within one standard error over
        splits of that minimum (the one-standard-error rule of Breiman et al. 1984 and
        Tibshirani et al. 2001), which keeps statistically tied k from being told apart
        by noise."""
        out = super().summarize(rows, p)
        chosen = [{"p": noise, "criterion": criterion, **mean_curve_choice(sub)}
                  for (noise, criterion), sub in mean_curve(rows).groupby(["p", "criterion"])]
        out = out.merge(pd.DataFrame(chosen), on=["p", "criterion"], how="left")
        out["true_k"] = len(p.sizes)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``mean_curve``: mean and spread over splits of each criterion per p and k;
        ``flatness``: per p, how much the mean transfer cost and the mean instability vary
        over k ≥ true k against their spread over splits, how many clusters the graph-1
        solutions use there and how many nodes lie outside their true-k largest clusters."""
        curve = mean_curve(rows)
        true_k = len(p.sizes)
        tail = curve[curve["k"] >= true_k]
        flat = []
        for noise, sub in tail.groupby("p"):
            fits = rows[(rows["criterion"] == "training_cost") & (rows["p"] == noise)
                        & (rows["k"] >= true_k)]
            row = {"p": noise, "true_k": true_k}
            for criterion, name in (("transfer_cost", ""), ("instability", "instability_")):
                c = sub[sub["criterion"] == criterion]
                row[f"{name}range_k_ge_true"] = float(c["mean"].max() - c["mean"].min())
                row[f"{name}sd_k_ge_true"] = float(c["sd"].mean())
            row.update(clusters_used_min=int(fits["clusters_used"].min()),
                       clusters_used_max=int(fits["clusters_used"].max()),
                       outside_largest_max=int(fits["outside_largest"].max()))
            flat.append(row)
        return {"mean_curve": curve, "flatness": pd.DataFrame(flat)}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        from matplotlib.gridspec import GridSpec

        curve = mean_curve(rows)
        grid = np.sort(curve["p"].unique())
        panels = sorted({float(grid[np.abs(grid - x).argmin()]) for x in p.figure_p})
        fig = plotting.new_figure(4.6 * len(panels), 7.0)
        gs = GridSpec(2, len(panels), figure=fig, hspace=0.45, wspace=0.75)
        true_k = int(summary["true_k"].iloc[0])
        for i, noise in enumerate(panels):
            handles = _panel(fig.add_subplot(gs[0, i]), curve[np.isclose(curve["p"], noise)],
                             noise, true_k)
        ax = fig.add_subplot(gs[1, :max(len(panels) - 1, 1)])
        more = _selection_panel(ax, summary, true_k)
        fig.legend(*zip(*(handles + more), strict=True), loc="lower right", fontsize=7.5,
                   bbox_to_anchor=(0.98, 0.08))
        fig.suptitle(f"Correlation clustering (MTC Fig. 5): N = {sum(p.sizes)} nodes in "
                     f"{len(p.sizes)} clusters, q = {p.q:g}, two graphs of "
                     f"{sum(p.sizes) // 2}; mean ± sd over {rows['rep'].nunique()} splits",
                     fontsize=10)
        return [plotting.save(fig, outdir / "correlation_clustering.png")]


def mean_curve(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd and quartiles over splits of each criterion's score per p and k. For the
    instabilities the mean is Lange et al.'s S(k)/S_rand(k): the mean disagreement over
    splits divided by the mean random-labelling disagreement."""
    g = rows.groupby(["p", "criterion", "k"], sort=True)
    out = g["score"].agg(mean="mean", sd="std", q25=lambda s: s.quantile(0.25),
                         q75=lambda s: s.quantile(0.75), n="count").reset_index()
    if "disagreement" in rows.columns:
        ratio = g["disagreement"].mean() / g["random_disagreement"].mean()
        inst = out["criterion"].isin(list(INSTABILITIES)).to_numpy()
        keys = pd.MultiIndex.from_frame(out.loc[inst, ["p", "criterion", "k"]])
        out.loc[inst, "mean"] = ratio.reindex(keys).to_numpy()
    return out


def mean_curve_choice(curve: pd.DataFrame) -> dict:
    """The argmin of one mean curve (ties to the smallest k) and the smallest k within
    one standard error (sd over splits / √n at the argmin) of its minimum."""
    c = curve.dropna(subset=["mean"]).sort_values("k")
    best = c.loc[c["mean"].idxmin()]
    se = best["sd"] / np.sqrt(best["n"]) if best["n"] > 1 and np.isfinite(best["sd"]) else 0.0
    within = c.loc[c["mean"] <= best["mean"] + se, "k"]
    return {"selected_k_mean_curve": int(best["k"]), "selected_k_1se": int(within.min())}


def _panel(ax, curve: pd.DataFrame, noise: float, true_k: int) -> list:
    """One panel of Fig. 5: transfer cost (left axis) and instability (right axis) vs k;
    when the drop below true k dwarfs the rest, an inset zooms on k ≥ true k. Returns the
    (handle, label) pairs for the figure's legend."""
    tc = curve[curve["criterion"] == "transfer_cost"].sort_values("k")
    ax.fill_between(tc["k"], tc["mean"] - tc["sd"], tc["mean"] + tc["sd"],
                    color=plotting.color("transfer_cost"), alpha=0.12, lw=0)
    ax.plot(tc["k"], tc["mean"], marker="o", ms=3, color=plotting.color("transfer_cost"),
            label="transfer cost (mean ± sd over splits)")
    ax.axvline(tc.loc[tc["mean"].idxmin(), "k"], color="#999999", ls=":", lw=1)
    ax.set_xlabel("number of clusters k")
    ax.set_ylabel("transfer cost (eq. 8 on graph 2)")
    ax.set_xticks(tc["k"])
    ax.set_title(f"p = {noise:g}")
    tail = tc[tc["k"] >= true_k]
    span = tail["mean"].max() - tail["mean"].min()
    if len(tail) > 1 and 10 * span < tc["mean"].max() - tc["mean"].min():
        inset = ax.inset_axes([0.42, 0.45, 0.54, 0.4])
        low = tail["mean"].min()
        inset.plot(tail["k"], tail["mean"] - low, marker="o", ms=2.5,
                   color=plotting.color("transfer_cost"))
        inset.set_xticks(tail["k"])
        inset.tick_params(labelsize=6)
        inset.set_title(f"k ≥ {true_k}: mean − {low:.0f}", fontsize=7)
    right = ax.twinx()
    right.grid(False)
    for criterion, (style, marker) in (("instability", ("-", "s")),
                                       ("instability_uniform", ("--", "^"))):
        s = curve[curve["criterion"] == criterion].sort_values("k")
        right.plot(s["k"], s["mean"], ls=style, marker=marker, ms=2.5, color=_color(criterion),
                   label=LABELS[criterion])
    right.set_ylabel("normalised instability")
    right.set_ylim(bottom=0)
    return [(h, lab) for a in (ax, right) for h, lab in zip(*a.get_legend_handles_labels(),
                                                             strict=True)]


def _selection_panel(ax, summary: pd.DataFrame, true_k: int) -> list:
    """Selected k against p from the mean curves: the argmin (lines; slightly offset so
    that equal choices stay visible) and the one-standard-error rule (open markers), with
    the per-split quartiles of the transfer cost; returns the legend's (handle, label)
    pairs."""
    styles = {"transfer_cost": ("o", "-", 0.0), "instability": ("s", "-", 0.1),
              "instability_uniform": ("^", "--", -0.1)}
    tc = summary[summary["criterion"] == "transfer_cost"].sort_values("p")
    ax.fill_between(tc["p"], tc["selected_k_q25"], tc["selected_k_q75"],
                    color=plotting.color("transfer_cost"), alpha=0.12, lw=0,
                    label="transfer cost: per-split quartiles")
    for criterion, (marker, ls, shift) in styles.items():
        s = summary[summary["criterion"] == criterion].sort_values("p")
        ax.plot(s["p"], s["selected_k_mean_curve"] + shift, marker=marker, ls=ls, ms=4,
                color=_color(criterion), label=f"{LABELS[criterion]}: argmin")
        ax.plot(s["p"], s["selected_k_1se"] + shift, marker=marker, ls="none", ms=9,
                mfc="none", color=_color(criterion), label=f"{LABELS[criterion]}: 1-s.e. rule")
    ax.axhline(true_k, color="#999999", ls=":", lw=1, label=f"planted k = {true_k}")
    ax.set_xlabel("noise p")
    ax.set_ylabel("selected k")
    ax.set_title("selected k from the mean curves over splits")
    ax.set_yticks(range(1, int(summary["selected_k_mean_curve"].max()) + 2))
    return list(zip(*ax.get_legend_handles_labels(), strict=True))


def _color(criterion: str) -> str:
    """The uniform-label instability in a lighter shade of the instability colour."""
    return "#98df8a" if criterion == "instability_uniform" else plotting.color(criterion)


experiment = CorrelationClustering()
