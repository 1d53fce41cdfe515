"""What ``league`` computes: its parameters, its tasks and the rows of one task — the code
its code version holds (nothing here imports its tables, its figures or the show layer)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mtc_cli.core.datasets import families, real_sets
from mtc_cli.core.errors import MtcError
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.selection import auto, choice, engine
from mtc_cli.selection.catalog import applicable, auto_models
from mtc_cli.selection.settings import make_settings

#: the families of the league: the synthetic ones, then real data with classes
FAMILIES = (*families.FAMILIES, "real")
#: the task of a data set that runs no model: HDBSCAN's own counts and the dip test
PROBE = "probe"


@dataclass(frozen=True)
class Params:
    families: list[str] = param(list(FAMILIES), help="the families of data sets",
                                choices=list(FAMILIES))
    sets: int = param(16, help="data sets per synthetic family (scenes: scene_sets)", min=1)
    scene_sets: int = param(48, help="data sets of the scenes family", min=1)
    real: list[str] = param([n for n, s in real_sets.REAL_SETS.items() if s["chosen"] == "rule"],
                            help="the real data sets, each raw and z-scored (default: those "
                                 "the rule of data/league/SOURCE.md takes; the hand-picked "
                                 "ones it does not take may be named)",
                            choices=list(real_sets.REAL_SETS))
    data_seed: int = param(2027, help="the seed the synthetic families are drawn from",
                           min=0)
    models: list[str] = param(list(auto_models()), help="the algorithms (auto: all of them)",
                              choices=auto_models)
    k_max: int = param(10, help="k = 1..k_max offered on every data set (mtc select's "
                                "default range; at most half the objects of the smallest)",
                       min=2)
    splits: int = param(10, help="select: random splits into halves", min=1)
    references: int = param(10, help="select: gap statistic reference sets", min=2)
    clest_references: int = param(5, help="select: Clest reference sets", min=1)
    clest_splits: int = param(5, help="select: Clest learning/test splits", min=1)
    select_seed: int = param(0, help="the seed of every selection (as mtc select --seed)",
                             min=0)
    hdbscan_sizes: list[int] = param([5, 10, 15, 20, 30, 50], help="probe: the "
                                     "min_cluster_size of HDBSCAN's own counts", min=2)


def datasets(p: Params) -> list[dict]:
    """Every data set as a JSON-able design with ``id``, ``family`` and ``true_k``: ``sets``
    of each synthetic family (:mod:`mtc_cli.core.datasets.families`), and each real set raw
    and z-scored (:mod:`mtc_cli.core.datasets.real_sets`)."""
    out = [d for f in p.families if f != "real"
           for d in families.designs(f, p.scene_sets if f == "scenes" else p.sets,
                                     p.data_seed)]
    if "real" in p.families:
        out += [d for d in real_sets.designs() if d["name"] in p.real]
    return out


@lru_cache(maxsize=4)
def _data(design: str) -> tuple[np.ndarray, np.ndarray, int]:
    d = json.loads(design)
    return real_sets.make(d) if d["family"] == "real" else families.make(d)


def data(design: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, true groups (−1: a background noise point), true k) of a data set (drawn or read
    once per process)."""
    return _data(json.dumps(design, sort_keys=True))


def probe(X: np.ndarray, sizes, k_max: int, rng: np.random.Generator) -> list[dict]:
    """The rows of a data set's probe — what the tests of k = 1 of the catalog measure of the
    data, as ``mtc select`` measures them (:class:`mtc_cli.selection.measuring.Measuring`, its
    generators here the task's): HDBSCAN's own number of clusters (scikit-learn's
    ``HDBSCAN``, excess of mass, at each ``min_cluster_size``; 1 where every object is
    noise; on at most 2 000 objects, as the test), Hartigan's dip test of the first
    principal component (``score`` its p-value), dip-means' share of split viewers
    (``dip_means``), and SigClust's p at every k = 2..``k_max`` (``sigclust``)."""
    from mtc_cli.core.criteria.hdbscan_count import hdbscan_count
    from mtc_cli.selection.catalog import GATES
    from mtc_cli.selection.measuring import Measuring

    seed = format(int(rng.integers(2**48)), "012x")
    measuring = Measuring(X, seed, {}, None)
    rows = []
    for m in sizes:
        found, noise = hdbscan_count(measuring.sample(), int(m))
        rows.append({"criterion": f"hdbscan_{m}", "k": max(found, 1), "score": found,
                     "noise": noise})
    rows.append({"criterion": "dip", "k": np.nan, "score": measuring(GATES["dip"], 1, None)})
    rows.append({"criterion": "dip_means", "k": np.nan,
                 "score": measuring(GATES["dip_means"], 1, None)})
    sigclust = GATES["sigclust"]
    rows += [{"criterion": "sigclust", "k": k, "score": measuring(sigclust, k, sigclust.param)}
             for k in range(2, k_max + 1)]
    return rows


class LeagueProtocol(Experiment):
    name = "league"
    description = ("League of families: every algorithm, criterion, rule and peer on data "
                   "sets of every kind")
    Params = Params
    condition = ("dataset", "model")

    def check(self, p: Params) -> None:
        designs = datasets(p)
        if not designs:
            raise MtcError("the league has no data set")
        smallest = min(d["n"] for d in designs)
        if p.k_max > smallest // 2:
            raise MtcError(f"key 'k_max': {p.k_max} exceeds the {smallest // 2} objects of a "
                           "random half of the smallest data set")

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        options = {k: getattr(p, k) for k in ("k_max", "splits", "references",
                                              "clest_references", "clest_splits",
                                              "select_seed")}
        out = []
        for d in datasets(p):
            out += [{"design": d, "model": m, **options} for m in p.models]
            out.append({"design": d, "model": PROBE, "hdbscan_sizes": list(p.hdbscan_sizes),
                    "k_max": p.k_max})
        return out

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        design = task["design"]
        X, _, true_k = data(design)
        base = {"dataset": design["id"], "model": task["model"], "family": design["family"],
                "true_k": true_k, "n": X.shape[0], "d": X.shape[1]}
        if task["model"] == PROBE:
            return [{**base, **r} for r in probe(X, task["hdbscan_sizes"], task["k_max"],
                                                 rng)]
        # HDBSCAN's own count is the probe's, at every min_cluster_size
        criteria = [c for c in applicable(task["model"]) if c != "hdbscan_count"]
        s = make_settings(task["model"], (1, task["k_max"]), criteria, n=len(X), d=X.shape[1],
                          **{k: task[k] for k in ("splits", "references", "clest_references",
                                                  "clest_splits")})
        rows = engine.run(X, s, task["select_seed"])
        summary, curves = choice.summarize(rows, s)
        out = [{**base, "criterion": c, "k": k,
                "score": abs(k - true_k) if np.isfinite(k) else np.nan}
               for c, k in zip(summary["criterion"], summary["selected_k"], strict=True)]
        stab = rows[(rows["criterion"] == "stability") & (rows["k"] >= 2)]
        by_k = stab.assign(k=stab["k"].astype(int)).groupby("k")
        uniform = by_k["score"].mean() / by_k["random"].mean()
        out += [{**base, "criterion": "s_perm", "k": int(k), "score": float(v)}
                for k, v in auto.normalised_stability(rows).items()]
        gap = curves[curves["criterion"] == "gap"]
        out += [{**base, "criterion": "gap_curve", "k": int(k), "score": float(v),
                 "se": float(v - lo)}
                for k, v, lo in zip(gap["k"], gap["value"], gap["lo"], strict=True)]
        return out + [{**base, "criterion": "s_rand", "k": int(k), "score": float(v)}
                      for k, v in uniform.items() if np.isfinite(v)]
