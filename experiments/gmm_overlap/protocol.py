"""What ``gmm_overlap`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from mtc_cli.core.criteria.information import aic, bic
from mtc_cli.core.criteria.transfer_cost import transfer_cost
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import gmm
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param

CRITERIA = {"mtc": "min", "bic": "min", "aic": "min"}

DISTANCES = ("centres", "radius")


@dataclass(frozen=True)
class Params:
    centres: list[list[float]] = param(
        [[0.0, 0.0], [1.0, 0.0], [0.5, 0.8660254037844386]],
        help="component centres (any dimension); d = their smallest pairwise distance")
    weights: list[float] | None = param(None, help="mixing weights (default: equal)", min=0.0)
    sigma_over_d: list[float] = param(
        [round(0.1 + 0.05 * i, 2) for i in range(29)],
        help="grid of the common isotropic standard deviation σ in units of the distance "
             "named by 'distance'", min=0.0)
    distance: str = param("centres", help="what σ is measured against: 'centres', the "
                                          "distance d between two centres (the paper's "
                                          "'distance between the centers'); 'radius', the "
                                          "distance r from the centres' mean to a centre "
                                          "(d/√3 for the triangle)",
                          choices=list(DISTANCES))
    n: int = param(500, help="items in each of X¹ and X²", min=2)
    k_max: int = param(8, help="largest number of components offered", min=1, max=50)
    covariance_type: str = param("full", help="GMM covariance model",
                                 choices=list(gmm.COVARIANCE_TYPES))
    n_init: int = param(5, help="EM restarts per fit (best likelihood kept)", min=1)
    reps: int = param(20, help="repetitions (independent X¹, X²) per σ", min=1)
    example_sigmas: list[float] = param(
        [0.3, 0.6], help="σ/d of the cost-curve rows of the figure (nearest grid value)")


def centre_distance(centres) -> float:
    """d: the smallest distance between two component centres."""
    c = np.asarray(centres, dtype=np.float64)
    return min(float(np.linalg.norm(a - b)) for a, b in combinations(c, 2))


def radius(centres) -> float:
    """r: the mean distance of the centres from their mean (d/√3 for an equilateral
    triangle of side d)."""
    c = np.asarray(centres, dtype=np.float64)
    return float(np.linalg.norm(c - c.mean(axis=0), axis=1).mean())


def unit(centres, distance: str) -> float:
    """The length σ is measured in: d (``centres``) or r (``radius``)."""
    return centre_distance(centres) if distance == "centres" else radius(centres)


class GmmOverlapProtocol(Experiment):
    name = "gmm_overlap"
    description = "MTC Fig. 1 — number of Gaussians by MTC vs BIC vs AIC as overlap grows"
    Params = Params
    condition = ("sigma_over_d",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        dims = {len(c) for c in p.centres}
        if len(p.centres) < 2 or len(dims) != 1:
            raise MtcError("key 'centres': expected ≥ 2 centres of equal dimension, "
                           f"got {p.centres}")
        if centre_distance(p.centres) <= 0:
            raise MtcError("key 'centres': two centres coincide")
        if p.weights is not None and len(p.weights) != len(p.centres):
            raise MtcError(f"key 'weights': expected {len(p.centres)} weights, got {p.weights}")
        if p.weights is not None and sum(p.weights) <= 0:
            raise MtcError(f"key 'weights': expected weights with a positive sum, got "
                           f"{p.weights}")
        d = len(p.centres[0])
        # X¹, X² and the EM's responsibilities and per-component work arrays, float64
        check_memory("n", 8.0 * p.n * (2 * d + 4 * p.k_max * (d + 1)))

    def tasks(self, p: Params) -> list[dict]:
        shared = {"centres": p.centres, "weights": p.weights, "n": p.n, "k_max": p.k_max,
                  "covariance_type": p.covariance_type, "n_init": p.n_init}
        if p.distance != "centres":  # the default stays out of the key (runs keep theirs)
            shared["distance"] = p.distance
        return [{"sigma_over_d": s, "rep": r, **shared}
                for s in p.sigma_over_d for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        centres = np.asarray(task["centres"], dtype=np.float64)
        sigma = task["sigma_over_d"] * unit(centres, task.get("distance", "centres"))
        X1, _ = gmm.sample(rng, task["n"], centres, sigma, task["weights"])
        X2, _ = gmm.sample(rng, task["n"], centres, sigma, task["weights"])
        d = X1.shape[1]
        rows = []
        for k in range(1, min(task["k_max"], task["n"]) + 1):
            sol = gmm.fit(X1, k, covariance_type=task["covariance_type"],
                          n_init=task["n_init"], random_state=int(rng.integers(2**31 - 1)))
            nll1 = float(gmm.negative_log_likelihood(sol, X1).sum())
            p = gmm.n_parameters(k, d, task["covariance_type"])
            scores = {
                "mtc": transfer_cost(gmm.negative_log_likelihood(sol, X2)),
                "bic": bic(nll1, p, len(X1)),
                "aic": aic(nll1, p),
                "training_cost": nll1 / len(X1),
            }
            rows += [{"sigma_over_d": task["sigma_over_d"], "rep": task["rep"],
                      "criterion": c, "k": k, "score": s} for c, s in scores.items()]
        return rows
