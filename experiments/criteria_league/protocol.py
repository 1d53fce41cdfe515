"""What ``criteria_league`` computes: its parameters, its tasks and the rows of one task —
the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mtc_cli.core.datasets import milligan_cooper as mc
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models.gmm import COVARIANCE_TYPES
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.selection import choice, engine
from mtc_cli.selection.catalog import CLUSTERING
from mtc_cli.selection.settings import make_settings

#: scikit-learn's bundled data sets: their number of classes (the reference k) and objects
REAL = {"iris": 3, "wine": 3, "breast_cancer": 2, "digits": 10}
REAL_SIZE = {"iris": 150, "wine": 178, "breast_cancer": 569, "digits": 1797}
FAMILIES = ("milligan_cooper", "one_cluster", "elongated", "unequal_variance", "real")


@dataclass(frozen=True)
class Suite:
    families: list[str] = param(list(FAMILIES[:-1]), help="simulated families",
                                choices=list(FAMILIES[:-1]))
    reps: int = param(3, help="replications of every simulated design (Milligan & Cooper: 3)",
                      min=1)
    n_points: int = param(200, help="objects per simulated data set (M&C: 50)", min=20)
    n_clusters: list[int] = param([2, 3, 4, 5], help="Milligan–Cooper: numbers of clusters",
                                  min=1)
    n_dims: list[int] = param([4, 6, 8], help="Milligan–Cooper and one-cluster: dimensions", min=1)
    sizes: list[str] = param(list(mc.SIZES), help="Milligan–Cooper: size patterns",
                             choices=list(mc.SIZES))
    errors: list[str] = param(list(mc.ERRORS), help="Milligan–Cooper: error conditions",
                              choices=list(mc.ERRORS))
    real: list[str] = param(list(REAL), help="scikit-learn data sets (classes as k)",
                            choices=list(REAL))
    standardize_real: bool = param(True, help="z-score the real data sets' features "
                                              "(constant features dropped)")
    data_seeds: list[int] = param([1985, 2026], help="seeds of the simulated data sets: the "
                                  "first draws the fit half (the vote's rule is fitted on "
                                  "it), the others the test half (the real sets too)", min=0)


@dataclass(frozen=True)
class Params:
    suite: Suite = param(Suite(), help="the data sets")
    models: list[str] = param(["kmeans", "gmm"], help="models whose criteria compete",
                              choices=list(CLUSTERING[:2]))
    k_max: int = param(12, help="k = 1..k_max offered on every data set", min=2)
    splits: int = param(10, help="select: random splits into halves", min=1)
    references: int = param(10, help="select: gap statistic reference sets", min=2)
    clest_references: int = param(5, help="select: Clest reference sets", min=1)
    clest_splits: int = param(5, help="select: Clest learning/test splits", min=1)
    n_init: int | None = param(None, help="select: restarts of every fit (default: by "
                                          "model, as mtc select)", min=1)
    covariance_type: str = param("full", help="gmm covariance model",
                                 choices=list(COVARIANCE_TYPES))
    select_seed: int = param(0, help="the seed of every selection (as mtc select --seed)",
                             min=0)


def datasets(s: Suite) -> list[dict]:
    """Every data set of the suite as a JSON-able description (with ``id``, ``true_k`` and
    ``half``: ``fit`` for the first data seed, ``test`` for the others and the real sets;
    ids of the later seeds end in ``-s<seed>``)."""
    out = []
    for i, seed in enumerate(s.data_seeds):
        for d in mc.designs(s.reps, s.n_points):
            if d["family"] not in s.families:
                continue
            if d["family"] == "milligan_cooper" and not (
                    d["n_clusters"] in s.n_clusters and d["n_dims"] in s.n_dims
                    and d["sizes"] in s.sizes and d["error"] in s.errors):
                continue
            if d["family"] == "one_cluster" and d["n_dims"] not in s.n_dims:
                continue
            out.append({**d, "id": d["id"] + (f"-s{seed}" if i else ""), "data_seed": seed,
                        "half": "test" if i else "fit"})
    out += [{"id": name, "family": "real", "real": name, "true_k": REAL[name], "rep": 0,
             "standardize": s.standardize_real, "half": "test"} for name in s.real]
    return out


@lru_cache(maxsize=8)
def _data(design: tuple) -> tuple[np.ndarray, int]:
    d = dict(design)
    if d["family"] == "real":
        import sklearn.datasets as skd

        X = getattr(skd, f"load_{d['real']}")().data.astype(np.float64)
        X = X[:, np.ptp(X, axis=0) > 0]
        if d["standardize"]:
            X = (X - X.mean(axis=0)) / X.std(axis=0)
        return X, d["true_k"]
    X, _, true_k = mc.make(d, mc.design_rng(d, d["data_seed"]))
    return X, true_k


def data(design: dict) -> tuple[np.ndarray, int]:
    """(X, true k) of a data set (drawn or loaded once per process)."""
    return _data(tuple(sorted(design.items())))


class CriteriaLeagueProtocol(Experiment):
    name = "criteria_league"
    description = "League table of the criteria over Milligan–Cooper and real data sets"
    Params = Params
    condition = ("dataset", "model")

    def check(self, p: Params) -> None:
        if not datasets(p.suite):
            raise MtcError("key 'suite': the suite has no data set")
        sizes = [REAL_SIZE[d["real"]] if d["family"] == "real" else p.suite.n_points
                 for d in datasets(p.suite)]
        if p.k_max > min(sizes) // 2:
            raise MtcError(f"key 'k_max': {p.k_max} exceeds the {min(sizes) // 2} objects of "
                           "a random half of the smallest data set")

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        options = {k: getattr(p, k) for k in ("k_max", "splits", "references",
                                              "clest_references", "clest_splits", "n_init",
                                              "covariance_type", "select_seed")}
        return [{"design": d, "model": m, **options} for d in datasets(p.suite)
                for m in p.models]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        design = task["design"]
        X, true_k = data(design)
        s = make_settings(task["model"], (1, task["k_max"]), None, n=len(X), d=X.shape[1],
                          **{k: task[k] for k in ("splits", "references", "clest_references",
                                                  "clest_splits", "n_init",
                                                  "covariance_type")})
        rows = engine.run(X, s, task["select_seed"])
        summary, _ = choice.summarize(rows, s.criteria, k_lo=1, k_hi=s.k_hi, model=s.model)
        base = {"dataset": design["id"], "model": task["model"], "family": design["family"],
                "condition": _condition(design), "rep": design["rep"],
                "half": design["half"], "true_k": true_k, "n": X.shape[0], "d": X.shape[1],
                "k_hi": s.k_hi}
        return [{**base, "criterion": c, "k": k,
                 "score": abs(k - true_k) if np.isfinite(k) else np.nan}
                for c, k in zip(summary["criterion"], summary["selected_k"], strict=True)]


def _condition(design: dict) -> str:
    if design["family"] == "milligan_cooper":
        return f"{design['error']}/{design['sizes']}"
    return design["family"]
