"""What ``kmeans_mappings`` computes: its parameters, its tasks and the rows of one task —
the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core import mappings
from mtc_cli.core.criteria import kmeans_transfer as kt
from mtc_cli.core.datasets.gaussians import mixture_pairs
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import kmeans
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param

#: criteria selected by argmin of their transfer cost (the sensitivity variants are added
#: per config as ``soft_f<factor>``)
CRITERIA = ("nn", "nn_object", "generative", "soft", "soft_object")


@dataclass(frozen=True)
class Setting:
    """One data-generating mixture: isotropic Gaussian components."""

    name: str = param("equidistant", help="label of the setting (a row of the figure)")
    centres: list[list[float]] = param([[0.0, 0.0], [4.0, 0.0], [2.0, 3.4641016151377544]],
                                       help="component centres (2-D for the scatter)")
    sigmas: list[float] = param([1.0, 1.0, 1.0], help="per-component standard deviation",
                                min=0.0)
    weights: list[float] | None = param(None, help="mixing weights (default: equal)", min=0.0)


@dataclass(frozen=True)
class Params:
    settings: list[Setting] = param([Setting()], help="the mixtures, one figure row each")
    n: int = param(200, help="objects in each of X¹ and X² (drawn in pairs)", min=2)
    k_max: int = param(10, help="largest number of clusters offered", min=1, max=50)
    n_init: int = param(10, help="k-means++ restarts per fit (lowest cost kept)", min=1)
    reps: int = param(20, help="repetitions (new X¹, X²) per setting", min=1)
    beta_factor: float = param(0.75, help="soft mapping: β = factor / R(s¹, X¹, 1)", min=0.0)
    sensitivity_factors: list[float] = param(
        [0.25, 0.5, 1.5, 3.0], help="further β factors for the sensitivity panel", min=0.0)
    example_seed: int = param(0, help="seed of the example data set drawn for the scatter",
                              min=0)


def soft_name(factor: float) -> str:
    return f"soft_f{factor:g}"


def evaluate(X1: np.ndarray, X2: np.ndarray, k_max: int, n_init: int, beta_factor: float,
             extra_factors, rng: np.random.Generator) -> tuple[dict, list]:
    """Scores per criterion (lists over k = 1..k_max) and the k-means solutions of X¹."""
    beta = kt.single_cluster_beta(X1, beta_factor)
    psi = mappings.nearest_neighbour(X1, X2)  # one ψ_NN and one p (eq. 12) serve every k
    p = mappings.soft(kmeans.squared_distances(X1, X2), beta)
    betas = {soft_name(f): kt.single_cluster_beta(X1, f) for f in extra_factors}
    scores = {c: [] for c in ("cost", *CRITERIA, *betas)}
    solutions = []
    for k in range(1, min(k_max, len(X1)) + 1):
        sol = kmeans.fit(X1, k, n_init=n_init, random_state=int(rng.integers(2**31 - 1)))
        solutions.append(sol)
        scores["cost"].append(float(kmeans.costs(sol, X1).mean()))
        scores["nn"].append(kt.structure_transfer_cost(sol, X2))
        scores["nn_object"].append(kt.nearest_neighbour_transfer_cost(sol, X2, psi))
        scores["generative"].append(kt.generative_transfer_cost(sol, X2))
        scores["soft"].append(kt.soft_transfer_cost(sol, X2, beta))
        scores["soft_object"].append(kt.soft_object_transfer_cost(sol, X2, p))
        for name, b in betas.items():
            scores[name].append(kt.soft_transfer_cost(sol, X2, b))
    return scores, solutions


class KmeansMappingsProtocol(Experiment):
    name = "kmeans_mappings"
    description = "MTC Fig. 6 — k-means with nearest-neighbour, generative and soft mapping"
    Params = Params
    condition = ("setting",)

    def check(self, p: Params) -> None:
        names = [s.name for s in p.settings]
        if not names or len(set(names)) != len(names):
            raise MtcError("key 'settings': expected ≥ 1 settings with distinct names, "
                           f"got {names}")
        for i, s in enumerate(p.settings):
            key = f"settings[{i}]"
            if len(s.centres) < 1 or len({len(c) for c in s.centres}) != 1:
                raise MtcError(f"key '{key}.centres': expected centres of equal dimension, "
                               f"got {s.centres}")
            if len(s.sigmas) != len(s.centres):
                raise MtcError(f"key '{key}.sigmas': expected {len(s.centres)} values, "
                               f"got {s.sigmas}")
            if s.weights is not None and (len(s.weights) != len(s.centres)
                                          or sum(s.weights) <= 0):
                raise MtcError(f"key '{key}.weights': expected {len(s.centres)} weights with "
                               f"a positive sum, got {s.weights}")
        check_memory("n", 8.0 * 4 * p.n * p.n)  # the object-level soft mapping is n × n

    def select_rules(self, p: Params) -> dict:
        extra = [soft_name(f) for f in p.sensitivity_factors if f != p.beta_factor]
        return {c: "min" for c in (*CRITERIA, *extra)}

    def tasks(self, p: Params) -> list[dict]:
        shared = {"n": p.n, "k_max": p.k_max, "n_init": p.n_init, "beta_factor": p.beta_factor,
                  "sensitivity_factors": [f for f in p.sensitivity_factors
                                          if f != p.beta_factor]}
        return [{"setting": s.name, "centres": s.centres, "sigmas": s.sigmas,
                 "weights": s.weights, "rep": r, **shared}
                for s in p.settings for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X1, X2, _ = mixture_pairs(rng, task["n"], task["centres"], task["sigmas"],
                                  task["weights"])
        scores, _ = evaluate(X1, X2, task["k_max"], task["n_init"], task["beta_factor"],
                             task["sensitivity_factors"], rng)
        return [{"setting": task["setting"], "rep": task["rep"], "criterion": c, "k": k + 1,
                 "score": s} for c, values in scores.items() for k, s in enumerate(values)]
