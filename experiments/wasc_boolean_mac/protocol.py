"""What ``wasc_boolean_mac`` computes: its parameters, its tasks and the rows of one task —
the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from mtc_cli.core.criteria.approximation_capacity import capacity
from mtc_cli.core.datasets import boolean_sources
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import boolean
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param

#: model → (sources fitted, largest assignment set, noise model of eq. 16)
MODELS = {"MAC": (2, 2, False), "MAC-mix": (2, 2, True), "SAC": (3, 1, False),
          "SAC-mix": (3, 1, True)}
#: rows of each noise start of a -mix fit: its mismatch, ε̂ and likelihood gap to the best
BY_START = "mismatch_by_start"


@dataclass(frozen=True)
class Params:
    n_dims: int = param(150, help="dimensions D of the sources", min=2)
    distance: int = param(40, help="Hamming distance of the two sources", min=2)
    p_one: float = param(0.5, help="P(1) of the bits the sources share", min=0.0, max=1.0)
    per_set: int = param(100, help="objects from source 1, source 2 and their OR each",
                         min=1)
    epsilons: list[float] = param(
        [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99],
        help="noise fractions ε", min=0.0, max=1.0)
    r: float = param(0.75, help="P(1) of a noise bit", min=0.0, max=1.0)
    restarts: int = param(3, help="annealing runs per model (lowest cost on X¹ kept)", min=1)
    epsilon_starts: list[float] = param(
        [0.05], help="noise fractions the -mix fits start from, one per restart in turn "
                     "(the fit stays near its start: several starts, the best likelihood kept)",
        min=0.0, max=0.99)
    model_r: float | None = param(None, help="-mix models: P(1) of a noise bit held fixed at "
                                             "this value (null: estimated)", min=0.0, max=1.0)
    cooling: float = param(0.9, help="annealing: T ← cooling·T", min=0.01, max=0.99)
    max_iter: int = param(100, help="annealing: most EM sweeps per temperature", min=1)
    reps: int = param(5, help="repetitions (new sources, X¹, X²) per ε", min=1)


def profile_mismatch(estimated: np.ndarray, true: np.ndarray) -> float:
    """Fraction of wrong bits of the estimated Boolean set profiles (L, D) after the best
    one-to-one matching to the true ones (Hungarian method on the Hamming distances)."""
    est = np.asarray(estimated, dtype=bool)
    ref = np.asarray(true, dtype=bool)
    C = (est[:, None, :] != ref[None, :, :]).sum(axis=2)
    i, j = linear_sum_assignment(C)
    return float(C[i, j].sum()) / ref.size


def fit_all(X: np.ndarray, model: str, rng: np.random.Generator, *, restarts: int,
            cooling: float, max_iter: int, epsilon_starts=(0.05,),
            model_r: float | None = None) -> list[tuple[float, boolean.MacSolution]]:
    """(noise start, solution) of each of ``restarts`` runs of deterministic annealing of
    the ``model`` (a key of :data:`MODELS`) on X, run i starting its noise fraction at
    ``epsilon_starts[i mod len]``."""
    K, m, noise = MODELS[model]
    starts = [epsilon_starts[i % len(epsilon_starts)] for i in range(restarts)]
    return [(e0, boolean.fit_mac(X, K, rng, max_assignments=m, noise=noise, cooling=cooling,
                                 max_iter=max_iter, epsilon0=e0, fixed_r=model_r))
            for e0 in starts]


def fit(X: np.ndarray, model: str, rng: np.random.Generator, **kw) -> boolean.MacSolution:
    """Of the runs of :func:`fit_all`, the one of lowest negative log-likelihood on X."""
    return min((sol for _, sol in fit_all(X, model, rng, **kw)),
               key=lambda s: s.neg_log_likelihood())


def capacity_in_use(R1: np.ndarray, R2: np.ndarray) -> tuple[float, float]:
    """The capacity of eq. 13 over the assignment sets in use: the sets that at least one
    object of X¹ takes as its most probable (lowest cost R1), so that log₂|{τ}|/n =
    log₂ L_used. A set no object uses leaves eq. 13's bracket unchanged and would add its
    share of log₂ L for nothing (≈ 0.55 bits for pure noise, where MAC-mix uses one set).
    The GMM experiments merge coinciding centroids for the same reason."""
    used = np.unique(np.argmin(R1, axis=1))
    return capacity(R1[:, used], R2[:, used])


class WascBooleanMacProtocol(Experiment):
    name = "wasc_boolean_mac"
    description = "wASC Fig. 3 — MAC/SAC with and without noise model: capacity vs ε"
    Params = Params
    condition = ("epsilon",)
    select = {"capacity": "max", "capacity_in_use": "max", "mismatch": "min"}

    def check(self, p: Params) -> None:
        if p.distance > p.n_dims:
            raise MtcError(f"key 'distance': {p.distance} exceeds n_dims {p.n_dims}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {k: getattr(p, k) for k in ("n_dims", "distance", "p_one", "per_set", "r",
                                             "restarts", "cooling", "max_iter",
                                             "epsilon_starts", "model_r")}
        return [{"epsilon": e, "rep": rep, **shared} for e in p.epsilons
                for rep in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        U = boolean_sources.two_sources(rng, task["n_dims"], task["distance"], task["p_one"])
        profiles = boolean_sources.set_profiles(U, boolean.assignment_sets(2, 2))
        labels = np.repeat(np.arange(len(profiles)), task["per_set"])
        X1, X2 = (boolean_sources.sample(rng, profiles, labels, task["epsilon"], task["r"])
                  .astype(np.float64) for _ in range(2))
        rows = []
        for code, model in enumerate(MODELS, start=1):
            runs = fit_all(X1, model, rng, restarts=task["restarts"],
                           cooling=task["cooling"], max_iter=task["max_iter"],
                           epsilon_starts=task["epsilon_starts"], model_r=task["model_r"])
            nll = [sol.neg_log_likelihood() for _, sol in runs]
            sol = runs[int(np.argmin(nll))][1]
            estimated = boolean.set_parameters(sol.v, sol.sets) < 0.5  # P(emit 1) > ½
            R1 = boolean.costs(X1, sol.v, sol.sets, sol.epsilon, sol.r)
            R2 = boolean.costs(X2, sol.v, sol.sets, sol.epsilon, sol.r)
            cap, beta = capacity(R1, R2)
            cap_used, beta_used = capacity_in_use(R1, R2)
            # assignment sets that no object of X¹ takes as its most probable one: eq. 13
            # still counts them in log₂|{τ}| = log₂ L
            unused = len(sol.sets) - len(np.unique(np.argmin(R1, axis=1)))
            base = {"epsilon": task["epsilon"], "rep": task["rep"], "model": model,
                    "k": code, "epsilon_hat": sol.epsilon, "r_hat": sol.r,
                    "unused_sets": unused}
            rows += [{**base, "criterion": "capacity", "score": cap, "beta_star": beta},
                     {**base, "criterion": "capacity_in_use", "score": cap_used,
                      "beta_star": beta_used},
                     {**base, "criterion": "mismatch",
                      "score": profile_mismatch(estimated, profiles)}]
            if MODELS[model][2]:  # each noise start of a -mix model, kept or not
                rows += [{**base, "criterion": BY_START, "epsilon_start": e0,
                          "epsilon_hat": run.epsilon, "nll_gap": value - min(nll),
                          "score": profile_mismatch(
                              boolean.set_parameters(run.v, run.sets) < 0.5, profiles)}
                         for (e0, run), value in zip(runs, nll, strict=True)]
        return rows
