"""What ``shapes_league`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mtc_cli.core.datasets import milligan_cooper as mc
from mtc_cli.core.datasets import shapes
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.selection import auto, choice, engine, voting
from mtc_cli.selection.catalog import AUTO_MODELS
from mtc_cli.selection.settings import make_settings


@dataclass(frozen=True)
class Params:
    shapes: list[str] = param(list(shapes.SHAPES), help="the shapes",
                              choices=list(shapes.SHAPES))
    n_points: int = param(400, help="objects per shape data set (before background noise)",
                          min=20)
    mc_clusters: list[int] = param([2, 3, 4, 5], help="Milligan–Cooper: numbers of clusters",
                                   min=1)
    mc_dims: list[int] = param([4, 8], help="Milligan–Cooper: dimensions", min=1)
    mc_sizes: list[str] = param(["equal", "one_10pct"], help="Milligan–Cooper: size patterns",
                                choices=list(mc.SIZES))
    mc_errors: list[str] = param(["none", "perturbed"], help="Milligan–Cooper: error "
                                 "conditions", choices=list(mc.ERRORS))
    mc_points: int = param(200, help="objects per Milligan–Cooper data set", min=20)
    reps: int = param(1, help="replications of every design", min=1)
    data_seed: int = param(2026, help="seed of every data set", min=0)
    models: list[str] = param(list(AUTO_MODELS), help="the algorithms (auto: all of them)",
                              choices=list(AUTO_MODELS))
    k_max: int = param(10, help="k = 1..k_max offered on every data set", min=2)
    splits: int = param(10, help="select: random splits into halves", min=1)
    references: int = param(10, help="select: gap statistic reference sets", min=2)
    clest_references: int = param(5, help="select: Clest reference sets", min=1)
    clest_splits: int = param(5, help="select: Clest learning/test splits", min=1)
    select_seed: int = param(0, help="the seed of every selection (as mtc select --seed)",
                             min=0)


def datasets(p: Params) -> list[dict]:
    """Every data set as a JSON-able description with ``id``, ``family`` and ``true_k``."""
    out = [d for d in shapes.designs(p.n_points, p.reps) if d["shape"] in p.shapes]
    out += [d for d in mc.designs(p.reps, p.mc_points)
            if d["family"] == "milligan_cooper" and d["n_clusters"] in p.mc_clusters
            and d["n_dims"] in p.mc_dims and d["sizes"] in p.mc_sizes
            and d["error"] in p.mc_errors]
    return [{**d, "data_seed": p.data_seed} for d in out]


@lru_cache(maxsize=8)
def _data(design: tuple) -> tuple[np.ndarray, np.ndarray, int]:
    d = dict(design)
    if d["family"] == "shapes":
        return shapes.make(d, d["data_seed"])
    return mc.make(d, mc.design_rng(d, d["data_seed"]))


def data(design: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, true groups (−1: a background noise point), true k) of a data set (drawn once
    per process)."""
    return _data(tuple(sorted(design.items())))


def agreement(truth: np.ndarray, labels: np.ndarray) -> float:
    """The adjusted Rand index of ``labels`` with the true groups over the objects of a
    group (background noise points, −1, left out)."""
    from sklearn.metrics import adjusted_rand_score

    keep = np.asarray(truth) >= 0
    return float(adjusted_rand_score(np.asarray(truth)[keep], np.asarray(labels)[keep]))


class ShapesLeagueProtocol(Experiment):
    name = "shapes_league"
    description = "Every clustering algorithm and --model auto on groups of any shape"
    Params = Params
    condition = ("dataset", "model")

    def check(self, p: Params) -> None:
        designs = datasets(p)
        if not designs:
            raise MtcError("the league has no data set")
        if p.k_max > min(p.n_points, p.mc_points) // 2:
            raise MtcError(f"key 'k_max': {p.k_max} exceeds the objects of a random half of "
                           "the smallest data set")

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        options = {k: getattr(p, k) for k in ("k_max", "splits", "references",
                                              "clest_references", "clest_splits",
                                              "select_seed")}
        # each task votes by the rules mtc ships (written by the criteria league): their
        # digest is part of the task, so that new rules recompute the votes
        rules = (file_sha256(voting.RULE_FILE)[:16]
                 if voting.RULE_FILE.is_file() else None)
        return [{"design": d, "model": m, **options, "vote_rule": rules}
                for d in datasets(p) for m in p.models]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        design = task["design"]
        X, truth, true_k = data(design)
        s = make_settings(task["model"], (1, task["k_max"]), None, n=len(X), d=X.shape[1],
                          **{k: task[k] for k in ("splits", "references", "clest_references",
                                                  "clest_splits")})
        rows = engine.run(X, s, task["select_seed"])
        summary, _ = choice.summarize(rows, s.criteria, k_lo=1, k_hi=s.k_hi, model=s.model)
        voted, _ = voting.decide(choice.choices(summary), voting.rule_for(s.model, s.criteria),
                                 s.k_hi)
        base = {"dataset": design["id"], "model": task["model"], "family": design["family"],
                "group": design.get("shape", "milligan_cooper"), "true_k": true_k,
                "n": X.shape[0], "d": X.shape[1]}
        picks = [*zip(summary["criterion"], summary["selected_k"], strict=True),
                 ("vote", voted)]
        out = [{**base, "criterion": c, "k": k, "score": abs(k - true_k) if np.isfinite(k)
                else np.nan} for c, k in picks]
        if np.isfinite(voted):  # no voter, no answer: nothing to compare
            labels = engine.clustering(X, s, int(voted), task["select_seed"],
                                       engine.data_digest(X))
            out.append({**base, "criterion": "ari", "k": int(voted),
                        "score": agreement(truth, labels)})
        return out + [{**base, "criterion": "s_perm", "k": int(k), "score": float(v)}
                      for k, v in auto.normalised_stability(rows).items()]
