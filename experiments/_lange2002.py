"""Model-order selection by Lange et al.'s stability and the three baselines of their
Table 1 — Gap statistic, Clest, Prediction Strength — on one data set with one clusterer
(Lange, Braun, Roth, Buhmann 2002, Sect. 4). Shared by the experiments
``stability_leukemia`` and ``stability_toy``: the settings (:class:`Criteria`), the rows of
one run (:func:`evaluate`), their summary and Table 1 (:func:`table1`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtc_cli.core.criteria import clest, gap_statistic, prediction_strength, stability
from mtc_cli.core.criteria.stability_resampling import instabilities, resample_labels
from mtc_cli.core.models import clusterers
from mtc_cli.run.params import param

CRITERIA = ("stability", "gap", "clest", "prediction_strength")
BASELINES = CRITERIA[1:]
LABELS = {"stability": "Stability", "gap": "Gap statistic", "clest": "Clest",
          "prediction_strength": "Prediction Strength"}


@dataclass(frozen=True)
class Criteria:
    k_max: int = param(10, help="largest number of clusters offered (k = 2..k_max; the Gap "
                                "statistic and prediction strength also k = 1)", min=2, max=50)
    n_resamples: int = param(20, help="stability: random splits into halves (r); also the "
                                      "splits of Clest and of prediction strength", min=1)
    n_random: int = param(20, help="stability: random labellings per baseline S_rand", min=1)
    normalisation: str = param("uniform", help="stability baseline: 'uniform' labels (Lange "
                                               "et al.) or 'permutation' of the actual labels",
                               choices=list(stability.NORMALISATIONS))
    ties: str = param("largest", help="stability: equal S̄(k) go to the 'largest' or "
                                      "'smallest' k", choices=["largest", "smallest"])
    baselines: list[str] = param(list(BASELINES), help="baselines to run besides stability",
                                 choices=list(BASELINES))
    n_references: int = param(20, help="Gap and Clest: reference data sets (B)", min=2)
    learn_fraction: float = param(2 / 3, help="Clest: learning-set share of each split",
                                  min=0.1, max=0.9)
    p_max: float = param(0.05, help="Clest: largest p-value of a candidate k", min=0.0,
                         max=1.0)
    d_min: float = param(0.05, help="Clest: smallest excess d_k of a candidate k", min=0.0)
    ps_threshold: float = param(0.8, help="prediction strength threshold", min=0.0, max=1.0)
    kmeans_n_init: int = param(20, help="k-means: k-means++ restarts (lowest cost kept)",
                               min=1)


def clusterer(name: str, c: Criteria):
    """(cluster, predict) of a clusterer: k-means with the nearest-centroid rule, or
    Path-Based Clustering with its nearest-neighbour-type rule (Lange et al. 2002, Sect. 4)."""
    if name == "kmeans":
        def cluster(X, ks, rng):
            return clusterers.kmeans_cluster(X, ks, rng, n_init=c.kmeans_n_init)
        return cluster, clusterers.nearest_centroid_predict
    if name == "pathbased":
        return clusterers.pathbased_cluster, clusterers.pathbased_predict
    raise ValueError(f"unknown clusterer {name!r}: expected 'kmeans' or 'pathbased'")


def evaluate(X: np.ndarray, name: str, c: Criteria, rng: np.random.Generator) -> list[dict]:
    """The rows of one run on X with clusterer ``name``: per criterion and k the score and
    the run's selected k (column ``selected``, the same on every row of the criterion).

    - ``stability``: S̄(k) = mean d / mean S_rand over ``n_resamples`` splits (k ≥ 2),
      with the quartiles of d_r / mean S_rand over splits (``q25``, ``q75``), with the
      clusterer's own predictor;
    - ``prediction_strength``: mean over the same splits of ps(k) (k = 1 is 1), with the
      nearest-centroid predictor whatever the clusterer (Tibshirani & Walther; Lange et al.);
    - ``gap``: Gap(k) with ``se`` = s_k (k = 1..k_max), 1-s.e. rule, on the Euclidean
      within-cluster sum of squares of the clusterer's partitions;
    - ``clest``: d_k with ``p_value``, ``t`` and ``t0`` (k ≥ 2), LDA predictor.
    """
    cluster, predict = clusterer(name, c)
    ks = list(range(2, c.k_max + 1))
    rows = []
    pairs = resample_labels(X, ks, cluster, predict, rng, c.n_resamples)
    inst = instabilities(pairs, ks, rng, normalisation=c.normalisation, n_draws=c.n_random)
    scores = [i.score for i in inst]
    chosen = stability.select_k(ks, scores, ties=c.ties)
    for i in inst:
        spread = i.disagreements / np.mean(i.random)
        rows.append({"criterion": "stability", "k": i.k, "score": i.score,
                     "q25": float(np.quantile(spread, 0.25)),
                     "q75": float(np.quantile(spread, 0.75)),
                     "disagreement": float(np.mean(i.disagreements)),
                     "random_disagreement": float(np.mean(i.random)), "selected": chosen})
    if "prediction_strength" in c.baselines:
        centroid = [r.predicted if predict is clusterers.nearest_centroid_predict else
                    clusterers.nearest_centroid_predict(X[r.train], r.train_labels, X[r.test])
                    for r in pairs]
        ps = [1.0] + [float(np.mean([prediction_strength.prediction_strength(r.own[k], p[k])
                                     for r, p in zip(pairs, centroid, strict=True)]))
                      for k in ks]
        chosen = prediction_strength.select([1, *ks], ps, c.ps_threshold)
        rows += [{"criterion": "prediction_strength", "k": k, "score": s, "selected": chosen}
                 for k, s in zip([1, *ks], ps, strict=True)]
    if "gap" in c.baselines:
        g = gap_statistic.gap_statistic(X, [1, *ks], cluster,
                                        gap_statistic.within_sum_of_squares, rng,
                                        n_references=c.n_references)
        rows += [{"criterion": "gap", "k": k, "score": float(g["gap"][j]),
                  "se": float(g["s"][j]), "selected": g["selected"]}
                 for j, k in enumerate([1, *ks])]
    if "clest" in c.baselines:
        r = clest.clest(X, ks, cluster, rng, n_splits=c.n_resamples,
                        n_references=c.n_references, learn_fraction=c.learn_fraction,
                        p_max=c.p_max, d_min=c.d_min)
        rows += [{"criterion": "clest", "k": k, "score": float(r["d"][j]),
                  "p_value": float(r["p"][j]), "t": float(r["t"][j]),
                  "t0": float(r["t0"][j]), "selected": r["selected"]}
                 for j, k in enumerate(ks)]
    return rows


def agreement_rows(X: np.ndarray, name: str, c: Criteria, references: dict,
                   rng: np.random.Generator) -> list[dict]:
    """Clusterings of all objects for k = 2..k_max against known labels: per reference
    labelling the number of objects matched after the Hungarian assignment of clusters to
    classes, n (1 − d) with d = :func:`~mtc_cli.core.criteria.stability.disagreement`."""
    cluster = clusterer(name, c)[0]
    labels = cluster(X, list(range(2, c.k_max + 1)), rng)
    return [{"criterion": "agreement", "reference": ref, "k": k,
             "score": int(round(len(truth) * (1 - stability.disagreement(truth, lab)))),
             "n": len(truth)}
            for ref, truth in references.items() for k, lab in labels.items()]


def summarize(rows: pd.DataFrame, condition: list[str]) -> pd.DataFrame:
    """Per condition × criterion the median and quartiles over runs of each run's
    selected k (``selected_k``, ``selected_k_q25``, ``selected_k_q75``, ``n_reps``) and
    all runs' choices (``choices``)."""
    sel = rows[rows["criterion"].isin(CRITERIA)]
    per_run = sel.groupby([*condition, "criterion", "rep"], sort=False)["selected"].first()
    out = per_run.groupby(level=[*condition, "criterion"], sort=False).agg(
        selected_k="median", selected_k_q25=lambda s: float(np.quantile(s, 0.25)),
        selected_k_q75=lambda s: float(np.quantile(s, 0.75)), n_reps="size",
        choices=lambda s: " ".join(str(int(v)) for v in s)).reset_index()
    return out


def curves(rows: pd.DataFrame, condition: list[str]) -> pd.DataFrame:
    """Mean over runs of each criterion's score per condition and k, with the mean of the
    stability's per-split quartiles and the Gap's s_k."""
    sel = rows[rows["criterion"].isin(CRITERIA)]
    cols = [c for c in ("score", "q25", "q75", "se", "p_value") if c in sel.columns]
    return sel.groupby([*condition, "criterion", "k"], sort=True)[cols].mean().reset_index()


def table1(rows: pd.DataFrame, summary: pd.DataFrame, paper: dict, true_k: dict,
           agreements: dict | None = None) -> pd.DataFrame:
    """Lange et al.'s Table 1: one row per (dataset, clusterer) with the median selected k
    of every criterion (and all runs' choices), the true k and the paper's values.
    ``agreements`` maps a column name to (reference, k, paper value): the median matched
    count over runs of the clustering of all objects with k clusters."""
    out = []
    for (dataset, name), sub in summary.groupby(["dataset", "clusterer"], sort=False):
        row = {"dataset": dataset, "clusterer": name, "true_k": true_k.get(dataset, ""),
               "runs": int(sub["n_reps"].max())}
        for criterion in CRITERIA:
            s = sub[sub["criterion"] == criterion]
            row[criterion] = float(s["selected_k"].iloc[0]) if len(s) else np.nan
            row[f"{criterion}_runs"] = s["choices"].iloc[0] if len(s) else ""
            row[f"paper_{criterion}"] = paper.get((dataset, name), {}).get(criterion, "")
        for column, (ref, k, target) in (agreements or {}).items():
            a = rows[(rows["criterion"] == "agreement") & (rows["dataset"] == dataset)
                     & (rows["clusterer"] == name) & (rows["reference"] == ref)
                     & (rows["k"] == k)]
            row[column] = float(a["score"].median()) if len(a) else np.nan
            row[f"{column}_n"] = int(a["n"].iloc[0]) if len(a) else 0
            row[f"paper_{column}"] = target
        out.append(row)
    return pd.DataFrame(out)


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
