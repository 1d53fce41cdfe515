"""What ``hansen_kmeans`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria.generalization import ml_generalization_error
from mtc_cli.core.datasets.gaussians import mixture_labels, mixture_points
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import rbf_density
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param

CRITERIA = {"test": "min", "analytic": "min"}


@dataclass(frozen=True)
class Params:
    centres: list[list[float]] = param(
        [[0.0, 0.0], [3.0, 0.0], [1.5, 2.598076211353316]],
        help="cluster centres (2-D for the scatter of Fig. 2)")
    sigma: float = param(0.5, help="standard deviation per dimension of every cluster", min=0.0)
    weights: list[float] | None = param(None, help="cluster probabilities (default: equal)",
                                        min=0.0)
    n_train: int = param(42, help="training vectors N", min=2)
    n_test: int = param(120, help="test vectors", min=1)
    k_max: int = param(7, help="largest number of clusters K offered", min=1, max=50)
    n_init: int = param(10, help="K-means restarts per fit (lowest cost kept)", min=1)
    reps: int = param(10, help="replications (new training and test sets)", min=1)
    paper_reps: int = param(10, help="the paper's replications: the first paper_reps give the "
                                     "paper's figure and claims, all reps the derived ones",
                            min=1)
    example_seed: int = param(0, help="seed of the example training set of Fig. 2", min=0)


def draw(rng: np.random.Generator, n: int, centres, sigma: float, weights) -> np.ndarray:
    """n vectors from the mixture of isotropic clusters with common width σ."""
    return mixture_points(rng, mixture_labels(rng, n, len(centres), weights), centres, sigma)


class HansenKmeansProtocol(Experiment):
    name = "hansen_kmeans"
    description = "Hansen & Larsen 1996 Figs. 2–3 — number of K-means/RBF clusters"
    Params = Params
    condition = ()
    select = CRITERIA

    def check(self, p: Params) -> None:
        if len(p.centres) < 1 or len({len(c) for c in p.centres}) != 1:
            raise MtcError(f"key 'centres': expected centres of equal dimension, got {p.centres}")
        if p.weights is not None and len(p.weights) != len(p.centres):
            raise MtcError(f"key 'weights': expected {len(p.centres)} weights, got {p.weights}")
        if p.k_max >= p.n_train:
            raise MtcError(f"key 'k_max': expected fewer clusters than n_train = {p.n_train}, "
                           f"got {p.k_max}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {"centres": p.centres, "sigma": p.sigma, "weights": p.weights,
                  "n_train": p.n_train, "n_test": p.n_test, "k_max": p.k_max,
                  "n_init": p.n_init}
        return [{"rep": r, **shared} for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        mix = (task["centres"], task["sigma"], task["weights"])
        X, X_test = draw(rng, task["n_train"], *mix), draw(rng, task["n_test"], *mix)
        n, L = X.shape
        rows = []
        for K in range(1, task["k_max"] + 1):
            sol = rbf_density.fit(X, K, n_init=task["n_init"],
                                  random_state=int(rng.integers(2**31 - 1)))
            E = float(rbf_density.negative_log_likelihood(sol, X).mean())
            scores = {"train": E,
                      "test": float(rbf_density.negative_log_likelihood(sol, X_test).mean()),
                      "analytic": float(ml_generalization_error(
                          E, rbf_density.n_parameters(K, L), n))}
            rows += [{"rep": task["rep"], "criterion": c, "k": K, "score": s}
                     for c, s in scores.items()]
        return rows
