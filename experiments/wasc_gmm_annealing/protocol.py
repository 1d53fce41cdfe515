"""What ``wasc_gmm_annealing`` computes: its parameters, its tasks and the rows of one task
— the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria.approximation_capacity import (
    capacity,
    expected_transfer_cost,
    mutual_information,
)
from mtc_cli.core.criteria.information import bic
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import annealing, gmm
from mtc_cli.core.models.resolution import distinct_at
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param

SELECT = {"mutual_information": "max", "transfer_cost": "min", "capacity": "max",
          "bic": "min"}


@dataclass(frozen=True)
class Params:
    means: list[list[float]] = param(
        [[1.0, 0.0], [0.0, 1.5], [-2.0, 0.0], [0.0, -3.0], [4.25, -4.0]],
        help="component means (equal weights)")
    variance: float = param(0.5, help="isotropic component variance σ² (Σ = σ²·I)", min=0.0)
    n: int = param(10000, help="objects in each of X¹ and X²", min=10)
    n_centroids: int = param(10, help="centroids offered to the annealing", min=1)
    t_stop: float = param(0.5, help="lowest stopping temperature", min=0.0)
    cooling: float = param(0.9, help="annealing: T ← cooling·T", min=0.01, max=0.99)
    fine_cooling: float = param(0.99, help="annealing: finest factor near splits",
                                min=0.01, max=0.999)
    merge_tol: float = param(0.5, help="K̂_σ, the centroids more than merge_tol·σ apart: "
                                       "a step that changes it is retried more finely, and "
                                       "the former reading of K̂ (K̂ itself: the resolution "
                                       "of T)", min=0.0)
    bic_k_max: int = param(10, help="BIC: GMMs with k = 1..bic_k_max components", min=1)
    bic_n_init: int = param(2, help="BIC: EM restarts per fit", min=1)
    reps: int = param(3, help="repetitions (new X¹, X², annealing)", min=1)


def sample_aligned(rng: np.random.Generator, means: np.ndarray, sigma: float, n: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X¹, X² aligned by generation: object i of both sets is drawn from the same
    (uniformly chosen) component; returns (X¹, X², labels)."""
    labels = rng.integers(len(means), size=n)
    noise = sigma * rng.standard_normal((2, n, means.shape[1]))
    return means[labels] + noise[0], means[labels] + noise[1], labels


def mds_axis(points: np.ndarray) -> np.ndarray:
    """The optimal 1-D subspace of classical MDS for Euclidean points: their first
    principal axis (unit vector)."""
    centred = points - points.mean(axis=0)
    return np.linalg.svd(centred, full_matrices=False)[2][0]


class WascGmmAnnealingProtocol(Experiment):
    name = "wasc_gmm_annealing"
    description = "wASC Fig. 2 — annealed GMM: I_β, transfer cost and BIC vs temperature"
    Params = Params
    condition = ()
    select = SELECT

    def check(self, p: Params) -> None:
        if len(p.means) < 1 or len({len(m) for m in p.means}) != 1:
            raise MtcError(f"key 'means': expected means of equal dimension, got {p.means}")
        if p.variance <= 0 or p.t_stop <= 0:
            raise MtcError("keys 'variance', 't_stop': must be > 0")
        if p.fine_cooling < p.cooling:
            raise MtcError(f"key 'fine_cooling': {p.fine_cooling} < cooling {p.cooling}")
        d = len(p.means[0])
        check_memory("n", 8.0 * 4 * p.n * (d + p.n_centroids + p.bic_k_max))

    def tasks(self, p: Params) -> list[dict]:
        shared = {k: getattr(p, k) for k in ("means", "variance", "n", "n_centroids", "t_stop",
                                             "cooling", "fine_cooling", "merge_tol",
                                             "bic_k_max", "bic_n_init")}
        return [{"rep": r, **shared} for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        means = np.asarray(task["means"], dtype=np.float64)
        sigma = float(np.sqrt(task["variance"]))
        X1, X2, _ = sample_aligned(rng, means, sigma, task["n"])
        path = annealing.deterministic_annealing(
            X1, task["n_centroids"], rng, sigma=sigma, t_stop=task["t_stop"],
            cooling=task["cooling"], fine_cooling=task["fine_cooling"],
            merge_tol=task["merge_tol"])
        axis = mds_axis(path.centroids[-1])
        centre = X1.mean(axis=0)
        rows = []
        for step, (T, M, k_sigma) in enumerate(zip(path.temperatures, path.centroids,
                                                   path.k_hat, strict=True)):
            c1, c2 = annealing.costs(X1, M), annealing.costs(X2, M)
            labels = distinct_at(M, T)
            merged = annealing.merge(M, labels, np.ones(len(M)))[0]
            cap, cap_beta = capacity(annealing.costs(X1, merged), annealing.costs(X2, merged))
            base = {"rep": task["rep"], "k": int(labels.max() + 1), "k_sigma": int(k_sigma),
                    "T": float(T), "step": step}
            rows += [
                {**base, "criterion": "mutual_information",
                 "score": mutual_information(c1, c2, 1.0 / T)},
                {**base, "criterion": "transfer_cost",
                 "score": expected_transfer_cost(c1, c2, 1.0 / T)},
                {**base, "criterion": "capacity", "score": cap, "beta_star": cap_beta},
            ]
            rows += [{**base, "criterion": "centroid_projection", "centroid": j,
                      "score": float((m - centre) @ axis)} for j, m in enumerate(M)]
        for k in range(1, task["bic_k_max"] + 1):
            sol = gmm.fit(X1, k, covariance_type="spherical", n_init=task["bic_n_init"],
                          random_state=int(rng.integers(2**31 - 1)))
            nll = float(gmm.negative_log_likelihood(sol, X1).sum())
            rows.append({"rep": task["rep"], "criterion": "bic", "k": k,
                         "score": bic(nll, gmm.n_parameters(k, X1.shape[1], "spherical"),
                                      len(X1))})
        return rows
