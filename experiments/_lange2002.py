"""Model-order selection by Lange et al.'s stability and the three baselines of their
Table 1 — Gap statistic, Clest, Prediction Strength — on one data set with one clusterer
(Lange, Braun, Roth, Buhmann 2002, Sect. 4). Shared by the experiments
``stability_leukemia`` and ``stability_toy``: the settings (:class:`Criteria`) and the rows
of one run (:func:`evaluate`). Their summary and Table 1 are derived by
:mod:`experiments._lange2002_tables`, the figure drawn by :mod:`experiments._lange2002_figures`
(neither in the code version)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria import clest, gap_statistic, prediction_strength, stability
from mtc_cli.core.criteria.stability_resampling import instabilities, resample_labels
from mtc_cli.core.models import clusterers
from mtc_cli.core.quartiles import quartiles
from mtc_cli.run.params import param

CRITERIA = ("stability", "gap", "clest", "prediction_strength")
BASELINES = CRITERIA[1:]


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
        q25, q75 = quartiles(i.disagreements / np.mean(i.random))
        rows.append({"criterion": "stability", "k": i.k, "score": i.score,
                     "q25": q25, "q75": q75,
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
